package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// jsonAgg binds the JSON aggregates, which exec/cpu collects as
// GROUP_CONCAT collects strings (exec/cpu/aggregate_more.go) and the
// planner keeps on the CPU:
//
//	JSON_ARRAYAGG(v)      JSON array of the group's values as JSON, NULL
//	                      values as null, in input order; NULL for no rows
//	JSON_OBJECTAGG(k, v)  JSON object of the group's pairs, the last value
//	                      of a repeated key winning; a NULL key is an error
//
// Each row's argument is one JSON text (json_value, or a one-member
// json_object), so the accumulator only joins or merges them.
func (b *binder) jsonAgg(n *ast.AggregateFuncExpr, f string, sc *scope, pos int) (AggExpr, error) {
	want := 1
	if f == "json_objectagg" {
		want = 2
	}
	if len(n.Args) != want {
		return AggExpr{}, b.errf(pos, "wrong number of arguments to %s(): %d", f, len(n.Args))
	}
	if n.Distinct || n.Order != nil {
		return AggExpr{}, b.errf(pos, "unsupported: DISTINCT or ORDER BY inside %s() (MySQL has neither)", f)
	}
	var args []Expr
	for _, a := range n.Args {
		e, err := b.expr(a, sc)
		if err != nil {
			return AggExpr{}, err
		}
		args = append(args, e)
	}
	if f == "json_arrayagg" {
		return AggExpr{Func: AggJSONArrayAgg, Arg: jsonValue(args[0]), T: columnar.TJSON}, nil
	}
	pair := &Func{Name: "json_object", Args: []Expr{castTo(args[0], columnar.TString), jsonValue(args[1])}, T: columnar.TJSON}
	return AggExpr{Func: AggJSONObjectAgg, Arg: pair, T: columnar.TJSON}, nil
}
