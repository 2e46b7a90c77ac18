// Package sql turns SQL text into bound, typed logical plans.
//
// Parse (parse.go) splits a script into statements with the TiDB parser
// (MySQL dialect) and records where each starts; syntax errors are *Error at
// the offending token. Bind (bind.go) resolves names against the catalog,
// types every expression and builds the plan of one statement, one file per
// clause or statement: from.go (FROM, joins, CTEs), select.go (a SELECT
// block: WHERE, select list, ORDER BY, LIMIT), aggregates.go (GROUP BY,
// aggregates, HAVING), subquery.go (decorrelation), set_op.go (UNION,
// INTERSECT, EXCEPT), expr_bind.go and functions.go (expressions), coerce.go
// (type rules and constant folding), codeset.go (dictionary predicates),
// ddl.go, insert.go, load.go (other statements). The plan and statement types
// themselves are the contracts in expr.go, logical.go and statement.go.
//
// What the planner can rely on:
//
//   - Every column reference is a ColRef by position in the input schema
//     (left ++ right for joins). Binary operands have equal types, except
//     Decimal * and / (see coerce.go). Comparisons and IN lists are typed;
//     string constants compared with dictionary columns are CodeSets.
//   - FROM a, b, c is Join{Cross}(Join{Cross}(a, b), c) in FROM order with
//     one Filter over it holding the whole WHERE (IN/EXISTS conjuncts become
//     Semi/Anti joins between the Filter and the cross joins). JOIN ... ON /
//     USING is Join{Inner|Left} with the condition in Residual and no keys.
//     Joins made by decorrelation (subquery.go) do fill LeftKeys/RightKeys
//     with the equalities and keep the rest in Residual; for a NullAware
//     anti join the keys are exactly the NOT IN pairs and the Residual must
//     not be turned into keys.
//   - Scan reads every column of the table; pruning is the planner's job.
//   - Column.Dict is set exactly on string columns that carry codes of that
//     dictionary (base-table columns passed through Filter, Join, a
//     Project of a ColRef, or an Aggregate group column that is a ColRef).
//   - A SELECT without FROM reads Values{Rows: [[]]}: one row, no columns.
//   - SELECT block shape: Project → [Distinct] → [Sort] → [Limit]; Sort keys
//     are ColRefs over the Project (ORDER BY expressions that are not select
//     columns are extra Project columns removed by a Project on top).
//     Aggregated blocks: Aggregate(GroupBy, Aggs) → [Filter HAVING] → ...
//
// What the executors must implement beyond the operators:
//
//   - Functions: exactly the table in functions.go.
//   - Cast (Cast.E's type → Cast.T), MySQL semantics: between numeric types
//     (to integers and decimals rounding half away from zero; decimal scale
//     changes rescale with rounding); numbers and dates to VARCHAR (dates as
//     'YYYY-MM-DD', decimals with their scale, doubles as %g); VARCHAR to
//     numbers by the longest numeric prefix (0 when there is none; see
//     parseFloatPrefix / ParseDecimal); VARCHAR to DATE by ParseDate (NULL
//     when invalid); DATE to integers/decimals/doubles as YYYYMMDD; integers
//     to DATE by reading YYYYMMDD (NULL when invalid); BOOLEAN is an INT 0/1.
//   - String comparisons (=, <, LIKE...) compare values in binary order;
//     two String operands may carry different dictionaries, so only codes
//     of the same Dict pointer may be compared directly.
//   - NULL: arithmetic, comparison and function results are NULL when an
//     operand is (except coalesce, IS NULL, CASE, AND/OR three-valued);
//     '/', DIV and % by zero give NULL.
//   - ScalarSubquery: run once; more than one row is an error, none NULL.
package sql
