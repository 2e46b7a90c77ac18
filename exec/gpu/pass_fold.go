package gpu

import (
	"fmt"
	"strings"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// passFold combines, on the host, the results an aggregate gives over the
// passes of a join it folds pass by pass (aggregate_passes.go): rows of
// equal group keys merge, COUNTs and SUMs add, MINs and MAXes compare.
// Strings are kept as strings, not codes: a string computed by the
// expression VM gets a dictionary of its own in each pass, so codes of
// two passes do not compare; the result gets one dictionary at the end.
// Without GROUP BY there is one row, also when no pass had any.
type passFold struct {
	nkeys  int
	funcs  []sql.AggFunc
	types  []columnar.Type
	groups map[string]int
	rows   [][]foldCell
	op     string
}

// foldCell is one value: NULL, an integer (codes of no string, dates,
// scaled decimals), a DOUBLE, or a string.
type foldCell struct {
	null bool
	i    int64
	f    float64
	s    string
}

// passFoldMaxGroups bounds the groups a fold holds on the host (the
// planner folds only aggregates estimated to far fewer).
const passFoldMaxGroups = 1 << 22

func newPassFold(agg *planner.HashAggregate) *passFold {
	f := &passFold{nkeys: len(agg.GroupBy), groups: map[string]int{}, op: fmt.Sprintf("HashAggregate#%d", agg.ID)}
	for _, c := range agg.Out {
		f.types = append(f.types, c.Type)
	}
	for _, a := range agg.Aggs {
		f.funcs = append(f.funcs, a.Func)
	}
	return f
}

// add folds one pass's result (group keys, then aggregates) into f.
func (f *passFold) add(res *exec.Result) error {
	for r := 0; r < res.Rows; r++ {
		row := make([]foldCell, len(res.Columns))
		var key strings.Builder
		for c, col := range res.Columns {
			row[c] = cellAt(col, r)
			if c < f.nkeys {
				fmt.Fprintf(&key, "%v\x00", row[c])
			}
		}
		g, ok := f.groups[key.String()]
		if !ok {
			if len(f.rows) >= passFoldMaxGroups {
				return fmt.Errorf("gpu: %s folded pass by pass holds more than %d groups on the host", f.op, passFoldMaxGroups)
			}
			f.groups[key.String()] = len(f.rows)
			f.rows = append(f.rows, row)
			continue
		}
		for a, fn := range f.funcs {
			if err := combine(&f.rows[g][f.nkeys+a], row[f.nkeys+a], fn); err != nil {
				return err
			}
		}
	}
	return nil
}

func cellAt(c *columnar.Column, r int) foldCell {
	switch {
	case c.IsNull(r):
		return foldCell{null: true}
	case c.F64 != nil:
		return foldCell{f: c.F64[r]}
	case c.Dict != nil && c.I32 != nil:
		return foldCell{s: c.Dict.Values[c.I32[r]]}
	case c.I64 != nil:
		return foldCell{i: c.I64[r]}
	}
	return foldCell{i: int64(c.I32[r])}
}

// combine folds v into acc by fn. Integer sums that leave int64 stop the
// query with the GPU's overflow error (the CPU executor, rerunning it,
// names the expression as MySQL does).
func combine(acc *foldCell, v foldCell, fn sql.AggFunc) error {
	if v.null {
		return nil
	}
	if acc.null {
		*acc = v
		return nil
	}
	switch fn {
	case sql.AggCountStar, sql.AggCount, sql.AggSum:
		acc.f += v.f
		s := acc.i + v.i
		if (acc.i >= 0) == (v.i >= 0) && (s >= 0) != (acc.i >= 0) {
			return fmt.Errorf("gpu: integer overflow (BIGINT value is out of range) %w: exec/cpu names the expression", ErrUnsupported)
		}
		acc.i = s
	case sql.AggMin:
		if v.s < acc.s || v.i < acc.i || v.f < acc.f {
			*acc = v
		}
	case sql.AggMax:
		if v.s > acc.s || v.i > acc.i || v.f > acc.f {
			*acc = v
		}
	default:
		return fmt.Errorf("gpu: aggregate %v cannot fold pass by pass", fn)
	}
	return nil
}

// columns is the folded result as host columns of the aggregate's types:
// the groups in the order they first came, or, without GROUP BY, one row
// (COUNT 0 and NULLs when no pass had rows).
func (f *passFold) columns() ([]*columnar.Column, int) {
	rows := f.rows
	if f.nkeys == 0 && len(rows) == 0 {
		row := make([]foldCell, len(f.types))
		for a, fn := range f.funcs {
			row[a].null = fn != sql.AggCount && fn != sql.AggCountStar
		}
		rows = [][]foldCell{row}
	}
	var out []*columnar.Column
	for c, t := range f.types {
		col := columnar.NewColumnIn(columnar.HeapAllocator, t, len(rows), true)
		if t.ID == columnar.String {
			var strs []string
			for _, row := range rows {
				if !row[c].null {
					strs = append(strs, row[c].s)
				}
			}
			col.Dict = columnar.BuildDictionary(strs)
		}
		for r, row := range rows {
			v := row[c]
			if v.null {
				col.SetNull(r)
				continue
			}
			switch {
			case col.Dict != nil:
				code, _ := col.Dict.Lookup(v.s)
				col.I32[r] = code
			case col.F64 != nil:
				col.F64[r] = v.f
			case col.I64 != nil:
				col.I64[r] = v.i
			default:
				col.I32[r] = int32(v.i)
			}
			col.SetValid(r)
		}
		out = append(out, col)
	}
	return out, len(rows)
}
