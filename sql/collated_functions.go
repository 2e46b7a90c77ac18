package sql

import "gpusql/storage/columnar"

// String functions that compare their arguments by the case-insensitive
// collation those compare under (comparisonCollation), as MySQL's do:
// STRCMP and FIELD compare the arguments' sort keys, GREATEST and LEAST
// pick an argument by its key.

// collatedKeys are STRCMP's or FIELD's string arguments as their sort keys
// under the case-insensitive collation they compare by (MySQL's STRCMP('a'
// COLLATE utf8mb4_0900_ai_ci, 'A') is 0), or as they are where they compare
// by bytes or are not all strings.
func (c *call) collatedKeys(args ...Expr) ([]Expr, error) {
	name, err := c.b.comparisonCollation(c.name, c.pos, args...)
	if err != nil || name == "" {
		return args, err
	}
	keys := make([]Expr, len(args))
	for i, a := range args {
		keys[i] = collationKey(a, name)
	}
	return keys, nil
}

// maxCollatedExtremeArgs bounds the GREATEST / LEAST written as CASE: each
// argument doubles the expression (the running pick is read twice).
const maxCollatedExtremeArgs = 4

// collatedExtreme is GREATEST or LEAST of string arguments under a
// case-insensitive collation: MySQL keeps the first of two arguments whose
// keys tie (GREATEST('a' COLLATE utf8mb4_0900_ai_ci, 'A') is 'a') and
// answers NULL when any argument is NULL. ok is false where the arguments
// compare by bytes.
func (c *call) collatedExtreme(args []Expr, t columnar.Type) (Expr, bool, error) {
	name, err := c.b.comparisonCollation(c.name, c.pos, args...)
	if err != nil || name == "" {
		return nil, false, err
	}
	if len(args) > maxCollatedExtremeArgs {
		return nil, false, c.b.errf(c.pos, "unsupported: %s() of more than %d strings of collation %s (nest the calls)", c.name, maxCollatedExtremeArgs, name)
	}
	keeps := OpGE
	if c.name == "least" {
		keeps = OpLE
	}
	pick := args[0]
	var anyNull Expr = &IsNull{E: args[0]}
	for _, a := range args[1:] {
		cond := &Binary{Op: keeps, L: collationKey(pick, name), R: collationKey(a, name), T: columnar.TBool}
		pick = &Case{Whens: []When{{Cond: cond, Result: pick}}, Else: a, T: t}
		anyNull = &Binary{Op: OpOr, L: anyNull, R: &IsNull{E: a}, T: columnar.TBool}
	}
	return &Case{Whens: []When{{Cond: anyNull, Result: nullConst(t)}}, Else: pick, T: t}, true, nil
}

// collatedLocate is LOCATE(sub, s[, start]) (INSTR and POSITION bind to
// it), searching under the case-insensitive collation its strings compare
// by, as MySQL's does (INSTR('Hello' COLLATE utf8mb4_0900_ai_ci, 'L') is
// 3): locate_collated(sub, s, start, name), which exec/cpu evaluates and
// the planner keeps off the GPU (CollationFuncs).
func (c *call) collatedLocate(args []Expr) (Expr, bool, error) {
	name, err := c.b.comparisonCollation(c.name, c.pos, args[0], args[1])
	if err != nil || name == "" {
		return c.fn(columnar.TInt64, args...)
	}
	start := Expr(&Const{T: columnar.TInt64, I: 1})
	if len(args) == 3 {
		start = args[2]
	}
	out := []Expr{uncollated(args[0]), uncollated(args[1]), start, &Const{T: columnar.TString, S: name}}
	return &Func{Name: "locate_collated", Args: out, T: columnar.TInt64}, true, nil
}
