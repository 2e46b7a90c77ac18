package engine

import (
	"context"
	"errors"
	"fmt"
	"math"

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
	executor := db.executor
	if _, constant := s.Source.(*sql.Values); constant {
		// Rows written out in the statement are evaluated where they are
		// stored, on the host: a device round trip computes nothing here,
		// and a value the GPU does not hold (a VECTOR, JSON or TIME
		// literal) must not fail an INSERT under --executor gpu.
		executor = "cpu"
	}
	res, _, err := db.queryOn(ctx, &sql.Query{Plan: s.Source, Names: names}, executor)
	if err != nil {
		return nil, err
	}
	if s.OnDuplicate != nil {
		return db.insertOnDuplicate(ctx, s, res)
	}
	replaced, skipped := 0, 0
	err = db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
		t, err := appendResult(old, s.Targets, res)
		switch {
		case err != nil:
			return t, err
		case s.Replace:
			t, replaced = replaceConflicts(t, old.Rows, db.cat.Indexes(s.Table))
		case s.Ignore:
			t, skipped = skipConflicts(t, old.Rows, db.cat.Indexes(s.Table))
		}
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
	n := res.Rows - skipped
	r := message("inserted %d %s into %s", n, plural(n, "row"), s.Table)
	if s.Ignore {
		r = message("inserted %d %s into %s (Records: %d  Duplicates: %d)", n, plural(n, "row"), s.Table, res.Rows, skipped)
	}
	r.RowsAffected = int64(n)
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
		c, err := appendColumn(old.Columns[j], old.Rows, src[j], n, f.Type, old.Name, f.Name)
		var se *columnar.StringError
		var re *rowError
		if errors.As(err, &se) || errors.As(err, &re) && f.Type.ID == columnar.Datetime {
			return nil, err // names table, column and row
		} else if err != nil {
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
func appendColumn(old *columnar.Column, m int, src *columnar.Column, n int, t columnar.Type, table, name string) (*columnar.Column, error) {
	if t.ID == columnar.Vector {
		return appendVectors(old, m, src, n, t)
	}
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
		return out, appendStrings(out, old, m, src, n, table, name)
	}
	out.Dict = nil
	if src == nil {
		return out, nil
	}
	var err error
	switch {
	case t.Year:
		err = yearsInto(out, m, src, n)
	case t.ID == columnar.Time:
		err = timesInto(out, m, src, n)
	case t.ID == columnar.Datetime && src.Type.ID == columnar.String:
		err = parseDatetimesInto(out, m, src, n)
	default:
		err = convertInto(out, m, src, n)
	}
	if re, ok := err.(*rowError); ok {
		re.column = name
	}
	return out, err
}

// appendStrings fills the string codes of out: old's rows re-coded into the
// merged dictionary, then src's rows. Only the strings src's rows use join
// the dictionary (a result may carry a whole base-table dictionary).
func appendStrings(out, old *columnar.Column, m int, src *columnar.Column, n int, table, name string) error {
	oldDict := old.Dict
	if oldDict == nil {
		oldDict = &columnar.Dictionary{}
	}
	if src == nil {
		out.Dict = oldDict
		copy(out.I32, old.I32[:m])
		return nil
	}
	key, vals, err := storedStrings(src, n, out.Type, table, name)
	if err != nil {
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
	codes := make([]int32, len(vals))
	for k, v := range vals {
		c, _ := added.Lookup(v)
		codes[k] = fromNew[c]
	}
	for i := 0; i < n; i++ {
		if !src.IsNull(i) {
			out.I32[m+i] = codes[key(i)]
		}
	}
	return nil
}

// storedStrings lists the values src's non-NULL rows store in a column of
// type t (FitString: valid UTF-8, within the width), and key(i), row i's
// index into vals. A string src is checked once per dictionary entry its
// rows use; only an entry that fails is looked for among the rows, to name
// the first (MySQL's "at row N", 1-based in the statement's rows).
func storedStrings(src *columnar.Column, n int, t columnar.Type, table, name string) (key func(int) int32, vals []string, err error) {
	fit := func(s string, row int) (string, error) {
		v, err := t.FitString(s)
		if se, ok := err.(*columnar.StringError); ok {
			return "", se.At(table, name, row+1)
		}
		return v, err
	}
	if src.Type.ID != columnar.String {
		keys := make([]int32, n)
		for i := 0; i < n; i++ {
			if !src.IsNull(i) {
				v, err := fit(srcString(src, i), i)
				if err != nil {
					return nil, nil, err
				}
				keys[i] = int32(len(vals))
				vals = append(vals, v)
			}
		}
		return func(i int) int32 { return keys[i] }, vals, nil
	}
	if src.Dict == nil {
		return nil, nil, fmt.Errorf("string column without a dictionary")
	}
	idx := make([]int32, src.Dict.Len()) // code -> index into vals + 1
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		c := src.I32[i]
		if c < 0 || int(c) >= len(idx) {
			return nil, nil, fmt.Errorf("string code %d outside its dictionary of %d", c, len(idx))
		}
		idx[c] = 1
	}
	for c, used := range idx {
		if used == 0 {
			continue
		}
		v, err := t.FitString(src.Dict.Values[c])
		if err != nil {
			_, err = fit(src.Dict.Values[c], firstRowWithCode(src, n, int32(c)))
			return nil, nil, err
		}
		vals = append(vals, v)
		idx[c] = int32(len(vals))
	}
	return func(i int) int32 { return idx[src.I32[i]] - 1 }, vals, nil
}

func firstRowWithCode(src *columnar.Column, n int, c int32) int {
	for i := 0; i < n; i++ {
		if src.I32[i] == c && !src.IsNull(i) {
			return i
		}
	}
	return 0
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
	if t.ID == columnar.Datetime || st.ID == columnar.Datetime {
		return convertDatetimeInto(out, m, src, n)
	}
	narrower := t.ID == columnar.Decimal && (st.ID != columnar.Decimal || st.Precision > t.Precision)
	if t.Unsigned || st.IsBigUnsigned() {
		narrower = narrower || !sameIntegerRange(t, st)
	}
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
			if err == nil && !fits(v, t) || err == nil && !fitsSignedness(v, st, t) {
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
	row    int
	value  string
	typ    columnar.Type
	column string
}

func (e *rowError) Error() string {
	if e.typ.ID == columnar.Datetime { // MySQL's strict-mode text
		return fmt.Sprintf("Incorrect datetime value: '%s' for column '%s' at row %d", e.value, e.column, e.row+1)
	}
	if e.typ.Unsigned {
		return fmt.Sprintf("Out of range value for column '%s' at row %d (%s does not hold %s)", e.column, e.row+1, e.typ, e.value)
	}
	if e.typ.ID == columnar.Time {
		return fmt.Sprintf("Incorrect time value: '%s' for column '%s' at row %d", e.value, e.column, e.row+1)
	}
	if e.typ.Year {
		return fmt.Sprintf("Out of range value for column '%s' at row %d: %s is not a YEAR (1901 to 2155, 0000, or two digits)", e.column, e.row+1, e.value)
	}
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
	if c.Type.IsBigUnsigned() {
		return float64(uint64(c.I64[i]))
	}
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

// appendVectors is appendColumn for a VECTOR column: old's m rows, then
// src's n (nil: NULLs), each checked against t's dimension.
func appendVectors(old *columnar.Column, m int, src *columnar.Column, n int, t columnar.Type) (*columnar.Column, error) {
	b := columnar.NewBuilder(t)
	b.Reserve(m + n)
	add := func(c *columnar.Column, i, row int) error {
		if c == nil || c.IsNull(i) {
			b.AppendNull()
			return nil
		}
		if err := b.AppendVector(c.VectorAt(i)); err != nil {
			return fmt.Errorf("row %d: %w", row, err)
		}
		return nil
	}
	for i := range m {
		if err := add(old, i, i+1); err != nil {
			return nil, err
		}
	}
	for i := range n {
		if err := add(src, i, m+i+1); err != nil {
			return nil, err
		}
	}
	return b.Column(), nil
}
