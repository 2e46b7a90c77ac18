package columnar

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// CSVDialect is how a delimited file is written and what it holds: what
// SniffCSV finds in a sample of the file, or was told.
type CSVDialect struct {
	Delimiter rune
	// Quote is '"' when fields are enclosed, else 0.
	Quote rune
	// Header is whether the first line names the columns.
	Header bool
	// Null is the file's spelling of NULL besides `\N` and the empty field
	// (NULL, NA, ...), or "".
	Null string
	// Fields are the columns, named from the header (or column0, column1,
	// ... without one) and typed from the sample.
	Fields []Field
}

// SniffOptions override what SniffCSV would detect.
type SniffOptions struct {
	Delimiter rune  // 0: detect among , | ; and tab
	Quote     rune  // 0: detect ('"' when a sampled field starts with it)
	Header    *bool // nil: detect
	// Columns, when set, name and type the columns; only the dialect is
	// detected (their number must match the file's).
	Columns []Field
	// Null, when set, is the spelling of NULL (not detected then).
	Null string
}

// nullWords are the spellings of NULL the sniffer tries.
var nullWords = []string{"NULL", "null", "NA", "N/A", "None", "nil"}

// sniffBytes is the size of the sample read from the start of the file.
const sniffBytes = 256 << 10

// sniffDelimiters are the candidates, in order of preference on a tie.
var sniffDelimiters = []rune{',', '|', ';', '\t'}

// SniffCSV detects a delimited file's dialect and column types from its
// first sniffBytes, as DuckDB's sniffer does:
//
//   - delimiter: the candidate that splits the sample's lines into the same
//     number (> 1) of fields most consistently (a single column when none
//     does); a trailing delimiter on every line (dbgen's "1|2|") adds no
//     column;
//   - types, per column, over the non-NULL sampled values: the narrowest of
//     INT, BIGINT, DECIMAL(p,s) (up to 18 digits), DOUBLE, DATE
//     (YYYY-MM-DD), BOOLEAN (true/false) and VARCHAR that holds them all;
//     `\N` and the empty field are NULL (the loader's spellings), a column
//     with no value is VARCHAR;
//   - NULL spelling: one of nullWords when treating it as NULL turns a
//     VARCHAR column into a typed one (a column of numbers and NA);
//   - header: the first line is a header when one of its fields is text in
//     a column whose other values are numbers, dates or booleans, or, when every column is VARCHAR, when its
//     fields are distinct names that recur nowhere below them.
//
// A value past the sample that does not fit its column's type fails the
// load with the loader's error (file, line, column), naming the type; the
// columns={...} option of read_csv then fixes the types.
func SniffCSV(path string, opts SniffOptions) (CSVDialect, error) {
	sample, err := readSample(path)
	if err != nil {
		return CSVDialect{}, err
	}
	d := CSVDialect{Delimiter: opts.Delimiter, Quote: opts.Quote}
	if d.Quote == 0 && hasLeadingQuote(sample) {
		d.Quote = '"'
	}
	var rows [][]string
	if d.Delimiter == 0 {
		d.Delimiter, rows = bestDelimiter(sample, d.Quote)
	} else {
		rows = splitSample(sample, d.Delimiter, d.Quote)
	}
	if len(rows) == 0 {
		return CSVDialect{}, fmt.Errorf("read %s: the file is empty", path)
	}
	rows = dropTrailingEmpty(rows)
	d.Null = opts.Null
	if d.Null == "" {
		d.Null = sniffNullWord(rows[1:])
	}
	types := make([]Type, len(rows[0]))
	for c := range types {
		types[c] = columnType(rows[1:], c, d.Null)
	}
	d.Header = looksLikeHeader(rows, types, d.Null)
	if opts.Header != nil {
		d.Header = *opts.Header
	}
	if !d.Header {
		for c := range types {
			types[c] = columnType(rows, c, d.Null)
		}
	}
	if opts.Columns != nil {
		if len(opts.Columns) != len(types) {
			return CSVDialect{}, fmt.Errorf("read %s: columns names %d columns, the file has %d", path, len(opts.Columns), len(types))
		}
		d.Fields = opts.Columns
		return d, nil
	}
	d.Fields = make([]Field, len(types))
	for c, t := range types {
		d.Fields[c] = Field{Name: columnName(rows[0], c, d.Header), Type: t, Nullable: true}
	}
	return d, nil
}

// readSample reads the start of the file, cut after its last whole line
// when the file is longer.
func readSample(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	buf := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return buf[:n], nil
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if i := bytes.LastIndexByte(buf, '\n'); i > 0 {
		return buf[:i+1], nil
	}
	return buf, nil
}

func hasLeadingQuote(b []byte) bool {
	for i, c := range b {
		if c == '"' && (i == 0 || strings.IndexByte("\n,|;\t", b[i-1]) >= 0) {
			return true
		}
	}
	return false
}

// splitSample splits the sample into records with encoding/csv (lenient
// about quotes when the file does not enclose fields); a record cut by the
// end of the sample is dropped.
func splitSample(b []byte, delim, quote rune) [][]string {
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma, r.FieldsPerRecord, r.LazyQuotes = delim, -1, quote == 0
	var rows [][]string
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		if len(rec) == 1 && rec[0] == "" {
			continue
		}
		rows = append(rows, rec)
	}
	return rows
}

// bestDelimiter picks the candidate whose modal field count (> 1) covers
// the most records, then the one with more fields.
func bestDelimiter(b []byte, quote rune) (rune, [][]string) {
	best, bestRows, bestScore, bestWidth := ',', splitSample(b, ',', quote), -1, 0
	for _, d := range sniffDelimiters {
		rows := splitSample(b, d, quote)
		width, score := modalWidth(rows)
		if width > 1 && (score > bestScore || score == bestScore && width > bestWidth) {
			best, bestRows, bestScore, bestWidth = d, rows, score, width
		}
	}
	return best, bestRows
}

func modalWidth(rows [][]string) (width, count int) {
	counts := map[int]int{}
	for _, r := range rows {
		counts[len(r)]++
		if counts[len(r)] > count || counts[len(r)] == count && len(r) > width {
			width, count = len(r), counts[len(r)]
		}
	}
	return width, count
}

// dropTrailingEmpty removes the last field when every record's is empty
// (dbgen's trailing delimiter), and pads or cuts records to the first
// record's width so the type scan can index them.
func dropTrailingEmpty(rows [][]string) [][]string {
	w := len(rows[0])
	trailing := w > 1
	for _, r := range rows {
		trailing = trailing && len(r) == w && r[w-1] == ""
	}
	if trailing {
		w--
	}
	for i, r := range rows {
		if len(r) != w {
			rows[i] = append(r[:min(len(r), w):min(len(r), w)], make([]string, max(0, w-len(r)))...)
		}
	}
	return rows
}

// sniffNull reports whether a sampled value is NULL to the loader.
func sniffNull(s, null string) bool { return s == "" || s == `\N` || null != "" && s == null }

// sniffNullWord returns the word of nullWords that, read as NULL, types
// the most VARCHAR columns, or "".
func sniffNullWord(rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	best, bestN := "", 0
	for _, w := range nullWords {
		n := 0
		for c := range rows[0] {
			if columnType(rows, c, "").ID == String && columnType(rows, c, w).ID != String && hasValue(rows, c, w) {
				n++
			}
		}
		if n > bestN {
			best, bestN = w, n
		}
	}
	return best
}

func hasValue(rows [][]string, c int, v string) bool {
	for _, r := range rows {
		if strings.TrimSpace(r[c]) == v {
			return true
		}
	}
	return false
}

// columnType is the narrowest type holding every non-NULL value of column
// c of rows.
func columnType(rows [][]string, c int, null string) Type {
	g := typeGuess{null: null}
	for _, r := range rows {
		if g.add(r[c]); g.kind == String {
			break
		}
	}
	return g.typ()
}

// typeGuess accumulates the type of a column's values. Numbers widen along
// INT < BIGINT < DECIMAL < DOUBLE (a DECIMAL wider than 18 digits is a
// DOUBLE); DATE widens to DATETIME ('YYYY-MM-DD HH:MM:SS[.ffffff]', fsp the
// most fraction digits seen); BOOLEAN (true/false) holds only itself; any
// other mix is VARCHAR.
type typeGuess struct {
	kind             TypeID // 0 until a non-NULL value is seen
	intDigits, scale int    // of the INT and DECIMAL values seen
	fsp              int    // fraction digits of the DATETIME values seen
	null             string // the extra NULL spelling
}

var numericRank = map[TypeID]int{Int32: 1, Int64: 2, Decimal: 3, Float64: 4}

func (g *typeGuess) add(v string) {
	v = strings.TrimSpace(v)
	if sniffNull(v, g.null) || g.kind == String {
		return
	}
	k := valueKind(v)
	if k == Int32 || k == Int64 || k == Decimal {
		p, s, _ := decimalShape(v)
		g.intDigits, g.scale = max(g.intDigits, p-s), max(g.scale, s)
	}
	if k == Datetime {
		g.fsp = max(g.fsp, datetimeFractionDigits(v))
	}
	switch {
	case g.kind == 0 || g.kind == k:
		g.kind = k
	case (g.kind == Date || g.kind == Datetime) && (k == Date || k == Datetime):
		g.kind = Datetime // a date alone reads as its midnight
	case numericRank[g.kind] > 0 && numericRank[k] > 0:
		if numericRank[k] > numericRank[g.kind] {
			g.kind = k
		}
	default:
		g.kind = String
	}
}

func (g *typeGuess) typ() Type {
	switch g.kind {
	case 0, String:
		return TString
	case Decimal:
		if g.intDigits+g.scale > 18 {
			return TFloat64
		}
		return TDecimal(max(g.intDigits+g.scale, 1), g.scale)
	case Datetime:
		return TDatetime(g.fsp)
	}
	return Type{ID: g.kind}
}

// valueKind is the narrowest type of one value.
func valueKind(v string) TypeID {
	b := []byte(v)
	if n, ok, inRange := parseInt(b); ok && inRange {
		if n == int64(int32(n)) {
			return Int32
		}
		return Int64
	}
	if _, _, ok := decimalShape(v); ok {
		return Decimal
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil && v[0] != 'N' && v[0] != 'I' && v[0] != 'n' && v[0] != 'i' {
		return Float64
	}
	if _, ok := parseDate(b); ok {
		return Date
	}
	if sniffDatetime(v) {
		return Datetime
	}
	if strings.EqualFold(v, "true") || strings.EqualFold(v, "false") {
		return Bool
	}
	return String
}

// sniffDatetime accepts only the unambiguous shape 'YYYY-MM-DD HH:MM:SS'
// (or a 'T' separator) with an optional fraction, inside DATETIME's range.
func sniffDatetime(v string) bool {
	if len(v) < 19 || (v[10] != ' ' && v[10] != 'T') || v[13] != ':' || v[16] != ':' {
		return false
	}
	if _, ok := parseDate([]byte(v[:10])); !ok {
		return false
	}
	us, ok := ParseDatetime(v, MaxFsp)
	return ok && us >= MinDatetime && us <= MaxDatetime
}

func datetimeFractionDigits(v string) int {
	if i := strings.LastIndexByte(v, '.'); i > 0 {
		return min(FractionDigits(v[i+1:]), MaxFsp)
	}
	return 0
}

func isDigitsOnly(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// decimalShape returns the digits (precision) and fraction digits (scale)
// of a plain decimal literal like -12.50.
func decimalShape(v string) (p, s int, ok bool) {
	v = strings.TrimLeft(v, "+-")
	intPart, frac, _ := strings.Cut(v, ".")
	if intPart == "" && frac == "" || !isDigitsOnly(intPart) || !isDigitsOnly(frac) {
		return 0, 0, false
	}
	intPart = strings.TrimLeft(intPart, "0")
	return len(intPart) + len(frac), len(frac), true
}

// looksLikeHeader applies SniffCSV's header rule to the first record.
func looksLikeHeader(rows [][]string, types []Type, null string) bool {
	first := rows[0]
	allString := true
	for c, t := range types {
		v := strings.TrimSpace(first[c])
		if sniffNull(v, null) {
			return false
		}
		if t.ID != String {
			allString = false
			if valueKind(v) == String {
				return true
			}
		}
	}
	if !allString || len(rows) < 2 {
		return false
	}
	seen := map[string]bool{}
	for c, v := range first {
		if seen[v] {
			return false
		}
		seen[v] = true
		for _, r := range rows[1:] {
			if r[c] == v {
				return false
			}
		}
	}
	return true
}

func columnName(first []string, c int, header bool) string {
	if header {
		if n := strings.TrimSpace(first[c]); n != "" {
			return n
		}
	}
	return "column" + strconv.Itoa(c)
}
