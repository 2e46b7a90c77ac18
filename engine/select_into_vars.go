package engine

import (
	"context"

	"gpusql/sql"
)

// selectIntoVars runs SELECT ... INTO @a, @b: the query's one row goes
// into the variables. More than one row is MySQL's error 1172 and leaves
// them alone; no row leaves them alone too, with MySQL's warning 1329 as
// the statement's message (gpusql keeps no warning list).
func (db *DB) selectIntoVars(ctx context.Context, s *sql.SelectIntoVars) (*StatementResult, error) {
	res, _, err := db.query(ctx, s.Query)
	if err != nil {
		return nil, err
	}
	switch res.Rows {
	case 0:
		return message("0 rows selected; warning 1329: No data - zero rows fetched, selected, or processed"), nil
	case 1:
	default:
		return nil, sql.Errorf(sql.ErTooManyRows, "Result consisted of more than one row")
	}
	for i, name := range s.Names {
		s.Vars.Set(name, cellConst(res.Columns[i], 0))
	}
	return message("1 row selected into %d %s", len(s.Names), plural(len(s.Names), "variable")), nil
}
