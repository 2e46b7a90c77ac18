package sql

import (
	"gpusql/internal/decimal"
	"gpusql/storage/columnar"
)

// Expr is a bound, typed scalar expression. Column references are positions
// in the schema of the operator's input (for a join: left columns, then right
// columns), so executors never resolve names.
type Expr interface {
	Type() columnar.Type
	String() string
}

// ColRef reads column Index of the input.
type ColRef struct {
	Index int
	Col   Column // name, type and dictionary of the referenced column
}

// Const is a literal. NULL has Null set (and the type it was coerced to).
// Values are in the physical domain of T: I for Int32/Int64/Date/Bool and
// Decimal (scaled), F for Float64, S for String.
type Const struct {
	T    columnar.Type
	Null bool
	I    int64
	F    float64
	S    string
	V    []float32   // VECTOR values
	W    decimal.Num // wide DECIMAL: the unscaled value (T.IsWide)
	// hex marks a hexadecimal or bit literal (x'41', 0x41, b'1000001'): a
	// binary string S that reads as the unsigned big-endian number of its
	// bytes, not of its text, in a numeric context (see hexLiteral).
	hex bool
	// written is 1 + the fraction digits a DECIMAL constant showed before
	// castTo widened its scale (0 where it did not): the digits MySQL
	// prints it with (shownScale).
	written int8
	// Collation is a user variable's: the collation of the string it was
	// SET to (COLLATION(@v) reports it), "" for any other value.
	Collation string
}

// BinOp is an arithmetic, comparison or logical operator.
type BinOp uint8

const (
	OpAdd BinOp = iota + 1
	OpSub
	OpMul
	OpDiv    // '/': decimal (or double) result, NULL on division by zero (MySQL)
	OpIntDiv // DIV: integer result, NULL on division by zero
	OpMod    // % and MOD
	OpEQ
	OpNE
	OpLT
	OpLE
	OpGT
	OpGE
	OpAnd // three-valued
	OpOr  // three-valued
)

// Binary applies Op to L and R. The binder casts both operands to a common
// type first for arithmetic and comparison (Cast nodes), so executors only
// see operands of equal physical type; T is the result type (Bool for
// comparisons and logic).
type Binary struct {
	Op   BinOp
	L, R Expr
	T    columnar.Type
	// Text is the operation as MySQL prints it in an out-of-range error
	// ('(`gpusql`.`t`.`a` + 1)'), from the SQL as written; "" where the
	// binder made the operation up.
	Text string
}

// Not is logical negation (three-valued).
type Not struct{ E Expr }

// Neg is arithmetic negation; Text is as Binary's.
type Neg struct {
	E    Expr
	Text string
}

// IsNull tests E IS NULL (or IS NOT NULL when Negated); never NULL itself.
type IsNull struct {
	E       Expr
	Negated bool
}

// InList is E [NOT] IN (List...) with SQL NULL semantics; List items are
// cast to E's type.
type InList struct {
	E       Expr
	List    []Expr
	Negated bool
}

// Like is E [NOT] LIKE Pattern with % and _ (escape '\').
type Like struct {
	E       Expr
	Pattern string
	Negated bool
}

// CodeSet is a predicate on a dictionary-encoded string column compiled once
// against its dictionary: row matches when Match[code] is true. The binder
// turns =, <>, <, <=, >, >=, BETWEEN, IN and LIKE on a column whose dictionary
// is known into CodeSet, so the executors test codes, never strings. NULL rows
// give NULL.
type CodeSet struct {
	E     *ColRef
	Match []bool
	// Desc is the original predicate, for EXPLAIN.
	Desc string
}

// When is one WHEN ... THEN ... arm.
type When struct{ Cond, Result Expr }

// Case is a searched CASE (simple CASE is rewritten to searched by the binder).
// Else is a NULL Const when absent.
type Case struct {
	Whens []When
	Else  Expr
	T     columnar.Type
}

// Cast converts E to T (MySQL semantics; string to number parses the prefix).
type Cast struct {
	E Expr
	T columnar.Type
	// Written marks a CAST the statement wrote, unlike one the binder put
	// in: to a DECIMAL, MySQL prints and divides by its scale
	// (CAST(x AS DECIMAL(10,2)) / 15 has scale 6; division_digits.go); to
	// SIGNED or UNSIGNED, a string keeps strtoll10's 64 bits
	// (CAST('99999999999999999999' AS SIGNED) is -1), where the binder's
	// cast for a store's range check clamps (exec/cpu/cast_integer_text.go).
	Written bool
	// Text is MySQL's printing of a CAST to FLOAT as written, for its 1690
	// past FLOAT's range: 'cast(-(3.5e38) as float)', a column as
	// `db`.`t`.`c` (overflow_text.go).
	Text string
}

// Func is a scalar function call by lower-case name: abs, coalesce, nullif,
// year, month, day, extract_<unit>, upper, lower, length, substring, concat,
// trim, round, floor, ceil, date_add... Args are already cast as the function
// needs.
type Func struct {
	Name string
	Args []Expr
	T    columnar.Type
	Text string // the call as MySQL prints it in an out-of-range error, as Binary's
}

// ScalarSubquery is an uncorrelated subquery returning at most one row and one
// column; executors run it once before the enclosing operator (an error if it
// returns more than one row, NULL if none). Correlated subqueries are
// decorrelated into joins by the binder or become NestedSubquery.
type ScalarSubquery struct {
	Plan Plan
	T    columnar.Type
}

// SubqueryMode says what a NestedSubquery computes from its rows.
type SubqueryMode uint8

const (
	// SubqueryScalar: the single value (NULL over no rows, an error over
	// more than one).
	SubqueryScalar SubqueryMode = iota + 1
	// SubqueryExists: whether there is a row (never NULL).
	SubqueryExists
	// SubqueryAny: LHS Op ANY (rows), three-valued; x IN (...) is = ANY and
	// NOT IN is NOT (= ANY).
	SubqueryAny
	// SubqueryAll: LHS Op ALL (rows), three-valued.
	SubqueryAll
)

// NestedSubquery is a subquery evaluated for the rows of the operator whose
// expression holds it, the general form the binder falls back to where a
// subquery is not decorrelated into a join: correlation through any
// predicate or depth, and IN / EXISTS / ANY / ALL used as values. Args are
// expressions over the operator's input; Plan reads Args[i] through its
// Param leaves with ID Params[i]. Executors evaluate Plan once per distinct
// tuple of Args values (once in all when there are none).
type NestedSubquery struct {
	Plan   Plan
	Params []int
	Args   []Expr
	Mode   SubqueryMode
	// Op and LHS are the comparison of ANY / ALL: each LHS item against
	// the column of the same position in Plan's rows, cast to a common
	// type. Several LHS items (row IN) compare with = or <> only.
	Op  BinOp
	LHS []Expr
	T   columnar.Type
}

// Param is the value of an enclosing query's expression inside a
// NestedSubquery's plan: a constant for each evaluation of that plan. IDs
// are unique within a statement, so a plan nested several levels deep reads
// the parameters of every level without renaming.
type Param struct {
	ID int
	T  columnar.Type
}

func (e *ColRef) Type() columnar.Type         { return e.Col.Type }
func (e *Const) Type() columnar.Type          { return e.T }
func (e *Binary) Type() columnar.Type         { return e.T }
func (e *Not) Type() columnar.Type            { return columnar.TBool }
func (e *Neg) Type() columnar.Type            { return e.E.Type() }
func (e *IsNull) Type() columnar.Type         { return columnar.TBool }
func (e *InList) Type() columnar.Type         { return columnar.TBool }
func (e *Like) Type() columnar.Type           { return columnar.TBool }
func (e *CodeSet) Type() columnar.Type        { return columnar.TBool }
func (e *Case) Type() columnar.Type           { return e.T }
func (e *Cast) Type() columnar.Type           { return e.T }
func (e *Func) Type() columnar.Type           { return e.T }
func (e *ScalarSubquery) Type() columnar.Type { return e.T }
func (e *NestedSubquery) Type() columnar.Type { return e.T }
func (e *Param) Type() columnar.Type          { return e.T }

// AggFunc is an aggregate function.
type AggFunc uint8

const (
	AggCountStar AggFunc = iota + 1
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
	// The statistical, bitwise and string aggregates of aggregates_more.go.
	AggVarPop
	AggVarSamp
	AggStddevPop
	AggStddevSamp
	AggBitAnd
	AggBitOr
	AggBitXor
	AggGroupConcat
	// JSON_ARRAYAGG(v) and JSON_OBJECTAGG(k, v) (sql/json_agg.go).
	AggJSONArrayAgg
	AggJSONObjectAgg
)

// AggExpr is one aggregate of an Aggregate node. Result types follow MySQL:
// COUNT → BIGINT; SUM of integers → DECIMAL(38,0) is approximated as BIGINT
// (64-bit), SUM of DECIMAL(p,s) → DECIMAL(38,s), SUM of DOUBLE → DOUBLE;
// AVG of integers/decimals → DECIMAL(38, s+4), of DOUBLE → DOUBLE; MIN/MAX keep
// the argument type.
type AggExpr struct {
	Func     AggFunc
	Arg      Expr // nil for COUNT(*)
	Distinct bool
	T        columnar.Type
	// GROUP_CONCAT only: the ORDER BY inside the call (over the
	// pre-aggregation input, like Arg) and the SEPARATOR.
	Order  []SortKey
	Sep    string
	MaxLen int64 // @@group_concat_max_len when bound
}

// Exprs are the expressions an aggregate reads: Arg and its ORDER BY keys.
func (a *AggExpr) Exprs() []*Expr {
	var out []*Expr
	if a.Arg != nil {
		out = append(out, &a.Arg)
	}
	for i := range a.Order {
		out = append(out, &a.Order[i].Expr)
	}
	return out
}

// CopyOrder gives a its own ORDER BY slice, so rewriting a copy's keys
// leaves the original's alone.
func (a *AggExpr) CopyOrder() { a.Order = append([]SortKey(nil), a.Order...) }
