package planner

import (
	"fmt"
	"math"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// EpsilonJoin is the ε-similarity join (Gowanlock & Karsin): an inner join
// whose condition bounds the distance between a vector of each side,
// VEC_L2_DISTANCE(a.v, b.v) <= ε (or <, or VEC_L1_DISTANCE), ε a constant.
// Instead of testing every pair, the right input's vectors are indexed by
// a grid of cells of side ε over k of their dimensions (k from a sampled
// cost model, dimensions ordered by variance), and each left row looks up
// the 3^k cells around its own (exec/cpu/epsilon_grid.go). It streams like
// a nested-loop join: the right input is materialized and indexed once,
// left rows stream past in morsels, and the pairs go through the rest of
// the condition (Filter) a batch at a time into the operators above, so
// count(*) or GROUP BY a.id count(*) over it never holds the pairs.
// Rows whose vector is NULL join nothing (their distance is NULL).
type EpsilonJoin struct {
	NodeProps
	Left, Right Node
	// LeftVec and RightVec are the compared vectors, each over its own
	// input's schema.
	LeftVec, RightVec sql.Expr
	Metric            string // "L2" or "L1"
	Eps               float64
	Strict            bool     // distance < ε (else ≤ ε)
	Filter            sql.Expr // the other conjuncts, over left++right; nil: none
	Options           EpsilonOptions
	// PairsOn is where the GPU executor finds the pairs (PairsGPU when
	// the plan is made for a GPU, Options.GPU; PairsCPU otherwise) and
	// PairsWhy says why. The CPU executor, running any plan, always
	// finds them with its own grid.
	PairsOn  PairsPlace
	PairsWhy string
	// CountOnly says the operator above needs only how many right rows
	// each left row pairs with (count(*), GROUP BY left columns with
	// count(*), and no filter), so the GPU counts per left row on the
	// device and never returns the pairs.
	CountOnly bool
	Out       sql.Schema
}

// PairsPlace is where an EpsilonJoin's pairs are found.
type PairsPlace string

const (
	PairsCPU PairsPlace = "CPU"
	PairsGPU PairsPlace = "GPU"
)

func (n *EpsilonJoin) Schema() sql.Schema { return n.Out }
func (n *EpsilonJoin) Children() []Node   { return []Node{n.Left, n.Right} }

// EpsilonOptions switches the ε-join and each of its optimizations (SET
// epsilon_join). The zero value plans it with every optimization on.
type EpsilonOptions struct {
	Off        bool // plan a nested loop instead
	NoReorder  bool // index the dimensions in their stored order
	NoSortIDU  bool // do not sort cells by the first unindexed dimension
	NoShortC   bool // compute every distance in full
	NoBatching bool // GPU: one result batch, one stream
	K          int  // indexed dimensions; 0: the sampled cost model
}

// String lists the options as EXPLAIN and SET epsilon_join show them.
func (o EpsilonOptions) String() string {
	if o.Off {
		return "off"
	}
	parts := []string{"k=auto"}
	if o.K > 0 {
		parts[0] = fmt.Sprintf("k=%d", o.K)
	}
	for _, f := range []struct {
		off  bool
		name string
	}{{o.NoReorder, "reorder"}, {o.NoSortIDU, "sortidu"}, {o.NoShortC, "shortc"}, {o.NoBatching, "batching"}} {
		if f.off {
			parts = append(parts, "no"+f.name)
		} else {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, ",")
}

// ParseEpsilonOptions reads SET epsilon_join's value: "on", "off", or a
// comma-separated list of reorder|noreorder, sortidu|nosortidu,
// shortc|noshortc, batching|nobatching and k=N (0 or auto: the cost model).
func ParseEpsilonOptions(s string) (EpsilonOptions, error) {
	var o EpsilonOptions
	for _, item := range strings.Split(strings.ToLower(s), ",") {
		item = strings.TrimSpace(item)
		switch item {
		case "", "on":
		case "off":
			o.Off = true
		case "reorder", "noreorder":
			o.NoReorder = item == "noreorder"
		case "sortidu", "nosortidu":
			o.NoSortIDU = item == "nosortidu"
		case "shortc", "noshortc":
			o.NoShortC = item == "noshortc"
		case "batching", "nobatching":
			o.NoBatching = item == "nobatching"
		case "k=auto", "k=0":
			o.K = 0
		default:
			var k int
			if _, err := fmt.Sscanf(item, "k=%d", &k); err != nil || k < 1 || k > 6 {
				return o, fmt.Errorf("%q is not on, off, [no]reorder, [no]sortidu, [no]shortc, [no]batching or k=1..6", item)
			}
			o.K = k
		}
	}
	return o, nil
}

// epsilonJoin recognizes the ε-join in an inner join's condition over l
// and r (the nested loop's Cond): one conjunct compares a distance between
// a vector of each side with a constant from above; the rest are a filter.
func (b *builder) epsilonJoin(kind sql.JoinKind, l, r Node, cond sql.Expr, out sql.Schema) (*EpsilonJoin, bool) {
	if kind != sql.JoinInner || cond == nil || b.opts.Epsilon.Off {
		return nil, false
	}
	nLeft := len(l.Schema())
	cs := conjuncts(cond)
	for i, c := range cs {
		ej, ok := epsilonCondition(c, nLeft)
		if !ok {
			continue
		}
		ej.Left, ej.Right, ej.Out, ej.Options = l, r, out, b.opts.Epsilon
		ej.Filter = andAll(append(append([]sql.Expr{}, cs[:i]...), cs[i+1:]...))
		return ej, true
	}
	return nil, false
}

// epsilonCondition reads dist(x, y) <= ε, < ε, ε >= dist(...) or
// ε > dist(...), x over the left input and y over the right (or swapped).
func epsilonCondition(c sql.Expr, nLeft int) (*EpsilonJoin, bool) {
	bin, ok := c.(*sql.Binary)
	if !ok {
		return nil, false
	}
	op, fe, ke := bin.Op, bin.L, bin.R
	if _, isFunc := fe.(*sql.Func); !isFunc {
		op, fe, ke = op.Flip(), bin.R, bin.L
	}
	f, ok := fe.(*sql.Func)
	k, okK := ke.(*sql.Const)
	if !ok || !okK || (op != sql.OpLE && op != sql.OpLT) || len(f.Args) != 2 {
		return nil, false
	}
	metric := map[string]string{"vec_l2_distance": "L2", "vec_l1_distance": "L1"}[f.Name]
	eps, okEps := constFloat(k)
	if metric == "" || !okEps {
		return nil, false
	}
	x, y := f.Args[0], f.Args[1]
	if side(x, nLeft) == 2 && side(y, nLeft) == 1 {
		x, y = y, x
	}
	if side(x, nLeft) != 1 || side(y, nLeft) != 2 ||
		x.Type().ID != columnar.Vector || y.Type().ID != columnar.Vector {
		return nil, false
	}
	return &EpsilonJoin{LeftVec: x, RightVec: shiftCols(y, -nLeft), Metric: metric, Eps: eps, Strict: op == sql.OpLT}, true
}

// constFloat is a non-NULL numeric constant's value as a DOUBLE, the type
// the distance is compared in.
func constFloat(k *sql.Const) (float64, bool) {
	if k.Null {
		return 0, false
	}
	switch {
	case k.T.Physical() == columnar.PhysFloat64:
		return k.F, !math.IsNaN(k.F)
	case k.T.IsInteger():
		return float64(k.I), true
	case k.T.ID == columnar.Decimal:
		return float64(k.I) / math.Pow10(k.T.DecimalScale()), true
	}
	return 0, false
}

// describeEpsilonJoin is the EXPLAIN line: the bound, the indexed side,
// the options and the filter.
func describeEpsilonJoin(head string, n *EpsilonJoin) string {
	op := "<="
	if n.Strict {
		op = "<"
	}
	s := fmt.Sprintf("%s Inner vec_%s_distance(%s, %s) %s %g grid=right %s", head, strings.ToLower(n.Metric),
		exprString(n.LeftVec), exprString(n.RightVec), op, n.Eps, n.Options)
	if n.Filter != nil {
		s += " filter " + exprString(n.Filter)
	}
	if n.PairsOn != "" {
		s += fmt.Sprintf(" pairs on %s (%s)", n.PairsOn, n.PairsWhy)
	}
	if n.CountOnly {
		s += " counts per left row"
	}
	return s
}
