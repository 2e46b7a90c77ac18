package export

import (
	"bufio"
	"fmt"
	"strings"
	"unicode/utf8"

	"gpusql/exec"
)

// CSVOptions describe the text written. The zero value is not useful; use
// DefaultCSV or fill every field.
type CSVOptions struct {
	// Header writes a first line of column names.
	Header bool
	// Delimiter separates fields.
	Delimiter rune
	// Quote encloses a field that holds the delimiter, the quote, a line
	// break, leading or trailing blanks, the NULL spelling, or nothing (the
	// empty string); a quote inside is doubled (RFC 4180). 0 never
	// encloses: such a value is then an error naming its row and column.
	Quote rune
	// QuoteAll encloses every field but NULL.
	QuoteAll bool
	// Null is how NULL is spelled, always unquoted. A string equal to it,
	// or to `\N` (NULL to the loaders whatever the spelling), is quoted.
	Null string
}

// DefaultCSV is COPY's default: a header, commas, '"' where needed and NULL
// as \N. \N rather than DuckDB's empty field because LOAD DATA, IMPORT INTO
// and read_csv here (like MySQL's LOAD DATA) read an unquoted \N as NULL in
// every column, while an empty field is the empty string in a VARCHAR
// column; so a written file reads back to the same table. The empty string
// is written quoted ("").
var DefaultCSV = CSVOptions{Header: true, Delimiter: ',', Quote: '"', Null: `\N`}

// WriteCSV writes r as delimited text, one line per row ending in '\n'.
// Values are written as the MySQL client shows them (exec.FormatValue):
// DECIMAL with its scale, DATE as YYYY-MM-DD, DOUBLE in its shortest exact
// form, BOOLEAN as 1/0.
func WriteCSV(w *bufio.Writer, r *exec.Result, opts CSVOptions) error {
	if opts.Delimiter == 0 {
		opts.Delimiter = ','
	}
	fw := fieldWriter{w: w, opts: opts, special: string(opts.Delimiter) + "\r\n"}
	if opts.Quote != 0 {
		fw.special += string(opts.Quote)
	}
	if opts.Header {
		for j, name := range r.Names {
			if err := fw.field(name, false, j); err != nil {
				return fmt.Errorf("column name %q: %w", name, err)
			}
		}
		w.WriteByte('\n')
	}
	for i := 0; i < r.Rows; i++ {
		for j, c := range r.Columns {
			var err error
			if c.IsNull(i) {
				err = fw.raw(opts.Null, j)
			} else {
				err = fw.field(exec.FormatValue(c, i), opts.QuoteAll, j)
			}
			if err != nil {
				return fmt.Errorf("row %d, column %d (%s): %w", i+1, j+1, r.Names[j], err)
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

type fieldWriter struct {
	w       *bufio.Writer
	opts    CSVOptions
	special string
}

func (fw *fieldWriter) raw(s string, j int) error {
	if j > 0 {
		fw.w.WriteRune(fw.opts.Delimiter)
	}
	_, err := fw.w.WriteString(s)
	return err
}

// field writes one non-NULL value, enclosed when asked or when it must be.
func (fw *fieldWriter) field(s string, enclose bool, j int) error {
	// `\N` is NULL to every reader here whatever opts.Null is.
	isNull := s == fw.opts.Null || s == `\N`
	need := s == "" || isNull || strings.ContainsAny(s, fw.special) ||
		s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t'
	q := fw.opts.Quote
	if q == 0 {
		switch {
		case isNull:
			return fmt.Errorf("the string %q would read back as NULL (add FIELDS ENCLOSED BY '\"')", s)
		case strings.ContainsAny(s, fw.special):
			return fmt.Errorf("the value %q holds the delimiter or a line break (add FIELDS ENCLOSED BY '\"')", s)
		}
		return fw.raw(s, j)
	}
	if !need && !enclose {
		return fw.raw(s, j)
	}
	qs := string(q)
	if utf8.RuneLen(q) > 0 && strings.ContainsRune(s, q) {
		s = strings.ReplaceAll(s, qs, qs+qs)
	}
	return fw.raw(qs+s+qs, j)
}
