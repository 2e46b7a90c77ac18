package engine

import (
	"context"
	"fmt"
	"math"
	"unicode/utf8"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// INSERT and CREATE TABLE AS run their source query like any other and then
// append its result to a table. Tables are immutable snapshots, so appending
// builds new columns (old rows, then new ones) and commits them with
// catalog.Update: a statement that fails halfway leaves the table as it was.
//
// A string column's dictionary stays sorted: the result's strings are merged
// into it, and when new strings fall between existing ones the old rows are
// re-coded through the merge's mapping.

func errNoTable(name string) error { return fmt.Errorf("table %s does not exist", name) }

// insert runs INSERT ... VALUES / SELECT.
func (db *DB) insert(ctx context.Context, s *sql.Insert) (*StatementResult, error) {
	schema := s.Source.Schema()
	names := make([]string, len(schema))
	for i, c := range schema {
		names[i] = c.Name
	}
	res, _, err := db.query(ctx, &sql.Query{Plan: s.Source, Names: names})
	if err != nil {
		return nil, err
	}
	replaced := 0
	err = db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
		t, err := appendResult(old, s.Targets, res)
		if err != nil || !s.Replace {
			return t, err
		}
		t, replaced = replaceConflicts(t, old.Rows, db.cat.Indexes(s.Table))
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	if s.Replace {
		// MySQL counts a replaced row twice: deleted, then inserted.
		n := res.Rows + replaced
		r := message("%d %s affected", n, plural(n, "row"))
		r.RowsAffected = int64(n)
		return r, nil
	}
	r := message("inserted %d %s into %s", res.Rows, plural(res.Rows, "row"), s.Table)
	r.RowsAffected = int64(res.Rows)
	return r, nil
}

// createTableAs runs the query and stores its result as a new table.
func (db *DB) createTableAs(ctx context.Context, s *sql.CreateTableAs) (*StatementResult, error) {
	if _, ok := db.cat.Table(s.Name); ok {
		return nil, fmt.Errorf("table %s already exists", s.Name)
	}
	res, _, err := db.query(ctx, s.Query)
	if err != nil {
		return nil, err
	}
	schema := s.Query.Plan.Schema()
	fields := make([]columnar.Field, len(res.Columns))
	targets := make([]int, len(res.Columns))
	seen := map[string]bool{}
	for i := range fields {
		name := s.Query.Names[i]
		if seen[name] {
			return nil, fmt.Errorf("duplicate column name %s in CREATE TABLE %s AS (give it an alias)", name, s.Name)
		}
		seen[name] = true
		t := res.Columns[i].Type
		if i < len(schema) && schema[i].Type.ID == t.ID {
			t = schema[i].Type // keeps VARCHAR widths and DECIMAL precision
		}
		fields[i] = columnar.Field{Name: name, Type: t, Nullable: true}
		targets[i] = i
	}
	t, err := appendResult(columnar.NewEmptyTable(s.Name, fields), targets, res)
	if err != nil {
		return nil, err
	}
	if _, ok := db.cat.Table(s.Name); ok {
		return nil, fmt.Errorf("table %s already exists", s.Name)
	}
	db.cat.Put(t)
	r := message("created table %s with %d %s", s.Name, res.Rows, plural(res.Rows, "row"))
	r.RowsAffected = int64(res.Rows)
	return r, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// appendResult returns a new snapshot of old with res's rows appended:
// result column i goes to table column targets[i]; other columns get NULL.
func appendResult(old *columnar.Table, targets []int, res *exec.Result) (*columnar.Table, error) {
	if len(targets) != len(res.Columns) {
		return nil, fmt.Errorf("insert into %s: %d values for %d columns", old.Name, len(res.Columns), len(targets))
	}
	src := make([]*columnar.Column, len(old.Fields))
	for i, t := range targets {
		if t < 0 || t >= len(old.Fields) {
			return nil, fmt.Errorf("insert into %s: no column %d", old.Name, t)
		}
		src[t] = res.Columns[i]
	}
	n := res.Rows
	t := &columnar.Table{Name: old.Name, Fields: old.Fields, Columns: make([]*columnar.Column, len(old.Fields)), Rows: old.Rows + n}
	for j, f := range old.Fields {
		if !f.Nullable && n > 0 {
			if src[j] == nil {
				return nil, fmt.Errorf("column %s of %s cannot be NULL and has no default: give it a value", f.Name, old.Name)
			}
			if hasNull(src[j], n) {
				return nil, fmt.Errorf("column %s of %s cannot be NULL", f.Name, old.Name)
			}
		}
		c, err := appendColumn(old.Columns[j], old.Rows, src[j], n, f.Type)
		if tl, ok := err.(*tooLong); ok {
			return nil, fmt.Errorf("%s: %w", old.Name, tl.describe(f, tl.row+1))
		}
		if err != nil {
			return nil, fmt.Errorf("column %s of %s: %w", f.Name, old.Name, err)
		}
		t.Columns[j] = c
	}
	columnar.ComputeStats(t)
	return t, nil
}

func hasNull(c *columnar.Column, n int) bool {
	if !c.HasNulls() {
		return false
	}
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			return true
		}
	}
	return false
}

// appendColumn builds a column of type t holding old's m rows followed by
// src's n rows (src nil: n NULLs), converting src's values to t.
func appendColumn(old *columnar.Column, m int, src *columnar.Column, n int, t columnar.Type) (*columnar.Column, error) {
	withValid := old.HasNulls() || (n > 0 && (src == nil || src.HasNulls()))
	out := columnar.NewColumn(t, m+n, withValid)
	switch t.Physical() {
	case columnar.PhysInt32:
		copy(out.I32, old.I32[:m])
	case columnar.PhysInt64:
		copy(out.I64, old.I64[:m])
	case columnar.PhysFloat64:
		copy(out.F64, old.F64[:m])
	}
	if withValid {
		for i := 0; i < m; i++ {
			if !old.IsNull(i) {
				out.SetValid(i)
			}
		}
		for i := 0; i < n; i++ {
			if src != nil && !src.IsNull(i) {
				out.SetValid(m + i)
			}
		}
	}
	if t.ID == columnar.String {
		return out, appendStrings(out, old, m, src, n)
	}
	out.Dict = nil
	if src == nil {
		return out, nil
	}
	return out, convertInto(out, m, src, n)
}

// appendStrings fills the string codes of out: old's rows re-coded into the
// merged dictionary, then src's rows. Only the strings src's rows use join
// the dictionary (a result may carry a whole base-table dictionary).
func appendStrings(out, old *columnar.Column, m int, src *columnar.Column, n int) error {
	oldDict := old.Dict
	if oldDict == nil {
		oldDict = &columnar.Dictionary{}
	}
	if src == nil {
		out.Dict = oldDict
		copy(out.I32, old.I32[:m])
		return nil
	}
	vals, err := usedStrings(src, n)
	if err != nil {
		return err
	}
	if err := checkWidth(out.Type.Width, vals, src, n); err != nil {
		return err
	}
	added := columnar.BuildDictionary(vals)
	merged, fromOld, fromNew := oldDict.Merge(added)
	out.Dict = merged
	identity := merged.Len() == oldDict.Len()
	for i := 0; i < m; i++ {
		c := old.I32[i]
		if !identity && !old.IsNull(i) {
			c = fromOld[c]
		}
		out.I32[i] = c
	}
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		code, _ := added.Lookup(srcString(src, i))
		out.I32[m+i] = fromNew[code]
	}
	return nil
}

// tooLong is row row of the values being stored, a string longer than its
// VARCHAR(n) column holds: MySQL's strict mode fails the statement (error
// 1406, "Data too long for column") rather than cut it.
type tooLong struct {
	row   int
	value string
}

// describe says what was too long for field f at (1-based) row.
func (e *tooLong) describe(f columnar.Field, row int) error {
	return fmt.Errorf("Data too long for column '%s' at row %d: '%s' has %d characters, %s holds %d",
		f.Name, row, e.value, utf8.RuneCountInString(e.value), f.Type, f.Type.Width)
}

func (e *tooLong) Error() string { return fmt.Sprintf("data too long at row %d", e.row+1) }

// checkWidth finds the first of src's n rows whose string (one of vals, the
// distinct strings stored) has more characters than width (0: no limit).
func checkWidth(width int, vals []string, src *columnar.Column, n int) error {
	if width <= 0 {
		return nil
	}
	long := map[string]bool{}
	for _, v := range vals {
		if utf8.RuneCountInString(v) > width {
			long[v] = true
		}
	}
	if len(long) == 0 {
		return nil
	}
	for i := 0; i < n; i++ {
		if !src.IsNull(i) && long[srcString(src, i)] {
			return &tooLong{row: i, value: srcString(src, i)}
		}
	}
	return nil
}

// usedStrings lists the strings of src's non-NULL rows.
func usedStrings(src *columnar.Column, n int) ([]string, error) {
	if src.Type.ID != columnar.String {
		vals := make([]string, 0, n)
		for i := 0; i < n; i++ {
			if !src.IsNull(i) {
				vals = append(vals, srcString(src, i))
			}
		}
		return vals, nil
	}
	if src.Dict == nil {
		return nil, fmt.Errorf("string column without a dictionary")
	}
	used := make([]bool, src.Dict.Len())
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		c := src.I32[i]
		if c < 0 || int(c) >= len(used) {
			return nil, fmt.Errorf("string code %d outside its dictionary of %d", c, len(used))
		}
		used[c] = true
	}
	var vals []string
	for c, u := range used {
		if u {
			vals = append(vals, src.Dict.Values[c])
		}
	}
	return vals, nil
}

// srcString is row i of src as text (the binder casts inserted values to the
// column type, so this is a string column except in odd cases).
func srcString(src *columnar.Column, i int) string {
	if src.Type.ID == columnar.String {
		return src.StringAt(i)
	}
	return exec.FormatValue(src, i)
}

// convertInto writes src's n values, converted to out's type, at out[m:].
func convertInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	t, st := out.Type, src.Type
	if st.ID == columnar.String {
		return fmt.Errorf("cannot store %s values in a %s column", st, t)
	}
	narrower := t.ID == columnar.Decimal && (st.ID != columnar.Decimal || st.Precision > t.Precision)
	if t.Physical() == st.Physical() && t.DecimalScale() == st.DecimalScale() && !narrower {
		switch t.Physical() {
		case columnar.PhysInt32:
			copy(out.I32[m:], src.I32[:n])
		case columnar.PhysInt64:
			copy(out.I64[m:], src.I64[:n])
		case columnar.PhysFloat64:
			copy(out.F64[m:], src.F64[:n])
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		switch t.Physical() {
		case columnar.PhysFloat64:
			out.F64[m+i] = asFloat(src, i)
		default:
			v, err := asScaled(src, i, t.DecimalScale())
			if err == nil && !fits(v, t) {
				err = fmt.Errorf("out of range")
			}
			if err != nil {
				return &rowError{row: i, value: exec.FormatValue(src, i), typ: t}
			}
			if t.Physical() == columnar.PhysInt32 {
				out.I32[m+i] = int32(v)
			} else {
				out.I64[m+i] = v
			}
		}
	}
	return nil
}

// rowError is a value of row row (0-based, of the values being stored) that
// its column cannot hold; UPDATE names the table row instead.
type rowError struct {
	row   int
	value string
	typ   columnar.Type
}

func (e *rowError) Error() string {
	return fmt.Sprintf("out of range value %s for %s at row %d", e.value, e.typ, e.row+1)
}

// fits reports whether v (scaled by t's scale) is in t's range: INT is 32
// bits and DECIMAL(p,s) holds fewer than 10^p units of 10^-s (MySQL's
// "Out of range value" in strict mode).
func fits(v int64, t columnar.Type) bool {
	switch {
	case t.Physical() == columnar.PhysInt32:
		return v >= math.MinInt32 && v <= math.MaxInt32
	case t.ID == columnar.Decimal && t.Precision > 0 && t.Precision < 19:
		p := columnar.Pow10[t.Precision]
		return v > -p && v < p
	}
	return true
}

func asFloat(c *columnar.Column, i int) float64 {
	f := c.Float64At(i)
	if c.Type.ID == columnar.Decimal {
		f /= float64(columnar.Pow10[c.Type.Scale])
	}
	return f
}

// asScaled is row i of c as an integer scaled by 10^scale, rounding half
// away from zero (MySQL's rule for storing into an integer or DECIMAL).
func asScaled(c *columnar.Column, i int, scale int) (int64, error) {
	if c.Type.Physical() == columnar.PhysFloat64 {
		f := math.Round(c.F64[i] * math.Pow10(scale))
		if math.IsNaN(f) || f >= math.MaxInt64 || f <= math.MinInt64 {
			return 0, fmt.Errorf("value %s is out of range", exec.FormatValue(c, i))
		}
		return int64(f), nil
	}
	v, from := c.Int64At(i), c.Type.DecimalScale()
	switch {
	case from == scale:
		return v, nil
	case from < scale:
		p := columnar.Pow10[scale-from]
		if v > math.MaxInt64/p || v < math.MinInt64/p {
			return 0, fmt.Errorf("value %s is out of range", exec.FormatValue(c, i))
		}
		return v * p, nil
	default:
		p := columnar.Pow10[from-scale]
		q, r := v/p, v%p
		if r*2 >= p {
			q++
		} else if r*2 <= -p {
			q--
		}
		return q, nil
	}
}
