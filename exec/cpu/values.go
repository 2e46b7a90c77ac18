package cpu

import (
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Values evaluates each row's expressions once.
func (x *executor) runValues(n *planner.Values) (*rel, error) {
	types := typesOf(n.Out)
	cp := &compiler{x: x}
	b := &batch{n: 1, sel: identSel[:1]}
	var chunks []*chunk
	for i, row := range n.Rows {
		ch := &chunk{seq: i, rows: 1, cols: make([]*vec, len(types))}
		for c, e := range row {
			ev, err := cp.compile(e)
			if err != nil {
				return nil, err
			}
			v := ev.eval(b, b.sel)
			v = gatherVec(v, b.sel)
			if c < len(types) && !sameType(e.Type(), types[c]) {
				cv := castTo(&fixedEval{v: v}, e.Type(), types[c]).eval(b, b.sel)
				v = gatherVec(cv, b.sel)
			}
			ch.cols[c] = v
		}
		chunks = append(chunks, ch)
	}
	if len(chunks) == 0 {
		return &rel{types: types, cols: emptyCols(types)}, nil
	}
	return concatChunks(chunks, types), nil
}

// fixedEval returns a given vector.
type fixedEval struct{ v *vec }

func (e *fixedEval) eval(b *batch, sel []int32) *vec { return e.v }

func emptyCols(types []columnar.Type) []*columnar.Column {
	out := make([]*columnar.Column, len(types))
	for i, t := range types {
		out[i] = newColumn(t, 0, false)
	}
	return out
}
