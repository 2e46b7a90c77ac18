package planner

import (
	"math"
	"strings"

	"gpusql/sql"
)

// Window computes window functions (sql.WindowFunc) for every input row:
// output is the input columns followed by one column per function, rows in
// input order. The executor sorts a permutation of the rows by each
// function's partition and order keys and makes one pass per partition;
// functions sharing a window share the sort. Only the CPU executor runs it
// (see cpuOnlyReason): its passes are sequential per partition, which the
// GPU executor's fused kernels do not express.
type Window struct {
	NodeProps
	Input Node
	Funcs []sql.WindowFunc
	Out   sql.Schema
}

func (n *Window) Schema() sql.Schema { return n.Out }
func (n *Window) Children() []Node   { return []Node{n.Input} }

func (b *builder) buildWindow(n *sql.Window) (Node, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	funcs := make([]sql.WindowFunc, len(n.Funcs))
	for i, w := range n.Funcs {
		var ferr error
		funcs[i] = w.MapExprs(func(e sql.Expr) sql.Expr {
			out, err := b.expr(e)
			if err != nil && ferr == nil {
				ferr = err
			}
			return out
		})
		if ferr != nil {
			return nil, ferr
		}
	}
	is := b.stats[in]
	s := is.clone()
	for _, c := range n.Out[len(in.Schema()):] {
		s.Cols = append(s.Cols, unknownCol(c.Type, s.Rows))
	}
	cost := b.cost(in) + float64(len(funcs))*s.Rows*math.Log2(s.Rows+2)
	return b.set(&Window{Input: in, Funcs: funcs, Out: n.Out}, s, cost), nil
}

// splitWindowPreds returns the predicates that may filter a Window's input
// instead of its output: those reading only columns every function
// partitions by. They keep or drop whole partitions, and a function's value
// depends on its own partition alone. Any other predicate stays above:
// WHERE b > 1 below ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) would
// renumber the rows it keeps.
func splitWindowPreds(n *sql.Window, preds []sql.Expr) (down, keep []sql.Expr) {
	for _, e := range preds {
		cols := colList(e)
		ok := len(cols) > 0
		for _, c := range cols {
			ok = ok && partitionedBy(n.Funcs, c)
		}
		if ok {
			down = append(down, e)
		} else {
			keep = append(keep, e)
		}
	}
	return down, keep
}

// partitionedBy reports whether every function partitions by input column c.
func partitionedBy(funcs []sql.WindowFunc, c int) bool {
	for _, w := range funcs {
		found := false
		for _, p := range w.Partition {
			if r, ok := p.(*sql.ColRef); ok && r.Index == c {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// windowExprs lists every expression of the functions.
func windowExprs(funcs []sql.WindowFunc) []sql.Expr {
	var out []sql.Expr
	for i := range funcs {
		out = append(out, funcs[i].Exprs()...)
	}
	return out
}

// mapWindowFuncs applies fn to every expression of the functions.
func mapWindowFuncs(funcs []sql.WindowFunc, fn func(sql.Expr) sql.Expr) []sql.WindowFunc {
	out := make([]sql.WindowFunc, len(funcs))
	for i, w := range funcs {
		out[i] = w.MapExprs(fn)
	}
	return out
}

// pruneWindow keeps the input columns required above or read by a
// function; every function is kept (an unread one is cheap next to the
// sort it shares).
func pruneWindow(n *sql.Window, req []bool) (sql.Plan, []int) {
	nIn := len(n.Input.Schema())
	cr := make([]bool, nIn)
	copy(cr, req[:nIn])
	for _, e := range windowExprs(n.Funcs) {
		markCols(cr, e)
	}
	in, cm := prune(n.Input, cr)
	w := &sql.Window{Input: in, Out: append(sql.Schema{}, in.Schema()...)}
	w.Funcs = mapWindowFuncs(n.Funcs, func(e sql.Expr) sql.Expr { return remapBy(e, cm) })
	m := append([]int{}, cm...)
	for i := range n.Funcs {
		m = append(m, len(w.Out))
		w.Out = append(w.Out, n.Out[nIn+i])
	}
	return w, m
}

func describeWindow(head string, n *Window) string {
	funcs := make([]string, len(n.Funcs))
	for i := range n.Funcs {
		funcs[i] = n.Funcs[i].String()
	}
	return head + " [" + strings.Join(funcs, ", ") + "]"
}
