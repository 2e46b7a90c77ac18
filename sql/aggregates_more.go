package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// The statistical, bitwise and string aggregates (MySQL 8). exec/cpu
// computes them (exec/cpu/aggregate_more.go); the planner keeps plans that
// use them on the CPU (planner/subquery.go cpuOnlyReason).
//
//	VAR_POP, VARIANCE, VAR_SAMP, STD, STDDEV, STDDEV_POP, STDDEV_SAMP (x numeric)
//	    DOUBLE; NULL for no rows, and the sample forms for one row.
//	BIT_AND, BIT_OR, BIT_XOR (x integer; DECIMAL and DOUBLE round to one)
//	    BIGINT UNSIGNED over the 64-bit two's complement pattern; never
//	    NULL: no rows give BIT_AND all ones (18446744073709551615) and
//	    BIT_OR/BIT_XOR 0.
//	GROUP_CONCAT([DISTINCT] x1 [, x2...] [ORDER BY k [DESC], ...] [SEPARATOR s])
//	    VARCHAR: the group's CONCAT(x1, x2...) values that are not NULL, in
//	    the ORDER BY order (input order otherwise), joined by s (default ',');
//	    NULL when there are none. The result is cut to @@group_concat_max_len
//	    bytes (1024 unless SET), as MySQL does.
var moreAggs = map[string]AggFunc{"var_pop": AggVarPop, "variance": AggVarPop, "var_samp": AggVarSamp,
	"stddev_pop": AggStddevPop, "stddev": AggStddevPop, "std": AggStddevPop, "stddev_samp": AggStddevSamp,
	"bit_and": AggBitAnd, "bit_or": AggBitOr, "bit_xor": AggBitXor}

func (b *binder) aggCallMore(n *ast.AggregateFuncExpr, f string, sc *scope, pos int) (AggExpr, bool, error) {
	if f == "group_concat" {
		ae, err := b.groupConcat(n, sc, pos)
		return ae, true, err
	}
	if f == "json_arrayagg" || f == "json_objectagg" {
		ae, err := b.jsonAgg(n, f, sc, pos)
		return ae, true, err
	}
	fn, ok := moreAggs[f]
	if !ok {
		return AggExpr{}, false, nil
	}
	if n.Order != nil {
		return AggExpr{}, true, b.errf(pos, "ORDER BY is only allowed inside GROUP_CONCAT(), not %s()", f)
	}
	if len(n.Args) != 1 {
		return AggExpr{}, true, b.errf(pos, "wrong number of arguments to %s(): %d", f, len(n.Args))
	}
	arg, err := b.expr(n.Args[0], sc)
	if err != nil {
		return AggExpr{}, true, err
	}
	if _, ok := numericType(arg.Type()); !ok && !isNullConst(arg) {
		return AggExpr{}, true, b.errf(pos, "type mismatch: %s() of %s", f, arg.Type())
	}
	ae := AggExpr{Func: fn, Distinct: n.Distinct, T: columnar.TFloat64}
	switch fn {
	case AggBitAnd, AggBitOr, AggBitXor:
		ae.T = columnar.TUint64
		ae.Arg = castTo(arg, columnar.TInt64)
	default:
		ae.Arg = castTo(arg, columnar.TFloat64)
	}
	return ae, true, nil
}

// groupConcat binds GROUP_CONCAT: the parser passes the separator as the
// last argument.
func (b *binder) groupConcat(n *ast.AggregateFuncExpr, sc *scope, pos int) (AggExpr, error) {
	if len(n.Args) < 2 {
		return AggExpr{}, b.errf(pos, "wrong number of arguments to group_concat()")
	}
	ae := AggExpr{Func: AggGroupConcat, Distinct: n.Distinct, T: columnar.TString, Sep: ",",
		MaxLen: b.session.Limit("group_concat_max_len")}
	if v, ok := n.Args[len(n.Args)-1].(*driver.ValueExpr); ok {
		ae.Sep = v.GetString()
	}
	var parts, args []Expr
	for _, a := range n.Args[:len(n.Args)-1] {
		e, err := b.expr(a, sc)
		if err != nil {
			return AggExpr{}, err
		}
		args = append(args, e)
		parts = append(parts, castTo(e, columnar.TString))
	}
	ae.Arg = parts[0]
	if len(parts) > 1 {
		ae.Arg = &Func{Name: "concat", Args: parts, T: columnar.TString}
	}
	if n.Order != nil {
		for _, by := range n.Order.Items {
			e, err := b.groupConcatKey(by.Expr, args, sc, pos)
			if err != nil {
				return AggExpr{}, err
			}
			ae.Order = append(ae.Order, SortKey{Expr: orderKey(e), Desc: by.Desc})
		}
	}
	return ae, nil
}

// groupConcatKey binds one ORDER BY key of GROUP_CONCAT. A position
// names one of its own arguments, by that argument's type (MySQL's
// setup_order over the arguments): GROUP_CONCAT(i ORDER BY 1) orders
// numbers as numbers, and a position past them is 1054.
func (b *binder) groupConcatKey(by ast.ExprNode, args []Expr, sc *scope, pos int) (Expr, error) {
	p, ok := by.(*ast.PositionExpr)
	if !ok {
		return b.expr(by, sc)
	}
	if p.P != nil || p.N < 1 || p.N > len(args) {
		return nil, b.errCode(pos, ErBadField, "Unknown column '%d' in 'order clause'", p.N)
	}
	return args[p.N-1], nil
}

// countDistinctTuple binds COUNT(DISTINCT a, b, ...) as COUNT(DISTINCT key)
// of one string per row that two rows share only when every argument is
// equal: each argument's text prefixed by its length, so that ('ab','c')
// and ('a','bc') stay apart. CONCAT is NULL when any argument is, and MySQL
// skips a row with any NULL argument.
func (b *binder) countDistinctTuple(args []ast.ExprNode, sc *scope) (AggExpr, error) {
	var parts []Expr
	for _, a := range args {
		e, err := b.expr(a, sc)
		if err != nil {
			return AggExpr{}, err
		}
		text := castTo(e, columnar.TString)
		parts = append(parts, &Func{Name: "length", Args: []Expr{text}, T: columnar.TInt64},
			&Const{T: columnar.TString, S: ":"}, text)
	}
	for i, p := range parts {
		parts[i] = castTo(p, columnar.TString)
	}
	key := &Func{Name: "concat", Args: parts, T: columnar.TString}
	return AggExpr{Func: AggCount, Distinct: true, Arg: key, T: columnar.TInt64}, nil
}
