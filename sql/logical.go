package sql

import "gpusql/storage/columnar"

// Column describes one output column of a plan node.
type Column struct {
	Name  string
	Table string // qualifier (table alias) the name resolves under; "" for derived columns
	Type  columnar.Type
	// Nullable is false only when the binder knows no row can be NULL.
	Nullable bool
	// Dict is the dictionary whose codes the column carries when it is a
	// string column passed through unchanged from a base table; nil for
	// strings computed by expressions.
	Dict *columnar.Dictionary
	// Collation is the case-insensitive collation of a base table's
	// column (columnar.Field.Collation) the column reads; "" otherwise.
	Collation string
	// Shown is 1 + the scale MySQL prints a subquery's or derived
	// table's DECIMAL column with, where its value keeps more digits (a
	// quotient's: division_digits.go); 0 where it is the type's.
	Shown int8
}

// Schema is the ordered output of a plan node.
type Schema []Column

// Plan is a node of the logical plan: a tree of relational operators that the
// planner turns into a physical plan.
type Plan interface {
	Schema() Schema
	Children() []Plan
}

// Scan reads columns Columns (indexes into Table.Fields) of a table snapshot.
type Scan struct {
	Table   *columnar.Table
	Alias   string
	Columns []int
	Out     Schema
}

// Filter keeps the rows where Cond is true.
type Filter struct {
	Input Plan
	Cond  Expr
}

// Project computes Exprs over its input; Out names them.
type Project struct {
	Input Plan
	Exprs []Expr
	Out   Schema
}

// JoinKind is the kind of join.
type JoinKind uint8

const (
	JoinInner JoinKind = iota + 1
	JoinLeft           // left outer: unmatched left rows with NULL right columns
	JoinSemi           // left rows with at least one match; output = left columns
	JoinAnti           // left rows with no match; output = left columns
	JoinCross          // every pair (no condition)
)

// Join combines Left and Right. LeftKeys[i] (over Left's schema) equals
// RightKeys[i] (over Right's schema) for every i; Residual (over the
// concatenated schema left++right) must also hold. For JoinAnti with
// NullAware set (NOT IN), a NULL key on either side makes the comparison
// unknown: a left row is kept only if its key is not NULL and the right side
// has no NULL key (or is empty). Output: left++right, except Semi/Anti: left.
type Join struct {
	Kind      JoinKind
	Left      Plan
	Right     Plan
	LeftKeys  []Expr
	RightKeys []Expr
	Residual  Expr
	NullAware bool
	Out       Schema
}

// Aggregate groups by GroupBy and computes Aggs. Output: group columns, then
// aggregates. Without GroupBy it returns exactly one row (even on empty input).
type Aggregate struct {
	Input   Plan
	GroupBy []Expr
	Aggs    []AggExpr
	Out     Schema
}

// SortKey orders by Expr; NULLs sort first ascending and last descending
// (MySQL).
type SortKey struct {
	Expr Expr
	Desc bool
}

// Sort orders its input.
type Sort struct {
	Input Plan
	Keys  []SortKey
}

// Limit skips Offset rows then returns at most Count (Count < 0: no limit).
type Limit struct {
	Input  Plan
	Offset int64
	Count  int64
}

// Distinct removes duplicate rows (NULLs equal each other).
type Distinct struct{ Input Plan }

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

const (
	SetUnion SetOpKind = iota + 1
	SetIntersect
	SetExcept
)

// SetOp combines two inputs of the same arity; column types are already cast
// to common types by Project nodes under it. Without All the result is
// distinct; with All, bag semantics (UNION ALL concatenates).
type SetOp struct {
	Kind        SetOpKind
	All         bool
	Left, Right Plan
	Out         Schema
}

// Values is a constant relation (INSERT ... VALUES, SELECT without FROM).
type Values struct {
	Rows [][]Expr
	Out  Schema
}

func (p *Scan) Schema() Schema      { return p.Out }
func (p *Filter) Schema() Schema    { return p.Input.Schema() }
func (p *Project) Schema() Schema   { return p.Out }
func (p *Join) Schema() Schema      { return p.Out }
func (p *Aggregate) Schema() Schema { return p.Out }
func (p *Sort) Schema() Schema      { return p.Input.Schema() }
func (p *Limit) Schema() Schema     { return p.Input.Schema() }
func (p *Distinct) Schema() Schema  { return p.Input.Schema() }
func (p *SetOp) Schema() Schema     { return p.Out }
func (p *Values) Schema() Schema    { return p.Out }

func (p *Scan) Children() []Plan      { return nil }
func (p *Filter) Children() []Plan    { return []Plan{p.Input} }
func (p *Project) Children() []Plan   { return []Plan{p.Input} }
func (p *Join) Children() []Plan      { return []Plan{p.Left, p.Right} }
func (p *Aggregate) Children() []Plan { return []Plan{p.Input} }
func (p *Sort) Children() []Plan      { return []Plan{p.Input} }
func (p *Limit) Children() []Plan     { return []Plan{p.Input} }
func (p *Distinct) Children() []Plan  { return []Plan{p.Input} }
func (p *SetOp) Children() []Plan     { return []Plan{p.Left, p.Right} }
func (p *Values) Children() []Plan    { return nil }

// keepsColumns is the input of p when p passes its input's columns on in
// place, each row's values unchanged (a filter, sort, limit or DISTINCT),
// so that a walk from a result column down to its source can step past it.
func keepsColumns(p Plan) (Plan, bool) {
	switch n := p.(type) {
	case *Filter:
		return n.Input, true
	case *Sort:
		return n.Input, true
	case *Limit:
		return n.Input, true
	case *Distinct:
		return n.Input, true
	}
	return nil, false
}
