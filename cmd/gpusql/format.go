package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"gpusql/exec"
	"gpusql/storage/columnar"
	"gpusql/storage/export"
)

// Output formats (--format):
//
//   - table: an aligned box like the mysql client's, numbers right-aligned,
//     NULL printed as NULL, then "N rows in set".
//   - csv: RFC 4180; a header line of column names, then one line per row.
//     Numbers are exact (DECIMAL with its scale, no thousands separators),
//     dates YYYY-MM-DD, booleans 1/0. NULL is \N unquoted (as MySQL's
//     INTO OUTFILE writes it and LOAD DATA reads it) and the empty string a
//     quoted "", so the two stay distinct (the same text as COPY ... TO).
//   - json: each result set is one JSON array of objects (keys in column
//     order), one object per line. A run of scripts and -c statements
//     writes one JSON document: that array when it returned one result
//     set, else an array holding one array per result set.
//     Integers and DECIMALs are JSON numbers written exactly, DOUBLEs
//     numbers (null for NaN and infinities), dates strings, BOOLEANs
//     true/false, NULL null. A JSON column's value is embedded as JSON
//     (so a JSON null and SQL NULL both print null).
//
//   - markdown: a Markdown table; line: "column = value" lines per row.
//
// With csv and json only result rows go to stdout; messages and timings go
// to stderr so the output stays machine-readable.

type printer interface {
	rows(r *exec.Result) error
}

func newPrinter(format string, w io.Writer) (printer, error) {
	switch format {
	case "table", "":
		return tablePrinter{w: w}, nil
	case "csv":
		return csvPrinter{w}, nil
	case "json":
		return jsonPrinter{w: w}, nil
	case "markdown":
		return markdownPrinter{w}, nil
	case "line":
		return linePrinter{w}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want table, csv, json, markdown or line)", format)
}

func isNumeric(t columnar.Type) bool { return t.IsNumeric() || t.ID == columnar.Bool }

// tablePrinter draws the mysql client's box. With width set (the REPL on a
// terminal) a result wider than the screen shows its first and last
// columns around a "…" column, as duckdb does; with maxRows set, a longer
// result shows its first and last maxRows/2 rows around a "·" row. A line
// after the box says what was left out.
type tablePrinter struct {
	w              io.Writer
	width, maxRows int
}

func (p tablePrinter) rows(r *exec.Result) error {
	bw := bufio.NewWriter(p.w)
	rows := shownRows(r.Rows, p.maxRows)
	cells := make([][]string, len(rows))
	for k, i := range rows {
		if i < 0 {
			cells[k] = nil
			continue
		}
		cells[k] = r.Row(i)
	}
	widths := make([]int, len(r.Columns))
	for j := range r.Columns {
		widths[j] = utf8.RuneCountInString(r.Names[j])
		for _, row := range cells {
			if row != nil {
				widths[j] = max(widths[j], utf8.RuneCountInString(row[j]))
			}
		}
	}
	cols := shownColumns(widths, p.width)
	rule := func() {
		bw.WriteByte('+')
		for _, j := range cols {
			bw.WriteString(strings.Repeat("-", colWidth(widths, j)+2))
			bw.WriteByte('+')
		}
		bw.WriteByte('\n')
	}
	line := func(vals []string, right func(j int) bool) {
		bw.WriteByte('|')
		for _, j := range cols {
			v := "…"
			if j >= 0 {
				v = "·"
				if vals != nil {
					v = vals[j]
				}
			}
			pad := strings.Repeat(" ", colWidth(widths, j)-utf8.RuneCountInString(v))
			bw.WriteByte(' ')
			if j >= 0 && right(j) {
				bw.WriteString(pad + v)
			} else {
				bw.WriteString(v + pad)
			}
			bw.WriteString(" |")
		}
		bw.WriteByte('\n')
	}
	rule()
	line(r.Names, func(int) bool { return false })
	rule()
	for _, row := range cells {
		line(row, func(j int) bool { return isNumeric(r.Columns[j].Type) })
	}
	if r.Rows > 0 {
		rule()
	}
	var cut []string
	if shown := len(rows) - boolInt(len(rows) < r.Rows); shown < r.Rows {
		cut = append(cut, fmt.Sprintf("%d of %d rows", shown, r.Rows))
	}
	if shown := len(cols) - boolInt(len(cols) < len(widths)); shown < len(widths) {
		cut = append(cut, fmt.Sprintf("%d of %d columns", shown, len(widths)))
	}
	if len(cut) > 0 {
		fmt.Fprintf(bw, "(%s shown)\n", strings.Join(cut, ", "))
	}
	return bw.Flush()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// colWidth is the width of column j; -1 is the elision column.
func colWidth(widths []int, j int) int {
	if j < 0 {
		return 1
	}
	return widths[j]
}

// shownRows lists the rows to print, -1 standing for the elided ones.
func shownRows(n, maxRows int) []int {
	out := make([]int, 0, min(n, maxRows+1))
	if maxRows <= 0 || n <= maxRows {
		for i := 0; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	half := maxRows / 2
	for i := 0; i < half; i++ {
		out = append(out, i)
	}
	out = append(out, -1)
	for i := n - half; i < n; i++ {
		out = append(out, i)
	}
	return out
}

// shownColumns lists the columns that fit in width, taking them from both
// ends alternately; -1 marks the elided middle. Every column is shown when
// width is 0 or they all fit. At least the first column is shown.
func shownColumns(widths []int, width int) []int {
	total := 1
	for _, w := range widths {
		total += w + 3
	}
	all := make([]int, len(widths))
	for j := range all {
		all[j] = j
	}
	if width <= 0 || total <= width || len(widths) < 2 {
		return all
	}
	used := 1 + 4 // the border and the "…" column
	lo, hi := 0, len(widths)-1
	var left, right []int
	for lo <= hi {
		j := lo
		if len(right) < len(left) {
			j = hi
		}
		if used+widths[j]+3 > width && len(left) > 0 {
			break
		}
		used += widths[j] + 3
		if j == lo {
			left = append(left, j)
			lo++
		} else {
			right = append([]int{j}, right...)
			hi--
		}
	}
	return append(append(left, -1), right...)
}

// rowCount is the mysql client's summary line.
func rowCount(n int) string {
	switch n {
	case 0:
		return "Empty set"
	case 1:
		return "1 row in set"
	}
	return fmt.Sprintf("%d rows in set", n)
}

type csvPrinter struct{ w io.Writer }

// rows writes COPY's CSV (export.DefaultCSV), so that what --format csv
// prints loads back with LOAD DATA or read_csv to the same rows.
func (p csvPrinter) rows(r *exec.Result) error {
	bw := bufio.NewWriter(p.w)
	if err := export.WriteCSV(bw, r, export.DefaultCSV); err != nil {
		return err
	}
	return bw.Flush()
}

// jsonPrinter writes each result set as a JSON array of objects. With doc
// set (a non-interactive run) the arrays are kept and finish writes the
// run's one JSON document: the array itself when the run had one result
// set, else an array of the arrays.
type jsonPrinter struct {
	w   io.Writer
	doc *jsonDocument
}

type jsonDocument struct{ sets []string }

func (p jsonPrinter) rows(r *exec.Result) error {
	var b strings.Builder
	keys := make([]string, len(r.Names))
	for j, name := range r.Names {
		k, _ := json.Marshal(name)
		keys[j] = string(k)
	}
	b.WriteString("[")
	for i := 0; i < r.Rows; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n{")
		for j, c := range r.Columns {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(keys[j])
			b.WriteByte(':')
			b.WriteString(jsonValue(c, i))
		}
		b.WriteString("}")
	}
	if r.Rows > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]")
	if p.doc != nil {
		p.doc.sets = append(p.doc.sets, b.String())
		return nil
	}
	_, err := io.WriteString(p.w, b.String()+"\n")
	return err
}

// finish writes the document (nothing when the run returned no rows).
func (p jsonPrinter) finish() error {
	switch sets := p.doc.sets; len(sets) {
	case 0:
		return nil
	case 1:
		_, err := io.WriteString(p.w, sets[0]+"\n")
		return err
	default:
		_, err := io.WriteString(p.w, "["+strings.Join(sets, ",\n")+"]\n")
		return err
	}
}

// markdownPrinter writes a GitHub-flavoured Markdown table, numbers
// right-aligned; a '|' in a value is escaped.
type markdownPrinter struct{ w io.Writer }

func (p markdownPrinter) rows(r *exec.Result) error {
	bw := bufio.NewWriter(p.w)
	cell := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", "<br>") }
	bw.WriteString("|")
	for _, n := range r.Names {
		bw.WriteString(" " + cell(n) + " |")
	}
	bw.WriteString("\n|")
	for _, c := range r.Columns {
		if isNumeric(c.Type) {
			bw.WriteString("---:|")
		} else {
			bw.WriteString("---|")
		}
	}
	bw.WriteString("\n")
	for i := 0; i < r.Rows; i++ {
		bw.WriteString("|")
		for _, v := range r.Row(i) {
			bw.WriteString(" " + cell(v) + " |")
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// linePrinter writes one "name = value" line per column, names
// right-aligned, a blank line between rows (sqlite3's .mode line).
type linePrinter struct{ w io.Writer }

func (p linePrinter) rows(r *exec.Result) error {
	bw := bufio.NewWriter(p.w)
	width := 0
	for _, n := range r.Names {
		width = max(width, utf8.RuneCountInString(n))
	}
	for i := 0; i < r.Rows; i++ {
		if i > 0 {
			bw.WriteString("\n")
		}
		for j, v := range r.Row(i) {
			fmt.Fprintf(bw, "%*s = %s\n", width, r.Names[j], v)
		}
	}
	return bw.Flush()
}

func jsonValue(c *columnar.Column, i int) string {
	if c.IsNull(i) {
		return "null"
	}
	switch c.Type.ID {
	case columnar.Int32, columnar.Int64, columnar.Decimal:
		return exec.FormatValue(c, i)
	case columnar.Float64:
		f := c.F64[i]
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "null"
		}
		b, _ := json.Marshal(f)
		return string(b)
	case columnar.Bool:
		if c.I32[i] != 0 {
			return "true"
		}
		return "false"
	}
	if c.Type.JSON {
		return exec.FormatValue(c, i) // already JSON text (checked on store)
	}
	b, _ := json.Marshal(exec.FormatValue(c, i))
	return string(b)
}
