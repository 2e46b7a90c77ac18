package planner

import (
	"fmt"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Subquery replaces sql.ScalarSubquery in physical plans: an uncorrelated
// subquery planned on its own, which executors run once before the operator
// whose expression holds it (an error if it returns more than one row, NULL
// if none).
type Subquery struct {
	Root Node
	T    columnar.Type
}

func (e *Subquery) Type() columnar.Type { return e.T }
func (e *Subquery) String() string      { return "(subquery)" }

// NestedSubquery replaces sql.NestedSubquery in physical plans (see there
// for the fields): Root is the subquery planned on its own, with sql.Param
// leaves that each evaluation binds to the values of Args. The CPU executor
// evaluates it, caching results per distinct argument tuple; the GPU
// executor hands plans holding one to the CPU.
type NestedSubquery struct {
	Root   Node
	Params []int
	Args   []sql.Expr
	Mode   sql.SubqueryMode
	Op     sql.BinOp
	LHS    []sql.Expr
	T      columnar.Type
}

func (e *NestedSubquery) Type() columnar.Type { return e.T }

func (e *NestedSubquery) String() string {
	var sb strings.Builder
	lhs := make([]string, len(e.LHS))
	for i, x := range e.LHS {
		lhs[i] = x.String()
	}
	l := strings.Join(lhs, ", ")
	if len(lhs) > 1 {
		l = "(" + l + ")"
	}
	switch e.Mode {
	case sql.SubqueryExists:
		sb.WriteString("EXISTS ")
	case sql.SubqueryAny:
		fmt.Fprintf(&sb, "%s %s ANY ", l, e.Op)
	case sql.SubqueryAll:
		fmt.Fprintf(&sb, "%s %s ALL ", l, e.Op)
	}
	sb.WriteString("(nested subquery")
	for i, a := range e.Args {
		fmt.Fprintf(&sb, " ?%d=%s", e.Params[i], a)
	}
	sb.WriteString(")")
	return sb.String()
}

// subplan is a subquery's plan inside an operator's expressions, for the
// walks that visit every node (EXPLAIN, numbering, column needs).
type subplan struct {
	Root  Node
	Label string
}

// nodeSubqueries returns the subquery plans in n's expressions.
func nodeSubqueries(n Node) []subplan {
	var out []subplan
	for _, e := range nodeExprs(n) {
		walkExpr(e, func(x sql.Expr) {
			switch s := x.(type) {
			case *Subquery:
				out = append(out, subplan{s.Root, "subquery"})
			case *NestedSubquery:
				label := "nested subquery, per row on the CPU"
				if len(s.Params) > 0 {
					ps := make([]string, len(s.Params))
					for i, id := range s.Params {
						ps[i] = fmt.Sprintf("?%d", id)
					}
					label = "nested subquery, per distinct " + strings.Join(ps, ", ") + " on the CPU"
				} else {
					label = "nested subquery, once, on the CPU"
				}
				out = append(out, subplan{s.Root, label})
			}
		})
	}
	return out
}

// planNested plans a nested subquery's own plan (once per logical plan).
func (b *builder) planNested(sq *sql.NestedSubquery) (*NestedSubquery, error) {
	root, ok := b.nested[sq.Plan]
	if !ok {
		var err error
		if root, err = b.planQuery(sq.Plan); err != nil {
			return nil, err
		}
		b.nested[sq.Plan] = root
	}
	return &NestedSubquery{Root: root, Params: sq.Params, Args: sq.Args, Mode: sq.Mode, Op: sq.Op,
		LHS: sq.LHS, T: sq.T}, nil
}

// cpuOnlyReason names what in the plan only the CPU executor runs: nested
// subqueries re-run a plan per distinct argument tuple, which the GPU
// executor's fused kernels do not do. "" when the GPU may take the plan.
func cpuOnlyReason(p *Physical) string {
	for _, n := range p.Nodes() {
		if ej, ok := n.(*EpsilonJoin); ok {
			if ej.PairsOn != PairsGPU {
				return opName(n) + " finds its pairs on the CPU: " + ej.PairsWhy
			}
			// The GPU finds the pairs and the CPU executor runs the
			// rest, VECTOR values included (gpu_epsilon.go).
			return ""
		}
	}
	if why := typeOnCPU(p); why != "" {
		return why
	}
	if why := volatileOnCPU(p); why != "" {
		return why
	}
	if why := timeZoneOnCPU(p); why != "" {
		return why
	}
	if why := warningOnCPU(p); why != "" {
		return why
	}
	if why := divisionOnCPU(p); why != "" {
		return why
	}
	if why := collationOnCPU(p); why != "" {
		return why
	}
	for _, n := range p.Nodes() {
		if w, ok := n.(*Window); ok {
			if why := gpuWindowRefusal(w); why != "" {
				return why
			}
		}
		if _, ok := n.(*RangeJoinCount); ok {
			return opName(n) + " is not implemented on the GPU"
		}
		if a, ok := n.(*HashAggregate); ok {
			for _, ae := range a.Aggs {
				if ae.Func > sql.AggMax {
					return sql.AggName(ae.Func) + "() is not implemented on the GPU"
				}
			}
		}
		for _, e := range nodeExprs(n) {
			found := false
			walkExpr(e, func(x sql.Expr) {
				if _, ok := x.(*NestedSubquery); ok {
					found = true
				}
			})
			if found {
				return "nested subquery in " + opName(n)
			}
		}
	}
	return ""
}
