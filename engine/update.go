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

// UPDATE and DELETE run the query the binder built (row numbers of the
// selected rows, and for UPDATE their new values) on the session's executor,
// then build the table's next snapshot from the old columns and the result:
// copy-on-write, committed with catalog.Update, so a value that does not fit
// leaves the table exactly as it was.

// update runs UPDATE t SET ... [WHERE ...].
func (db *DB) update(ctx context.Context, s *sql.Update) (*StatementResult, error) {
	res, err := db.runSource(ctx, s.Source)
	if err != nil {
		return nil, err
	}
	changed := 0
	err = db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
		if old != s.Snapshot {
			return nil, fmt.Errorf("table %s changed while the UPDATE ran; run it again", s.Table)
		}
		ids, err := rowIDs(res, old)
		if err != nil {
			return nil, err
		}
		t := &columnar.Table{Name: old.Name, Fields: old.Fields, Rows: old.Rows,
			Columns: append([]*columnar.Column(nil), old.Columns...)}
		diff := make([]bool, len(ids))
		for i, k := range s.Targets {
			f := old.Fields[k]
			if t.Columns[k], err = setColumn(old.Columns[k], ids, res.Columns[i+1], f, diff); err != nil {
				return nil, fmt.Errorf("UPDATE %s: %w", old.Name, err)
			}
		}
		if err := touchColumns(t, old, ids, diff, s.Touch, s.Now); err != nil {
			return nil, fmt.Errorf("UPDATE %s: %w", old.Name, err)
		}
		changed = 0
		for _, d := range diff {
			if d {
				changed++
			}
		}
		columnar.ComputeStats(t)
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	r := message("%d %s affected (rows matched: %d, changed: %d)", changed, plural(changed, "row"), res.Rows, changed)
	r.RowsAffected = int64(changed)
	return r, nil
}

// deleteRows runs DELETE FROM t [WHERE ...].
func (db *DB) deleteRows(ctx context.Context, s *sql.Delete) (*StatementResult, error) {
	res, err := db.runSource(ctx, s.Source)
	if err != nil {
		return nil, err
	}
	err = db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
		if old != s.Snapshot {
			return nil, fmt.Errorf("table %s changed while the DELETE ran; run it again", s.Table)
		}
		ids, err := rowIDs(res, old)
		if err != nil {
			return nil, err
		}
		gone := make([]bool, old.Rows)
		for _, id := range ids {
			gone[id] = true
		}
		keep := make([]int, 0, old.Rows-len(ids))
		for i, g := range gone {
			if !g {
				keep = append(keep, i)
			}
		}
		return gatherTable(old, keep), nil
	})
	if err != nil {
		return nil, err
	}
	r := message("%d %s affected", res.Rows, plural(res.Rows, "row"))
	r.RowsAffected = int64(res.Rows)
	return r, nil
}

// runSource runs a statement's row-selecting plan as a query.
func (db *DB) runSource(ctx context.Context, p sql.Plan) (*exec.Result, error) {
	schema := p.Schema()
	names := make([]string, len(schema))
	for i, c := range schema {
		names[i] = c.Name
	}
	res, _, err := db.query(ctx, &sql.Query{Plan: p, Names: names})
	return res, err
}

// rowIDs reads the row numbers in the result's first column, checking each
// names a row of t once (a plan that duplicated rows would be a bug).
func rowIDs(res *exec.Result, t *columnar.Table) ([]int, error) {
	if len(res.Columns) == 0 || res.Columns[0].Type.Physical() != columnar.PhysInt64 {
		return nil, fmt.Errorf("internal error: the row-selecting query of %s returned no row numbers", t.Name)
	}
	seen := make([]bool, t.Rows)
	ids := make([]int, res.Rows)
	for i := range ids {
		id := res.Columns[0].I64[i]
		if res.Columns[0].IsNull(i) || id < 0 || id >= int64(t.Rows) || seen[id] {
			return nil, fmt.Errorf("internal error: row number %d of %s selected twice or out of range", id, t.Name)
		}
		seen[id] = true
		ids[i] = int(id)
	}
	return ids, nil
}

// setColumn returns a copy of old (field f) with row ids[i] set to src's row
// i converted to f's type; diff[i] is set where the stored value changes.
func setColumn(old *columnar.Column, ids []int, src *columnar.Column, f columnar.Field, diff []bool) (*columnar.Column, error) {
	n := len(ids)
	if !f.Nullable && hasNull(src, n) {
		for i := 0; i < n; i++ {
			if src.IsNull(i) {
				return nil, fmt.Errorf("column '%s' cannot be null (row %d)", f.Name, ids[i]+1)
			}
		}
	}
	conv, err := appendColumn(columnar.NewColumn(f.Type, 0, false), 0, src, n, f.Type, "", f.Name)
	if err != nil {
		if re, ok := err.(*rowError); ok && f.Type.ID == columnar.Datetime {
			re.row = ids[re.row] // the table's row, as MySQL names it
			return nil, re
		}
		if re, ok := err.(*rowError); ok {
			return nil, fmt.Errorf("out of range value %s for column '%s' %s at row %d", re.value, f.Name, f.Type, ids[re.row]+1)
		}
		var se *columnar.StringError
		if errors.As(err, &se) {
			// Name the table's row, not the position among updated rows.
			return nil, se.At("", f.Name, ids[se.Row-1]+1)
		}
		return nil, fmt.Errorf("column '%s': %w", f.Name, err)
	}
	if f.Type.ID == columnar.Vector {
		return setVectors(old, ids, conv, f.Type, diff)
	}
	withValid := old.HasNulls() || conv.HasNulls()
	out := columnar.NewColumn(f.Type, old.Len, withValid)
	copy(out.I32, old.I32)
	copy(out.I64, old.I64)
	copy(out.F64, old.F64)
	if withValid {
		for i := 0; i < old.Len; i++ {
			if !old.IsNull(i) {
				out.SetValid(i)
			}
		}
	}
	var newCode []int32
	if f.Type.ID == columnar.String {
		merged, fromOld, fromNew := oldDict(old).Merge(conv.Dict)
		out.Dict = merged
		for i := 0; i < old.Len; i++ {
			if !old.IsNull(i) {
				out.I32[i] = fromOld[old.I32[i]]
			}
		}
		newCode = fromNew
	}
	for i, id := range ids {
		null := conv.IsNull(i)
		before := old.IsNull(id)
		if null {
			out.SetNull(id)
			diff[i] = diff[i] || !before
			continue
		}
		if withValid {
			out.SetValid(id)
		}
		switch {
		case newCode != nil:
			out.I32[id] = newCode[conv.I32[i]]
			diff[i] = diff[i] || before || old.StringAt(id) != conv.StringAt(i)
		case out.I32 != nil:
			diff[i] = diff[i] || before || out.I32[id] != conv.I32[i]
			out.I32[id] = conv.I32[i]
		case out.I64 != nil:
			diff[i] = diff[i] || before || out.I64[id] != conv.I64[i]
			out.I64[id] = conv.I64[i]
		default:
			diff[i] = diff[i] || before || math.Float64bits(out.F64[id]) != math.Float64bits(conv.F64[i])
			out.F64[id] = conv.F64[i]
		}
	}
	if newCode != nil {
		compactStrings(out)
	}
	return out, nil
}

func oldDict(c *columnar.Column) *columnar.Dictionary {
	if c.Dict == nil {
		return &columnar.Dictionary{}
	}
	return c.Dict
}

// compactStrings drops dictionary entries no row uses any more (an UPDATE
// or DELETE removed their last row), keeping the dictionary sorted and its
// length the column's exact distinct count, as the planner assumes.
func compactStrings(c *columnar.Column) {
	if c.Dict == nil {
		return
	}
	used := make([]bool, c.Dict.Len())
	for i := 0; i < c.Len; i++ {
		if !c.IsNull(i) {
			used[c.I32[i]] = true
		}
	}
	remap := make([]int32, len(used))
	vals := make([]string, 0, len(used))
	for code, u := range used {
		if u {
			remap[code] = int32(len(vals))
			vals = append(vals, c.Dict.Values[code])
		}
	}
	if len(vals) == len(used) {
		return
	}
	for i := 0; i < c.Len; i++ {
		if !c.IsNull(i) {
			c.I32[i] = remap[c.I32[i]]
		} else {
			c.I32[i] = 0
		}
	}
	c.Dict = &columnar.Dictionary{Values: vals}
}

// gatherTable is the snapshot of t holding only rows keep (in order).
func gatherTable(t *columnar.Table, keep []int) *columnar.Table {
	out := &columnar.Table{Name: t.Name, Fields: t.Fields, Rows: len(keep), Columns: make([]*columnar.Column, len(t.Columns))}
	for j, c := range t.Columns {
		out.Columns[j] = gatherColumn(c, keep)
	}
	columnar.ComputeStats(out)
	return out
}

// gatherColumn copies rows keep of c; string dictionaries are compacted.
func gatherColumn(c *columnar.Column, keep []int) *columnar.Column {
	if c.Type.ID == columnar.Vector {
		return columnar.GatherVectors(c, keep)
	}
	out := columnar.NewColumn(c.Type, len(keep), c.HasNulls())
	for i, r := range keep {
		switch {
		case c.I32 != nil:
			out.I32[i] = c.I32[r]
		case c.I64 != nil:
			out.I64[i] = c.I64[r]
		case c.F64 != nil:
			out.F64[i] = c.F64[r]
		}
		if c.HasNulls() && !c.IsNull(r) {
			out.SetValid(i)
		}
	}
	if c.Type.ID == columnar.String {
		out.Dict = oldDict(c)
		compactStrings(out)
	}
	return out
}

// setVectors is setColumn for a VECTOR column: the rows are rebuilt, the
// updated ones from conv (already checked against the column's dimension).
func setVectors(old *columnar.Column, ids []int, conv *columnar.Column, t columnar.Type, diff []bool) (*columnar.Column, error) {
	from := make(map[int]int, len(ids))
	for i, id := range ids {
		from[id] = i
		before, null := old.IsNull(id), conv.IsNull(i)
		diff[i] = diff[i] || before != null ||
			(!null && columnar.CompareVectors(old.VectorAt(id), conv.VectorAt(i)) != 0)
	}
	b := columnar.NewBuilder(t)
	b.Reserve(old.Len)
	for r := range old.Len {
		src, row := old, r
		if i, ok := from[r]; ok {
			src, row = conv, i
		}
		if src.IsNull(row) {
			b.AppendNull()
		} else if err := b.AppendVector(src.VectorAt(row)); err != nil {
			return nil, err
		}
	}
	return b.Column(), nil
}
