//go:build cuda

package gpu

import (
	"fmt"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Values on the materializing executor: each cell is evaluated by the
// expression VM over a one-row relation (with the cast to the column's type
// exec/cpu applies), string literals are encoded into a sorted dictionary
// as a loader would, and the columns are uploaded as a relation.
func (r *queryRun) values(x *planner.Values) (*relation, error) {
	n := len(x.Rows)
	rel := &relation{n: int64(n)}
	one := &relation{n: 1}
	for c, oc := range x.Out {
		t := oc.Type
		col := columnar.NewColumnIn(columnar.HeapAllocator, t, n, true)
		if t.ID == columnar.String {
			var strs []string
			for _, row := range x.Rows {
				k, ok := row[c].(*sql.Const)
				if !ok || (!k.Null && k.T.ID != columnar.String) {
					return nil, unsupported(x, fmt.Sprintf("string value %s", row[c]))
				}
				if !k.Null {
					strs = append(strs, k.S)
				}
			}
			col.Dict = columnar.BuildDictionary(strs)
			for i, row := range x.Rows {
				k := row[c].(*sql.Const)
				if k.Null {
					continue
				}
				code, _ := col.Dict.Lookup(k.S)
				col.I32[i] = code
				col.SetValid(i)
			}
		} else {
			for i, row := range x.Rows {
				e := row[c]
				if !sameType(e.Type(), t) {
					e = &sql.Cast{E: e, T: t}
				}
				prog, err := r.compile(e, relColOf(one))
				if err != nil {
					return nil, unsupported(x, err.Error())
				}
				v, err := r.vmColumn(prog, 1, 0, t)
				if err != nil {
					return nil, err
				}
				if v.IsNull(0) {
					continue
				}
				switch {
				case col.F64 != nil:
					col.F64[i] = v.F64[0]
				default:
					setInt(col, i, v.Int64At(0))
				}
				col.SetValid(i)
			}
		}
		dc, err := r.uploadCol(col)
		if err != nil {
			return nil, err
		}
		rel.cols = append(rel.cols, dc)
	}
	return rel, nil
}

func checkValues(x *planner.Values) error {
	for _, row := range x.Rows {
		if len(row) != len(x.Out) {
			return unsupported(x, "ragged rows")
		}
		for c, e := range row {
			t := x.Out[c].Type
			if t.ID == columnar.String {
				if k, ok := e.(*sql.Const); !ok || (!k.Null && k.T.ID != columnar.String) {
					return unsupported(x, fmt.Sprintf("string value %s", e))
				}
				continue
			}
			if !sameType(e.Type(), t) {
				e = &sql.Cast{E: e, T: t}
			}
			if _, err := compileVM(e, relColOf(&relation{n: 1}), true); err != nil {
				return unsupported(x, err.Error())
			}
		}
	}
	return nil
}
