package sql

import "gpusql/storage/columnar"

// textResult is the type of a string function's result over args. MySQL
// aggregates the arguments' character sets (Item_str_func's
// agg_arg_charsets_for_string_result) and binary wins over any text: so
// CONCAT(v, 'x') over a VARBINARY v is a binary string, whose CHARSET is
// binary, whose CHAR_LENGTH counts bytes, which UPPER and LOWER leave
// alone, and which SUBSTRING, LEFT, RIGHT and REVERSE cut by bytes (the
// executor reads the Binary flag of its argument's type). The result
// carries no width: it is as long as the function makes it.
func textResult(args ...Expr) columnar.Type {
	for _, a := range args {
		if t := a.Type(); t.ID == columnar.String && t.Binary && !t.JSON {
			return columnar.Type{ID: columnar.String, Binary: true}
		}
	}
	return columnar.TString
}
