package sql

import "gpusql/storage/columnar"

// Functions of chance and of a global sequence: a new value on every row
// and every run. Binding one marks the statement volatile, so the plan
// cache never replays a plan that holds one, and the planner keeps such
// plans on the CPU (planner/volatile_refusal.go): the GPU executor
// evaluates string subexpressions once per dictionary entry, which would
// give equal rows equal "random" values. exec/cpu/rowfunc_random.go
// computes them.
//
//	name        args                  result
//	rand        [seed BIGINT]         DOUBLE in [0, 1). A constant seed starts MySQL's my_rnd sequence
//	                                  once per run (RAND(3) gives MySQL's first value
//	                                  0.9057697559760601), shared by all rows; a seed that is
//	                                  not a constant reseeds per row (rand_row_seed)
//	uuid        -                     VARCHAR, a version 1 (time-based) UUID: 36 characters,
//	                                  lower-case, time from the clock, a random node and clock
//	                                  sequence per process, strictly increasing time per call
//	uuid_short  -                     BIGINT UNSIGNED: (server_id 1) << 56 + (process start in
//	                                  seconds) << 24 + a counter incremented per call
//	sleep       n DOUBLE              BIGINT 0 after n seconds per row, 1 when the query is
//	                                  cancelled meanwhile; NULL or n < 0 is an error
func init() {
	for _, n := range []string{"rand", "rand_row_seed", "uuid", "uuid_short", "sleep"} {
		moreFuncs[n] = true
	}
}

// VolatileFuncs are the functions whose value differs per call.
var VolatileFuncs = map[string]bool{"rand": true, "rand_row_seed": true, "uuid": true, "uuid_short": true,
	"sleep": true}

// randomFunc binds RAND, UUID and UUID_SHORT.
func (c *call) randomFunc() (Expr, bool, error) {
	switch c.name {
	case "rand":
		if err := c.nativeArity(0, 1); err != nil {
			return nil, true, err
		}
		c.b.volatile("RAND()")
		if len(c.args) == 0 {
			return c.fn(columnar.TFloat64)
		}
		seed, err := c.wholeNumber(c.args[0])
		if err != nil {
			return nil, true, err
		}
		if k, ok := seed.(*Const); ok {
			if k.Null {
				seed = &Const{T: columnar.TInt64} // RAND(NULL) is RAND(0)
			}
			return c.fn(columnar.TFloat64, seed)
		}
		c.name = "rand_row_seed"
		return c.fn(columnar.TFloat64, seed)
	case "sleep":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		x := c.args[0]
		if _, ok := numericType(x.Type()); !ok && !isNullConst(x) && x.Type().ID != columnar.String {
			return nil, true, c.b.errf(c.pos, "type mismatch: sleep() of %s (a number is required)", x.Type())
		}
		c.b.volatile("SLEEP()")
		return c.fn(columnar.TInt64, castTo(x, columnar.TFloat64))
	case "uuid", "uuid_short":
		if err := c.nativeArity(0, 0); err != nil {
			return nil, true, err
		}
		c.b.volatile(c.name + "()")
		if c.name == "uuid_short" {
			return c.fn(columnar.TUint64)
		}
		return c.fn(columnar.TString)
	}
	return nil, false, nil
}
