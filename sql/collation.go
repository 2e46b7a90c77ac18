package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Explicit case-insensitive collations (collation_keys.go has their
// weights). x COLLATE utf8mb4_general_ci binds to collate(x, name), whose
// value is x; what reads a collated value as a comparison makes the
// collation's keys of both sides and compares those: =, <>, <, BETWEEN,
// IN, ORDER BY and COUNT(DISTINCT) compare collation_key(x, name), LIKE
// matches collation_fold(x, name) against the folded pattern. Grouping on
// a collated value (GROUP BY, DISTINCT, MIN/MAX, PARTITION BY), whose
// answer is one of the group's original values, is refused rather than
// answered by bytes. The GPU executor computes none of these functions
// (planner/collation_refusal.go keeps such plans on the CPU).
//
// Two operands with different explicit collations are MySQL's error 1267;
// an explicit collation beats a column's or a literal's (coercibility 0
// against 2 and 4), as in MySQL.

func init() {
	for _, n := range []string{"collate", "collation_key", "collation_fold"} {
		moreFuncs[n] = true
	}
}

// CollationFuncs are the functions a collated query computes.
var CollationFuncs = map[string]bool{"collate": true, "collation_key": true, "collation_fold": true}

// knownCollations are the other collation names MySQL has that gpusql
// refuses (with "unsupported") rather than calling them unknown.
func knownCollationPrefix(name string) bool {
	for _, p := range []string{"utf8mb4_", "utf8mb3_", "utf8_", "latin1_", "ascii_", "binary"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// collate binds x COLLATE name. gpusql compares strings by their bytes,
// which is the order and equality of the _bin collations of UTF-8 (and of
// binary), so those leave x as it is; the case-insensitive collations of
// collation_keys.go wrap x in collate(x, name).
func (b *binder) collate(n *ast.SetCollationExpr, sc *scope, pos int) (Expr, error) {
	name := strings.ToLower(n.Collate)
	cs, _, _ := strings.Cut(name, "_")
	e, err := b.expr(n.Expr, sc)
	if err != nil {
		return nil, err
	}
	switch {
	case name == "binary" || (utf8Charsets[cs] && strings.HasSuffix(name, "_bin")):
		return e, nil
	case !IsCICollation(name) && !knownCollationPrefix(name):
		return nil, b.errf(pos, "Unknown collation: '%s'", name)
	case !IsCICollation(name):
		return nil, b.errf(pos, "unsupported: COLLATE %s (gpusql compares strings by their bytes, utf8mb4_bin; utf8mb4_general_ci, utf8mb4_unicode_ci and utf8mb4_0900_ai_ci are supported by name)", name)
	}
	t := e.Type()
	switch {
	case isNullConst(e):
		return e, nil
	case t.ID != columnar.String || t.Binary || t.JSON:
		return nil, b.errf(pos, "COLLATION '%s' is not valid for CHARACTER SET 'binary'", name)
	}
	return &Func{Name: "collate", Args: []Expr{uncollated(e), &Const{T: columnar.TString, S: name}}, T: t}, nil
}

// explicitCollation is the collation e names with COLLATE, or "".
func explicitCollation(e Expr) string {
	if f, ok := e.(*Func); ok && f.Name == "collate" {
		return f.Args[1].(*Const).S
	}
	return ""
}

// uncollated is e without its COLLATE.
func uncollated(e Expr) Expr {
	if f, ok := e.(*Func); ok && f.Name == "collate" {
		return f.Args[0]
	}
	return e
}

// comparisonCollation is the case-insensitive collation the operands of
// op compare under, "" when they compare by bytes: the one explicit
// collation among them when all are strings (or NULL). Two different
// explicit collations are MySQL's error 1267.
func (b *binder) comparisonCollation(op string, pos int, es ...Expr) (string, error) {
	name := ""
	for _, e := range es {
		c := explicitCollation(e)
		if c == "" {
			continue
		}
		if name != "" && c != name {
			return "", b.errf(pos, "Illegal mix of collations (%s,EXPLICIT) and (%s,EXPLICIT) for operation '%s'", name, c, op)
		}
		name = c
	}
	if name == "" {
		return "", nil
	}
	for _, e := range es {
		if t := e.Type(); !isNullConst(e) && (t.ID != columnar.String || t.JSON) {
			return "", nil // a number or a date compares as such
		}
	}
	return name, nil
}

// collationKey is e's sort key under the collation name (a constant's is
// computed now).
func collationKey(e Expr, name string) Expr {
	e = castTo(uncollated(e), columnar.TString)
	if c, ok := e.(*Const); ok {
		if c.Null {
			return c
		}
		return &Const{T: columnar.TString, S: CollationKey(name, c.S)}
	}
	return &Func{Name: "collation_key", Args: []Expr{e, &Const{T: columnar.TString, S: name}}, T: columnar.TString}
}

// collationFold is e folded for LIKE under the collation name.
func collationFold(e Expr, name string) Expr {
	e = castTo(uncollated(e), columnar.TString)
	if c, ok := e.(*Const); ok {
		if c.Null {
			return c
		}
		return &Const{T: columnar.TString, S: CollationFold(name, c.S)}
	}
	return &Func{Name: "collation_fold", Args: []Expr{e, &Const{T: columnar.TString, S: name}}, T: columnar.TString}
}

// isCollated reports whether e is a COLLATE'd value (whose sort key is
// not its bytes).
func isCollated(e Expr) bool { return explicitCollation(e) != "" }

// refuseCollatedGrouping is the error for grouping on a collated value.
func (b *binder) refuseCollatedGrouping(what string, pos int, es ...Expr) error {
	for _, e := range es {
		if c := explicitCollation(e); c != "" {
			return b.errf(pos, "unsupported: %s on %s (a value of collation %s; comparisons, IN, LIKE, ORDER BY and COUNT(DISTINCT) follow it, grouping does not yet)", what, e, c)
		}
	}
	return nil
}

// needsOrderKey reports whether e sorts by a key other than its value
// (orderKey): JSON and collated values.
func needsOrderKey(e Expr) bool { return isJSON(e) || isCollated(e) }
