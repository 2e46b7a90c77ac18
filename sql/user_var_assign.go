package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Assignment to user variables inside expressions, @x := expr (deprecated
// in MySQL 8 but supported): the value is stored when the expression is
// evaluated, and reads of @x later in the same row see it. MySQL evaluates
// a row's select list left to right and the rows one after another, so
// SELECT @x := 5, @x + 1 gives 5, 6 and SET @n = 0; SELECT @n := @n + 1,
// name FROM t numbers the rows.
//
// A variable the statement assigns is therefore not a constant of the
// statement (as other variables are, user_vars.go): its reads and writes
// are the functions user_var_get(name) and user_var_set(name, value),
// which exec/cpu evaluates row by row on the connection's variables, the
// plan on one worker in row order and projections row by row
// (exec/cpu/user_vars.go). The planner keeps such plans on the CPU
// (VolatileFuncs).
//
// A read is typed before the statement has run, so it takes the type of
// the value the statement assigns (the binder binds the statement again
// once it knows it); @x keeps the value's own type between statements.

// Names of the user-variable functions.
const (
	UserVarGet = "user_var_get"
	UserVarSet = "user_var_set"
)

func init() {
	VolatileFuncs[UserVarGet] = true
	VolatileFuncs[UserVarSet] = true
}

// ConvertConst converts constant c to type t as CAST does where it can.
func ConvertConst(c *Const, t columnar.Type) (*Const, bool) { return convertConst(c, t) }

// varAssignments are the state of the statement's assigned variables.
type varAssignments struct {
	names map[string]bool          // assigned somewhere in the statement
	typed map[string]columnar.Type // the type a read takes (from the previous pass)
	set   map[string]columnar.Type // the type assigned, in this pass
	read  map[string]columnar.Type // the type reads took, in this pass
}

// assignedVars lists the user variables statement n assigns with :=.
func assignedVars(n ast.Node) map[string]bool {
	v := &assignVisitor{names: map[string]bool{}}
	n.Accept(v)
	if len(v.names) == 0 {
		return nil
	}
	return v.names
}

type assignVisitor struct{ names map[string]bool }

func (v *assignVisitor) Enter(n ast.Node) (ast.Node, bool) {
	if x, ok := n.(*ast.VariableExpr); ok && !x.IsSystem && x.Value != nil {
		v.names[strings.ToLower(x.Name)] = true
	}
	return n, false
}

func (v *assignVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// bindAssigning binds a statement that assigns user variables: again with
// the assigned types where a read was typed otherwise (a few passes at
// most: each fixes the reads of one more chain of assignments).
func bindAssigning(p Parsed, names map[string]bool, pass func(*varAssignments) (Statement, error)) (Statement, error) {
	typed := map[string]columnar.Type{}
	for range 4 {
		va := &varAssignments{names: names, typed: typed, set: map[string]columnar.Type{}, read: map[string]columnar.Type{}}
		st, err := pass(va)
		if err != nil {
			return nil, err
		}
		stable := true
		for name, t := range va.set {
			if rt, ok := va.read[name]; ok && !sameType(rt, t) {
				stable = false
			}
		}
		if stable {
			return st, nil
		}
		typed = va.set
	}
	return nil, &Error{Line: max(p.Line, 1), Col: 1, Msg: "unsupported: user variables assigned with values of types that keep changing in one statement"}
}

// assignUserVar binds @name := value.
func (b *binder) assignUserVar(n *ast.VariableExpr, sc *scope, pos int) (Expr, error) {
	if b.vars == nil || b.assigning == nil {
		return nil, b.errf(pos, "unsupported: user variables (@%s) outside a connection", n.Name)
	}
	if len(b.views) > 0 {
		return nil, b.errf(pos, "a view's SELECT cannot contain a user variable (@%s)", n.Name)
	}
	v, err := b.expr(n.Value, sc)
	if err != nil {
		return nil, err
	}
	if isNullConst(v) && v.Type().ID == columnar.Int32 {
		v = nullConst(columnar.TString) // an untyped NULL: MySQL's NULL variables read as text
	}
	name := strings.ToLower(n.Name)
	b.assigning.set[name] = v.Type()
	b.volatile("a user variable assignment")
	return &Func{Name: UserVarSet, Args: []Expr{&Const{T: columnar.TString, S: name}, v}, T: v.Type()}, nil
}

// assignedUserVar binds a read of @name, which the statement assigns: its
// value when the row is evaluated.
func (b *binder) assignedUserVar(name string) Expr {
	t, ok := b.assigning.typed[name]
	if !ok {
		t = columnar.TString
		if v, found := b.vars.Get(name); found && !v.Null {
			t = v.T
		}
	}
	b.assigning.read[name] = t
	return &Func{Name: UserVarGet, Args: []Expr{&Const{T: columnar.TString, S: name}}, T: t}
}
