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
//     order), one object per line; a script with several queries writes
//     several arrays one after another (a JSON text sequence that jq reads).
//     Integers and DECIMALs are JSON numbers written exactly, DOUBLEs
//     numbers (null for NaN and infinities), dates strings, BOOLEANs
//     true/false, NULL null.
//
// With csv and json only result rows go to stdout; messages and timings go
// to stderr so the output stays machine-readable.

type printer interface {
	rows(r *exec.Result) error
}

func newPrinter(format string, w io.Writer) (printer, error) {
	switch format {
	case "table", "":
		return tablePrinter{w}, nil
	case "csv":
		return csvPrinter{w}, nil
	case "json":
		return jsonPrinter{w}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want table, csv or json)", format)
}

func isNumeric(t columnar.Type) bool { return t.IsNumeric() || t.ID == columnar.Bool }

type tablePrinter struct{ w io.Writer }

func (p tablePrinter) rows(r *exec.Result) error {
	bw := bufio.NewWriter(p.w)
	n := len(r.Columns)
	widths := make([]int, n)
	for j := range r.Columns {
		widths[j] = utf8.RuneCountInString(r.Names[j])
	}
	cells := make([][]string, r.Rows)
	for i := range cells {
		cells[i] = r.Row(i)
		for j, s := range cells[i] {
			widths[j] = max(widths[j], utf8.RuneCountInString(s))
		}
	}
	rule := func() {
		bw.WriteByte('+')
		for _, w := range widths {
			bw.WriteString(strings.Repeat("-", w+2))
			bw.WriteByte('+')
		}
		bw.WriteByte('\n')
	}
	line := func(vals []string, right func(j int) bool) {
		bw.WriteByte('|')
		for j, v := range vals {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v))
			bw.WriteByte(' ')
			if right(j) {
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
	return bw.Flush()
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

type jsonPrinter struct{ w io.Writer }

func (p jsonPrinter) rows(r *exec.Result) error {
	bw := bufio.NewWriter(p.w)
	keys := make([]string, len(r.Names))
	for j, name := range r.Names {
		b, _ := json.Marshal(name)
		keys[j] = string(b)
	}
	bw.WriteString("[")
	for i := 0; i < r.Rows; i++ {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n{")
		for j, c := range r.Columns {
			if j > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(keys[j])
			bw.WriteByte(':')
			bw.WriteString(jsonValue(c, i))
		}
		bw.WriteString("}")
	}
	if r.Rows > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
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
	b, _ := json.Marshal(exec.FormatValue(c, i))
	return string(b)
}
