package sql

import "gpusql/storage/columnar"

// A case-insensitive collation on the subject or the pattern
// (x COLLATE utf8mb4_general_ci, a column declared with one) makes MySQL's
// regular expression functions case-insensitive, as they follow the
// arguments' collation ("Regular Expressions": REGEXP_LIKE('CamelCase',
// 'CAMELCASE') is 1 under the default ci collation); a match_type of 'c'
// still overrides it. gpusql compares by bytes otherwise, so only such an
// explicit or column collation turns 'i' on: ciMatchType puts 'i' before
// the match_type the call gives (later letters win), supplying the
// optional arguments before it with their defaults.

// regexpDefaults are the optional arguments before match_type, by
// function: pos, occurrence, return_option.
var regexpDefaults = map[string][]int64{"regexp_like": {}, "regexp_replace": {1, 0},
	"regexp_substr": {1, 1}, "regexp_instr": {1, 1, 0}}

// ciMatchType returns args with 'i' put first in the match type when the
// subject or pattern has a case-insensitive collation.
func (b *binder) ciMatchType(name string, args []Expr, pos int) ([]Expr, error) {
	if args[0].Type().Binary || args[1].Type().Binary {
		return args, nil // a binary string (REGEXP BINARY 'x') matches by bytes
	}
	coll, err := b.comparisonCollation(name, pos, args[0], args[1])
	if err != nil || coll == "" {
		return args, err
	}
	mt := regexpArity[name][2]
	first := 2
	if name == "regexp_replace" {
		first = 3
	}
	for i, d := range regexpDefaults[name] {
		if first+i >= len(args) {
			args = append(args, &Const{T: columnar.TInt64, I: d})
		}
	}
	if len(args) <= mt {
		return append(args, &Const{T: columnar.TString, S: "i"}), nil
	}
	if c, ok := args[mt].(*Const); ok && !c.Null && c.T.ID == columnar.String {
		args[mt] = &Const{T: columnar.TString, S: "i" + c.S}
		return args, nil
	}
	args[mt] = &Func{Name: "concat", Args: []Expr{&Const{T: columnar.TString, S: "i"}, castTo(args[mt], columnar.TString)}, T: columnar.TString}
	return args, nil
}
