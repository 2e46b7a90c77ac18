package cpu

import (
	"context"
	"fmt"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// User variables assigned inside a statement (sql/user_var_assign.go):
// user_var_set(name, v) stores v in the connection's variable as each row
// is evaluated and returns it; user_var_get(name) reads the variable's
// value at that row. MySQL's order — rows one after another, a row's
// select list left to right — is kept by running such plans on one
// worker (morsels in order) and by evaluating a projection that holds
// them row by row (rowwiseProjectionOp).

type userVarsKey struct{}

// WithUserVars returns ctx carrying the connection's user variables, which
// statements that assign them (SELECT @n := @n + 1 ...) read and write.
func WithUserVars(ctx context.Context, v *sql.UserVars) context.Context {
	return context.WithValue(ctx, userVarsKey{}, v)
}

func userVarsFrom(ctx context.Context) *sql.UserVars {
	v, _ := ctx.Value(userVarsKey{}).(*sql.UserVars)
	return v
}

// hasUserVarFunc reports whether e reads or assigns a variable row by row.
func hasUserVarFunc(e sql.Expr) bool {
	found := false
	sql.WalkExpr(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.Func); ok && (f.Name == sql.UserVarGet || f.Name == sql.UserVarSet) {
			found = true
		}
		return !found
	})
	return found
}

func (c *compiler) compileUserVar(e *sql.Func) (evaluator, error) {
	var vars *sql.UserVars
	if c.x != nil {
		vars = userVarsFrom(c.x.ctx)
	}
	if vars == nil {
		return nil, fmt.Errorf("user variables (@%s) need a connection: the statement runs outside one", e.Args[0].(*sql.Const).S)
	}
	name := e.Args[0].(*sql.Const).S
	if e.Name == sql.UserVarGet {
		return &userVarGetEval{name: name, vars: vars, out: newVec(e.T)}, nil
	}
	arg, err := c.compile(e.Args[1])
	if err != nil {
		return nil, err
	}
	return &userVarSetEval{name: name, vars: vars, arg: arg, out: newVec(e.T)}, nil
}

// userVarGetEval reads the variable at each row, converted to its type.
type userVarGetEval struct {
	name string
	vars *sql.UserVars
	out  *vec
	sb   stringBuilder
}

func (g *userVarGetEval) eval(b *batch, sel []int32) *vec {
	g.out.ensure(b.n)
	g.sb.reset(b.n)
	for _, p := range sel {
		k, _ := g.vars.Get(g.name)
		putConst(g.out, &g.sb, b.n, p, k)
	}
	if g.out.t.ID == columnar.String {
		g.sb.finish(g.out, sel)
	}
	return g.out
}

// userVarSetEval evaluates its value one row at a time, in sel's order,
// storing each in the variable before the next row's value is computed
// (which may read it: @n := @n + 1).
type userVarSetEval struct {
	name string
	vars *sql.UserVars
	arg  evaluator
	out  *vec
	sb   stringBuilder
	one  [1]int32
}

func (s *userVarSetEval) eval(b *batch, sel []int32) *vec {
	s.sb.reset(b.n)
	var ks []*sql.Const
	for _, p := range sel {
		s.one[0] = p
		v := s.arg.eval(b, s.one[:])
		k := vecConst(v, p, s.out.t)
		s.vars.Set(s.name, k)
		ks = append(ks, k)
	}
	// The argument's evaluations reuse its buffers; the results were
	// copied out as constants and are written now.
	s.out.ensure(b.n)
	for i, p := range sel {
		putConst(s.out, &s.sb, b.n, p, ks[i])
	}
	if s.out.t.ID == columnar.String {
		s.sb.finish(s.out, sel)
	}
	return s.out
}

// vecConst is position p of v as a constant of type t.
func vecConst(v *vec, p int32, t columnar.Type) *sql.Const {
	k := &sql.Const{T: t}
	switch {
	case v.isNull(p):
		k.Null = true
	case t.ID == columnar.String:
		k.S = v.stringAt(p)
	case t.ID == columnar.Vector:
		k.V = append([]float32(nil), v.vecs[p]...)
	case v.w != nil:
		k.W = v.w[p]
	case v.f64 != nil:
		k.F = v.f64[p]
	default:
		k.I = v.int64At(p)
	}
	return k
}

// putConst writes k, converted to out's type, at position p of out
// (strings into sb, which the caller finishes).
func putConst(out *vec, sb *stringBuilder, n int, p int32, k *sql.Const) {
	if k != nil && !k.Null && !sameConstType(k.T, out.t) {
		k, _ = sql.ConvertConst(k, out.t)
	}
	if k == nil || k.Null {
		out.setNull(n, p)
		if out.t.ID == columnar.String {
			sb.setNull(p)
		}
		return
	}
	switch {
	case out.t.ID == columnar.String:
		sb.set(p, k.S)
	case out.t.ID == columnar.Vector:
		out.vecs[p] = k.V
	case out.w != nil:
		out.w[p] = k.W
	case out.f64 != nil:
		out.f64[p] = k.F
	default:
		putInt(out, p, k.I)
	}
}

func sameConstType(a, b columnar.Type) bool {
	return a.ID == b.ID && a.Scale == b.Scale && a.Unsigned == b.Unsigned && a.JSON == b.JSON && a.Year == b.Year
}

// warnsRowByRow says whether projection n is computed one row at a time:
// where it reads or assigns user variables, and where two or more of its
// expressions may note warnings, which MySQL notes row by row (SELECT
// CAST(s AS SIGNED), CAST(s AS DECIMAL) FROM t: row 1's two, then row
// 2's), where a batch's expression by expression would note a column's
// warnings before the next column's.
func (x *executor) warnsRowByRow(n *planner.Projection) bool {
	warns := 0
	for i, e := range n.Exprs {
		if hasUserVarFunc(e) {
			return true
		}
		if x.warn != nil && (n.Needed == nil || i >= len(n.Needed) || n.Needed[i]) && planner.MayWarn(e) {
			warns++
		}
	}
	return warns > 1
}

func newRowwiseProjection(p *projectionOp, n *planner.Projection) *rowwiseProjectionOp {
	r := &rowwiseProjectionOp{evals: p.evals, next: p.next, cols: make([]*vec, len(n.Exprs)),
		sbs: make([]stringBuilder, len(n.Exprs))}
	r.out.cols = make([]*vec, len(n.Exprs))
	for i, e := range n.Exprs {
		r.types = append(r.types, e.Type())
		if _, unused := p.evals[i].(nilEval); !unused {
			r.cols[i] = newVec(e.Type())
		}
	}
	return r
}

// rowwiseProjectionOp computes a projection that reads or assigns user
// variables one row at a time, every expression of a row before the
// next row, as MySQL evaluates a select list: SELECT @x := a, @x + 1
// reads each row's own @x. Results are copied out per row, since each
// evaluation reuses the evaluators' buffers.
type rowwiseProjectionOp struct {
	evals []evaluator
	types []columnar.Type
	out   batch
	cols  []*vec
	sbs   []stringBuilder
	next  operator
	one   [1]int32
}

func (r *rowwiseProjectionOp) push(b *batch) error {
	o := &r.out
	o.n, o.sel, o.morsel = b.n, b.sel, b.morsel
	for i, c := range r.cols {
		if c != nil {
			c.ensure(b.n)
			r.sbs[i].reset(b.n)
		}
	}
	for _, p := range b.sel {
		r.one[0] = p
		for i, ev := range r.evals {
			if r.cols[i] == nil {
				continue
			}
			v := ev.eval(b, r.one[:])
			putConst(r.cols[i], &r.sbs[i], b.n, p, vecConst(v, p, r.types[i]))
		}
	}
	for i, c := range r.cols {
		if c != nil && c.t.ID == columnar.String {
			r.sbs[i].finish(c, b.sel)
		}
		o.cols[i] = c
	}
	return r.next.push(o)
}
