package engine

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// lenientYears converts numbers (c) to YEAR field f outside strict mode: a
// number no YEAR holds (3000, -1) is stored as 0000 with 1264, as MySQL's
// Field_year::store does, where strict mode fails the statement.
// Text is left to the strict store.
func lenientYears(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	out := columnar.NewColumn(f.Type, c.Len, !f.Nullable || c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		y, ok := yearOf(c, i)
		if !ok {
			y = 0
			warn(sql.WarnOutOfRange, i)
		}
		out.I32[i] = y
	}
	return out
}

// yearNumber reports a number source lenientYears converts.
func yearNumber(t columnar.Type) bool {
	return !t.Year && (t.IsInteger() || t.ID == columnar.Decimal || t.ID == columnar.Float64)
}
