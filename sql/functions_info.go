package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// CHARSET(x), COLLATION(x) and COERCIBILITY(x) describe x's type, not its
// value, so they bind to constants (the argument is still bound, for its
// errors). gpusql's text is utf8mb4 named as its session variables name
// it (utf8mb4_0900_ai_ci); binary strings (VARBINARY columns, x'..'
// literals), numbers, temporal values and NULL are 'binary'; the strings
// of USER(), DATABASE(), VERSION() are utf8mb3 as in MySQL, JSON is
// utf8mb4_bin. COERCIBILITY follows MySQL's scale: 2 for a value that reads
// a column, 3 for those system functions, 4 for a literal string (and an
// expression of literals only), 5 for a number or temporal value, 6 for
// NULL (COLLATE, 0, is not supported by gpusql).
func (b *binder) infoFunc(n *ast.FuncCallExpr, sc *scope, pos int) (Expr, error) {
	name := n.FnName.L
	if len(n.Args) != 1 {
		return nil, b.errf(pos, "Incorrect parameter count in the call to native function '%s'", name)
	}
	e, err := b.expr(n.Args[0], sc)
	if err != nil {
		return nil, err
	}
	charset, collation, coercibility := describeCollation(e, n.Args[0])
	switch name {
	case "charset":
		return &Const{T: columnar.TString, S: charset}, nil
	case "collation":
		return &Const{T: columnar.TString, S: collation}, nil
	}
	return &Const{T: columnar.TInt64, I: coercibility}, nil
}

// systemStringFuncs return utf8mb3 "system constants" in MySQL.
var systemStringFuncs = map[string]bool{"user": true, "current_user": true, "session_user": true,
	"system_user": true, "database": true, "schema": true, "version": true}

func describeCollation(e Expr, arg ast.ExprNode) (charset, collation string, coercibility int64) {
	t := e.Type()
	k, isConst := e.(*Const)
	switch {
	case isConst && k.Null:
		return "binary", "binary", 6
	case t.ID != columnar.String:
		return "binary", "binary", 5
	}
	if f, ok := arg.(*ast.FuncCallExpr); ok && systemStringFuncs[f.FnName.L] {
		return "utf8mb3", "utf8mb3_general_ci", 3
	}
	coercibility = 4
	if readsColumn(e) {
		coercibility = 2
	}
	switch {
	case t.Binary || (isConst && k.hex):
		return "binary", "binary", coercibility
	case t.JSON:
		return "utf8mb4", "utf8mb4_bin", coercibility
	}
	return "utf8mb4", "utf8mb4_0900_ai_ci", coercibility
}

// readsColumn reports whether e reads a column of its input.
func readsColumn(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) bool {
		if _, ok := x.(*ColRef); ok {
			found = true
		}
		return !found
	})
	return found
}
