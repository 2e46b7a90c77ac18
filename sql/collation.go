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

// CollationFuncs are the functions a collated query computes.
var CollationFuncs = map[string]bool{"collate": true, "collation_key": true, "collation_fold": true,
	"collation_tagged": true, "collation_untag": true, "locate_collated": true}

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
		if isCollated(e) {
			// A case-insensitive column compared by bytes: the explicit
			// collation beats the column's, its keys are the bytes.
			return &Func{Name: "collate", Args: []Expr{uncollated(e), &Const{T: columnar.TString, S: name}}, T: e.Type()}, nil
		}
		return e, nil
	case !columnar.IsCICollation(name) && !knownCollationPrefix(name):
		return nil, b.errCode(pos, ErUnknownCollation, "Unknown collation: '%s'", name)
	case !columnar.IsCICollation(name):
		return nil, b.errf(pos, "unsupported: COLLATE %s (gpusql compares strings by their bytes, utf8mb4_bin; utf8mb4_general_ci, utf8mb4_unicode_ci and utf8mb4_0900_ai_ci are supported by name)", name)
	}
	t := e.Type()
	switch {
	case isNullConst(e):
		return e, nil
	case t.ID != columnar.String || t.Binary || t.JSON:
		return nil, b.errCode(pos, ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET 'binary'", name)
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

// collationOf is the case-insensitive collation e compares by and whether
// it is explicit (COLLATE, coercibility 0) or a column's (2); "" when e
// compares by bytes.
func collationOf(e Expr) (name string, explicit bool) {
	if c := explicitCollation(e); c != "" {
		return c, true
	}
	if r, ok := e.(*ColRef); ok {
		return r.Col.Collation, false
	}
	return "", false
}

// fieldCollation is the collation information_schema shows for a string
// column.
func fieldCollation(f columnar.Field) string {
	if f.Collation != "" {
		return f.Collation
	}
	return "utf8mb4_bin"
}

// columnCollation sets a column definition's COLLATE name: the
// case-insensitive collations are kept, the byte-wise ones (_bin, binary)
// and an empty name leave the column comparing by bytes, others are
// refused. Non-string columns ignore it, as MySQL does.
func (b *binder) columnCollation(f *columnar.Field, name string, pos int) error {
	name = strings.ToLower(name)
	cs, _, _ := strings.Cut(name, "_")
	switch {
	case name == "" || f.Type.ID != columnar.String:
	case name == "binary" || (utf8Charsets[cs] && strings.HasSuffix(name, "_bin")):
		f.Collation = ""
	case columnar.IsCICollation(name):
		if f.Type.Binary {
			return b.errCode(pos, ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET 'binary'", name)
		}
		f.Collation = name
	case knownCollationPrefix(name):
		return b.errf(pos, "unsupported: COLLATE %s on column '%s' (utf8mb4_bin, utf8mb4_general_ci, utf8mb4_unicode_ci and utf8mb4_0900_ai_ci are supported)", name, f.Name)
	default:
		return b.errCode(pos, ErUnknownCollation, "Unknown collation: '%s'", name)
	}
	return nil
}

// uncollated is e without its COLLATE.
func uncollated(e Expr) Expr {
	if f, ok := e.(*Func); ok && f.Name == "collate" {
		return f.Args[0]
	}
	return e
}

// comparisonCollation is the case-insensitive collation the operands of
// op compare under, "" when they compare by bytes: the explicit collation
// among them, else a column's, when all are strings (or NULL). Two
// different collations of the same strength are MySQL's error 1267; a
// column comparing by bytes yields to one with a collation.
func (b *binder) comparisonCollation(op string, pos int, es ...Expr) (string, error) {
	var name [2]string // implicit, explicit
	for _, e := range es {
		c, explicit := collationOf(e)
		if c == "" {
			continue
		}
		k := 0
		if explicit {
			k = 1
		}
		if name[k] != "" && c != name[k] {
			how := [2]string{"IMPLICIT", "EXPLICIT"}[k]
			return "", b.errf(pos, "Illegal mix of collations (%s,%s) and (%s,%s) for operation '%s'", name[k], how, c, how, op)
		}
		name[k] = c
	}
	c := name[1]
	if c == "" {
		c = name[0]
	}
	if c == "" {
		return "", nil
	}
	for _, e := range es {
		if t := e.Type(); !isNullConst(e) && (t.ID != columnar.String || t.JSON) {
			return "", nil // a number or a date compares as such
		}
	}
	return c, nil
}

// collationKey is e's sort key under the collation name (a constant's is
// computed now).
func collationKey(e Expr, name string) Expr {
	e = castTo(uncollated(e), columnar.TString)
	if c, ok := e.(*Const); ok {
		if c.Null {
			return c
		}
		return &Const{T: columnar.TString, S: columnar.CollationKey(name, c.S)}
	}
	return &Func{Name: "collation_key", Args: []Expr{e, &Const{T: columnar.TString, S: name}}, T: columnar.TString}
}

// CollationKeyOf is e's sort key under the collation name, for the
// executors comparing a column's values by its collation (a set
// operation's rows).
func CollationKeyOf(e Expr, name string) Expr { return collationKey(e, name) }

// collationFold is e folded for LIKE under the collation name.
func collationFold(e Expr, name string) Expr {
	e = castTo(uncollated(e), columnar.TString)
	if c, ok := e.(*Const); ok {
		if c.Null {
			return c
		}
		return &Const{T: columnar.TString, S: columnar.CollationFold(name, c.S)}
	}
	return &Func{Name: "collation_fold", Args: []Expr{e, &Const{T: columnar.TString, S: name}}, T: columnar.TString}
}

// isCollated reports whether e's sort key is not its bytes (COLLATE, a
// column of a case-insensitive collation).
func isCollated(e Expr) bool { c, _ := collationOf(e); return c != "" }

// needsOrderKey reports whether e sorts by a key other than its value
// (orderKey): JSON and collated values.
func needsOrderKey(e Expr) bool { return isJSON(e) || isCollated(e) || isEnum(e) }

// or is a unless it is "", else b.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// distinct is SELECT DISTINCT over p: a Distinct, or, where a column has a
// case-insensitive collation, an Aggregate grouping by the collation keys
// of those columns (the other columns as they are) whose value for a
// collated column is the group's smallest by bytes, projected back to p's
// columns.
func distinct(p Plan) Plan {
	sch := p.Schema()
	var groups []Expr
	var aggs []AggExpr
	exprs := make([]Expr, len(sch))
	names := make([]string, len(sch))
	for i, c := range sch {
		ref := &ColRef{Index: i, Col: c}
		names[i] = c.Name
		if c.Collation == "" {
			exprs[i] = &ColRef{Index: len(groups)}
			groups = append(groups, ref)
			continue
		}
		groups = append(groups, collationKey(ref, c.Collation))
		exprs[i] = &ColRef{Index: -1 - len(aggs)} // an aggregate: placed below
		aggs = append(aggs, AggExpr{Func: AggMin, Arg: ref, T: c.Type})
	}
	if len(aggs) == 0 {
		return &Distinct{Input: p}
	}
	out := make(Schema, 0, len(groups)+len(aggs))
	for _, g := range groups {
		out = append(out, Column{Name: g.String(), Type: g.Type(), Nullable: nullable(g)})
	}
	for _, ae := range aggs {
		c, _ := collationOf(ae.Arg)
		out = append(out, Column{Name: ae.String(), Type: ae.T, Nullable: true, Collation: c})
	}
	agg := &Aggregate{Input: p, GroupBy: groups, Aggs: aggs, Out: out}
	for i, e := range exprs {
		r := e.(*ColRef)
		if r.Index < 0 {
			r.Index = len(groups) - 1 - r.Index
		}
		r.Col = out[r.Index]
		exprs[i] = r
	}
	return newProject(agg, exprs, names)
}

// collationTagged is e as the string CollationTag makes of it: MIN and MAX
// of tagged values pick the value of the smallest or largest key.
func collationTagged(e Expr, name string) Expr {
	return &Func{Name: "collation_tagged", Args: []Expr{castTo(uncollated(e), columnar.TString), &Const{T: columnar.TString, S: name}}, T: columnar.TString}
}

// collationUntagged reads the value back out of the result ref of an
// aggregate over tagged values (ae), still of the collation (as if
// COLLATE'd: MySQL keeps the column's, a weaker coercibility that only
// matters against a second collation); other results are ref as they are.
func collationUntagged(ref *ColRef, ae AggExpr) Expr {
	f, ok := ae.Arg.(*Func)
	if !ok || f.Name != "collation_tagged" {
		return ref
	}
	v := &Func{Name: "collation_untag", Args: []Expr{ref}, T: f.Args[0].Type()}
	// The value compares by the collation still (HAVING max(name) = 'BOB').
	return &Func{Name: "collate", Args: []Expr{v, f.Args[1]}, T: v.T}
}

// collatedSchema reports whether a column of s has a collation.
func collatedSchema(s Schema) bool {
	for _, c := range s {
		if c.Collation != "" {
			return true
		}
	}
	return false
}

// FieldCollation is a column's collation as SHOW FULL COLUMNS and
// information_schema name it: "" for a column that holds no text.
func FieldCollation(f columnar.Field) string {
	if f.Type.ID != columnar.String || f.Type.Binary || f.Type.JSON {
		return ""
	}
	return fieldCollation(f)
}

// tableCollation is a CREATE TABLE's [DEFAULT] COLLATE option when it is
// one gpusql compares by (a case-insensitive UTF-8 collation, or a _bin
// one): the collation of its string columns that name none, as MySQL's
// table default ("Table Character Set and Collation" in the MySQL 8.0
// manual): a dump's `COLLATE=utf8mb4_0900_ai_ci` makes them
// case-insensitive. Other collations stay ignored, as they always were
// at table level (a column naming one is refused).
func tableCollation(opts []*ast.TableOption) string {
	name := ""
	for _, o := range opts {
		if o.Tp == ast.TableOptionCollate {
			name = strings.ToLower(o.StrValue)
		}
	}
	cs, _, _ := strings.Cut(name, "_")
	if columnar.IsCICollation(name) || name == "binary" || utf8Charsets[cs] && strings.HasSuffix(name, "_bin") {
		return name
	}
	return ""
}
