package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Text computed by INSERT ... SELECT or UPDATE for a number column reaches
// the engine as text (sql.StoresText), so that reading it names the column
// and row as MySQL does: in strict mode '7z' into an INT is error 1366
// "Incorrect integer value: '7z' for column 'i' at row 1" (1265 "Data
// truncated" for a DOUBLE); outside it, or under IGNORE, the number the
// text starts with is stored (0 without one) with warning 1366, or 1265
// where a number is followed by more. The numbers are then stored as any
// computed number is (out of range: 1264).

// storeTexts returns cols with every text column that targets a number
// field read as numbers; row(i) is the 1-based row MySQL names. A strict
// write (notes nil) fails at the first text that is no number; a lenient
// one appends the warning to notes, which lenientValues notes in row
// order with its own.
func storeTexts(cols []*columnar.Column, fields []columnar.Field, row func(i int) int, notes *[]adjustment) ([]*columnar.Column, error) {
	var out []*columnar.Column
	for k, c := range cols {
		if c == nil || c.Type.ID != columnar.String || !sql.StoresText(c.Type, fields[k].Type) {
			continue
		}
		if out == nil {
			out = append([]*columnar.Column(nil), cols...)
		}
		n, err := textNumbers(c, fields[k], row, func(code uint16, i int, msg string) {
			*notes = append(*notes, adjustment{i, k, code, msg})
		}, notes != nil)
		if err != nil {
			return nil, err
		}
		out[k] = n
	}
	if out == nil {
		return cols, nil
	}
	return out, nil
}

// textNumbers reads c's text as numbers: BIGINT for an integer column,
// DECIMAL(18,s) for a DECIMAL(p,s) one (exact, rounded half away from zero
// as MySQL stores text into a DECIMAL), DOUBLE for a DOUBLE.
func textNumbers(c *columnar.Column, f columnar.Field, row func(i int) int, warn func(code uint16, i int, msg string), lenient bool) (*columnar.Column, error) {
	t := columnar.TFloat64
	switch {
	case f.Type.IsInteger():
		t = columnar.TInt64
	case f.Type.ID == columnar.Decimal:
		t = columnar.TDecimal(18, f.Type.Scale)
	}
	out := columnar.NewColumn(t, c.Len, c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if c.IsNull(i) {
			continue
		}
		if out.Valid != nil {
			out.SetValid(i)
		}
		s := c.StringAt(i)
		v, prefix, clean := readNumber(s)
		if !clean {
			code, msg := textWarning(s, prefix, f, row(i))
			if !lenient {
				return nil, sql.Errorf(code, "%s", msg)
			}
			warn(code, i, msg)
		}
		switch t.ID {
		case columnar.Int64:
			out.I64[i] = roundToInt64(v)
			if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
				out.I64[i] = n // exact past 2^53
			}
		case columnar.Decimal:
			out.I64[i] = roundToInt64(v * math.Pow10(t.Scale))
			t := strings.TrimSpace(s)
			if n, ok := sql.ParseDecimal(t[:numericPrefix(t)], f.Type.Scale); ok {
				out.I64[i] = n // exact
			}
		default:
			out.F64[i] = v
		}
	}
	return out, nil
}

// textWarning is MySQL's code and message for text s, not a number as a
// whole, stored into f.
func textWarning(s string, prefix bool, f columnar.Field, row int) (uint16, string) {
	kind := "integer"
	switch {
	case f.Type.ID == columnar.Float64:
		return sql.WarnDataTruncated, fmt.Sprintf("Data truncated for column '%s' at row %d", f.Name, row)
	case f.Type.ID == columnar.Decimal:
		kind = "decimal"
	}
	if prefix && strings.TrimSpace(s) != "" {
		return sql.WarnDataTruncated, fmt.Sprintf("Data truncated for column '%s' at row %d", f.Name, row)
	}
	return sql.WarnIncorrectValue, fmt.Sprintf("Incorrect %s value: '%s' for column '%s' at row %d", kind, s, f.Name, row)
}

// readNumber reads s as MySQL reads text as a number: its longest numeric
// prefix (spaces around it allowed), whether it has one, and whether that
// is all of s.
func readNumber(s string) (v float64, prefix, clean bool) {
	t := strings.TrimSpace(s)
	end := numericPrefix(t)
	if end == 0 {
		return 0, false, false
	}
	v, err := strconv.ParseFloat(t[:end], 64)
	if err != nil {
		return 0, false, false
	}
	return v, true, end == len(t)
}

// numericPrefix is the length of the longest prefix of s that is a number:
// sign, digits, a point and digits, an exponent.
func numericPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return i
}

func roundToInt64(v float64) int64 {
	switch r := math.Round(v); {
	case r >= math.MaxInt64:
		return math.MaxInt64
	case r <= math.MinInt64:
		return math.MinInt64
	default:
		return int64(r)
	}
}

// storeResultTexts is storeTexts over an INSERT ... SELECT's result.
func storeResultTexts(res *exec.Result, fields []columnar.Field, targets []int, notes *[]adjustment) (*exec.Result, error) {
	cols, err := storeTexts(res.Columns, targetFields(fields, targets), func(i int) int { return i + 1 }, notes)
	if err != nil {
		return nil, err
	}
	out := *res
	out.Columns = cols
	return &out, nil
}

// updateTexts is storeTexts over an UPDATE's source (column 0 the row ids,
// column i+1 the values of Targets[i]), rows named by their place in the
// table.
func updateTexts(s *sql.Update, res *exec.Result, fields []columnar.Field, ids []int, notes *[]adjustment) (*exec.Result, error) {
	n := len(s.Targets)
	vals, err := storeTexts(res.Columns[1:1+n], targetFields(fields, s.Targets), func(i int) int { return ids[i] + 1 }, notes)
	if err != nil {
		return nil, err
	}
	out := *res
	out.Columns = append(append([]*columnar.Column{res.Columns[0]}, vals...), res.Columns[1+n:]...)
	return &out, nil
}

func targetFields(fields []columnar.Field, targets []int) []columnar.Field {
	fs := make([]columnar.Field, len(targets))
	for i, k := range targets {
		fs[i] = fields[k]
	}
	return fs
}
