package sql

import (
	"unicode/utf8"

	"gpusql/storage/columnar"
)

// anchorWidth is the character length MySQL gives a recursive WITH
// query's string column from its anchor's expression e: a literal's own
// length ('abc' is VARCHAR(3)), a column's or CAST(... AS CHAR(n))'s
// declared one, CONCAT's the sum of its arguments', an integer's
// display width, LEFT's and SUBSTRING's what they keep. 0 where it is not
// one of those: the column is then unbounded, as gpusql's strings are.
func anchorWidth(e Expr) int {
	if w := e.Type().Width; w > 0 && e.Type().ID == columnar.String {
		return w
	}
	if w := numberWidth(e); w > 0 {
		return w
	}
	switch x := e.(type) {
	case *Const:
		if !x.Null && x.T.ID == columnar.String {
			return utf8.RuneCountInString(x.S)
		}
	case *Cast:
		if x.T.ID == columnar.String && !x.T.JSON {
			return anchorWidth(x.E) // CAST(a AS CHAR): a's length
		}
	case *Func:
		if w, ok := cutWidth(x); ok {
			return w
		}
		switch x.Name {
		case "upper", "lower", "trim", "ltrim", "rtrim":
			// utf8mb4's case mappings keep the length (caseup_multiply 1);
			// a trim only removes characters.
			if len(x.Args) > 0 {
				return anchorWidth(x.Args[0])
			}
			return 0
		case "concat":
		default:
			return 0
		}
		sum := 0
		for _, a := range x.Args {
			w := anchorWidth(a)
			if w == 0 {
				return 0
			}
			sum += w
		}
		return sum
	}
	return 0
}
