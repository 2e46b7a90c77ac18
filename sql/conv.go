package sql

import "gpusql/storage/columnar"

// CONV(n, from_base, to_base) is MySQL's base conversion over 64-bit
// values: n is read as text (a number as its decimal digits) in base
// |from_base|, the longest prefix of valid digits; a positive from_base
// reads it unsigned (-1 is 18446744073709551615, past 2^64-1 saturates),
// a negative one signed. The result is the value in base |to_base|,
// upper-case digits: unsigned for a positive to_base, signed ('-H') for a
// negative one. A base outside 2..36 gives NULL. exec/cpu/rowfunc_conv.go
// computes it.
func init() { moreFuncs["conv"] = true }

func (c *call) convFunc() (Expr, bool, error) {
	if c.name != "conv" {
		return nil, false, nil
	}
	if err := c.arity(3, 3); err != nil {
		return nil, true, err
	}
	from, err := c.integer(c.args[1])
	if err != nil {
		return nil, true, err
	}
	to, err := c.integer(c.args[2])
	if err != nil {
		return nil, true, err
	}
	return c.fn(columnar.TString, c.str(c.args[0]), from, to)
}
