package sql

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Regular expressions use Go's regexp (RE2) where MySQL 8 uses ICU. The
// common syntax (classes, anchors, alternation, repetition, (?i)) is the
// same; RE2 has no backreferences (\1) or lookaround and rejects them at
// bind time (or, for a pattern computed per row, when the row is reached).
// Matching is case-sensitive by default, as gpusql's LIKE and comparisons
// are (binary collation); match_type 'i' makes it case-insensitive.
//
//	regexp_like     s, pat [, match_type]                       BOOLEAN (s REGEXP pat, s RLIKE pat)
//	regexp_replace  s, pat, repl [, pos [, occurrence [, mt]]]   VARCHAR; occurrence 0 = all;
//	                                                             repl refers to groups as $1 or ${1}
//	regexp_substr   s, pat [, pos [, occurrence [, mt]]]         VARCHAR, NULL when no match
//	regexp_instr    s, pat [, pos [, occurrence [, ret [, mt]]]] BIGINT 1-based character position
//	                                                             of the match (ret 1: just after it), 0 if none
//
// pos, occurrence and ret are BIGINT, mt a VARCHAR of MySQL's flags c, i, m, n, u.
var regexpFuncs = map[string]bool{"regexp_like": true, "regexp_replace": true, "regexp_substr": true, "regexp_instr": true}

// RegexpReturnOptionError is MySQL's ER_WRONG_ARGUMENTS (1210) for a
// return_option of REGEXP_INSTR other than 0 or 1.
const RegexpReturnOptionError = "Incorrect arguments to regexp_instr: return_option must be 1 or 0."

// regexpArity is the least and most arguments, and the index of match_type.
var regexpArity = map[string][3]int{"regexp_like": {2, 3, 2}, "regexp_replace": {3, 6, 5},
	"regexp_substr": {2, 5, 4}, "regexp_instr": {2, 6, 5}}

// ErrRegexpEndZ refuses ICU's \Z where a match's extent counts
// (REGEXP_INSTR, REGEXP_SUBSTR, REGEXP_REPLACE): it is zero-width before
// a final line terminator, which needs the lookahead RE2 lacks, and the
// consuming form REGEXP_LIKE uses (icuEndAnchor) would put the terminator
// inside the match. Callers name the function in front of it.
var ErrRegexpEndZ = errors.New(`\Z (end of input or before a final line terminator) is not supported here; ` +
	`use \z for the very end, or strip the terminator first (TRIM(TRAILING '\n' FROM s))`)

// CompileRegexp compiles a MySQL pattern under a match_type; exec/cpu
// calls it for every pattern it meets, so both report the same errors.
// REGEXP_LIKE asks for endAnchors, ICU's '$' that also matches before a
// final line terminator (icuEndAnchor); the functions that return where
// a match lies keep RE2's '$', the very end, since that anchor would
// take the terminator into the match.
func CompileRegexp(pattern, matchType string, endAnchors bool) (*regexp.Regexp, error) {
	flags := ""
	for _, f := range matchType {
		switch f {
		case 'c':
			flags = strings.ReplaceAll(flags, "i", "")
		case 'i':
			flags += "i"
		case 'm':
			flags += "m"
		case 'n':
			flags += "s"
		case 'u':
		default:
			return nil, fmt.Errorf("Incorrect arguments to regexp: match_type %q (c, i, m, n and u are allowed)", matchType)
		}
	}
	given := pattern
	if e := icuParseError(given); e != nil {
		return nil, e // before RE2, which reads a stray '{' or '}' as a literal
	}
	pattern, e := stripComments(pattern)
	if e != nil {
		return nil, e
	}
	modes := icuFlags{dotAll: strings.Contains(flags, "s"), multiline: strings.Contains(flags, "m")}
	pattern = posixBrackets(icuRewrite(pattern, modes, endAnchors)) // regexp_icu_flags.go
	if flags != "" {
		pattern = "(?" + flags + ")" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		if e := icuError(err, given); e != nil {
			return nil, e
		}
		var se *syntax.Error
		if errors.As(err, &se) && se.Code == syntax.ErrInvalidEscape && se.Expr == `\Z` {
			return nil, ErrRegexpEndZ
		}
		return nil, fmt.Errorf("invalid regular expression %q: %v (gpusql uses RE2 syntax: no backreferences or lookaround)", pattern, err)
	}
	return re, nil
}

func (b *binder) regexpOp(n *ast.PatternRegexpExpr, sc *scope, pos int) (Expr, error) {
	s, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	p, err := b.expr(n.Pattern, sc)
	if err != nil {
		return nil, err
	}
	args := []Expr{s, p}
	if isBinaryOperator(n.Expr) || isBinaryOperator(n.Pattern) {
		// x REGEXP BINARY 'p': by bytes, whatever the collation.
		args = append(args, &Const{T: columnar.TString, S: "c"})
	}
	e, err := b.regexpFunc("regexp_like", args, pos)
	if err != nil || !n.Not {
		return e, err
	}
	return &Not{E: e}, nil
}

func (b *binder) regexpFunc(name string, args []Expr, pos int) (Expr, error) {
	ar := regexpArity[name]
	if len(args) < ar[0] || len(args) > ar[1] {
		return nil, b.errf(pos, "wrong number of arguments to %s(): %d", name, len(args))
	}
	args, err := b.ciMatchType(name, args, pos) // regexp_collation.go
	if err != nil {
		return nil, err
	}
	for i, a := range args {
		isText := i < 2 || i == ar[2] || (name == "regexp_replace" && i == 2)
		if isText {
			args[i] = castTo(a, columnar.TString)
			continue
		}
		if _, ok := numericType(a.Type()); !ok && !isNullConst(a) {
			return nil, b.errf(pos, "type mismatch: %s() argument %d is %s (a number is required)", name, i+1, a.Type())
		}
		args[i] = castTo(a, columnar.TInt64)
	}
	if name == "regexp_instr" && len(args) > 4 {
		if c, ok := args[4].(*Const); ok && !c.Null && c.I != 0 && c.I != 1 {
			return nil, b.errf(pos, "%s", RegexpReturnOptionError)
		}
	}
	// A constant pattern is checked now, so a typo is reported with its place.
	if pc, ok := args[1].(*Const); ok && !pc.Null {
		mt := ""
		if len(args) > ar[2] {
			if c, ok := args[ar[2]].(*Const); ok && !c.Null {
				mt = c.S
			}
		}
		if _, err := CompileRegexp(pc.S, mt, name == "regexp_like"); err != nil {
			if err == ErrRegexpEndZ {
				return nil, b.errf(pos, "%s(): %v", name, err)
			}
			if e, ok := err.(*RegexpError); ok {
				return nil, b.errCode(pos, e.Code, "%s", e.Msg)
			}
			return nil, b.errf(pos, "%v", err)
		}
	}
	t := columnar.TString
	switch name {
	case "regexp_like":
		t = columnar.TBool
	case "regexp_instr":
		t = columnar.TInt64
	}
	return &Func{Name: name, Args: args, T: t}, nil
}

// isBinaryOperator reports BINARY x.
func isBinaryOperator(n ast.ExprNode) bool {
	c, ok := n.(*ast.FuncCastExpr)
	return ok && c.FunctionType == ast.CastBinaryOperator
}
