package sql

import "gpusql/storage/columnar"

// BENCHMARK(count, expr) is 0, and NULL for a NULL or negative count
// ("Information Functions" in the MySQL 8.0 manual). MySQL evaluates expr
// count times to time it; gpusql checks that expr binds and answers at
// once (EXPLAIN ANALYZE and the bench command time queries here).
func init() { moreFuncs["benchmark"] = true }

func (c *call) benchmarkFunc() (Expr, bool, error) {
	if c.name != "benchmark" {
		return nil, false, nil
	}
	if err := c.nativeArity(2, 2); err != nil {
		return nil, true, err
	}
	k, ok := c.args[0].(*Const)
	if !ok || (!k.Null && !k.T.IsInteger()) {
		return nil, true, c.b.errf(c.pos, "Incorrect arguments to BENCHMARK: the count must be a constant integer")
	}
	if k.Null || k.I < 0 {
		return nullConst(columnar.TInt64), true, nil
	}
	return &Const{T: columnar.TInt64}, true, nil
}
