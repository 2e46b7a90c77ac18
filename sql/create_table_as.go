package sql

// sourceNotNull marks the columns of a CREATE TABLE ... AS SELECT that
// are a plain reference to a NOT NULL column: MySQL 8 copies such a
// column's definition, so `CREATE TABLE b AS SELECT id FROM a` makes
// `id int NOT NULL` when a.id is. Other expressions stay nullable here:
// MySQL makes a non-nullable expression NOT NULL with an implicit
// DEFAULT (0, or the empty string), which gpusql does not reproduce, and a nullable
// column accepts every row the query gives. The top projection is found
// below the ORDER BY, LIMIT and DISTINCT that keep its columns; a column
// of an outer join's inner side is nullable in the join's schema.
func sourceNotNull(p Plan) []bool {
	for {
		switch n := p.(type) {
		case *Sort:
			p = n.Input
			continue
		case *Limit:
			p = n.Input
			continue
		case *Distinct:
			p = n.Input
			continue
		case *Project:
			out := make([]bool, len(n.Exprs))
			for i, e := range n.Exprs {
				if c, ok := e.(*ColRef); ok {
					out[i] = !c.Col.Nullable
				}
			}
			return out
		}
		return nil
	}
}
