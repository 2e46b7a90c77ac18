package engine

import (
	"fmt"

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

// lenientTimes gives text past TIME's +-838:59:59 the limit, with 1264,
// as Field_temporal::set_warnings does outside strict mode; other text
// is left to the strict store.
func lenientTimes(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	return mapTexts(c, func(s string, i int) string {
		if us, clamped, _ := columnar.ParseTimeClamped(s, f.Type.Scale); clamped {
			warn(sql.WarnOutOfRange, i)
			return columnar.FormatTime(us, f.Type.Scale)
		}
		return s
	})
}

// mapTexts is c's text with each non-NULL value i replaced by fn's.
func mapTexts(c *columnar.Column, fn func(s string, i int) string) *columnar.Column {
	b := columnar.NewBuilder(c.Type)
	b.Reserve(c.Len)
	for i := 0; i < c.Len; i++ {
		if c.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.AppendString(fn(c.StringAt(i), i))
	}
	return b.Column()
}

// lenientTimeNumbers converts numbers (c) to TIME field f outside strict
// mode: one that is no TIME is the limit or 00:00:00 with 1264, as
// sql.LenientTime reads it. A value it cannot read so (a DATETIME's
// digits) leaves c to the strict store, which names it.
func lenientTimeNumbers(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	out := columnar.NewColumn(f.Type, c.Len, !f.Nullable || c.HasNulls())
	var adjusted []int
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		iv, fv, sv := rawValue(c, i)
		us, ok := sql.TimeValue(iv, fv, sv, c.Type, f.Type)
		if !ok {
			if us, ok = sql.LenientTime(&sql.Const{T: c.Type, I: iv, F: fv}); !ok {
				return c
			}
			adjusted = append(adjusted, i)
		}
		out.I64[i] = us
	}
	for _, i := range adjusted {
		warn(sql.WarnOutOfRange, i)
	}
	return out
}

// lenientYearTexts gives text a YEAR does not take as it is the year
// MySQL's non-strict store keeps, with its warning (sql.YearTextStore).
func lenientYearTexts(c *columnar.Column, warn func(code uint16, i int)) *columnar.Column {
	return mapTexts(c, func(s string, i int) string {
		if y, code := sql.YearTextStore(s); code != 0 {
			warn(code, i)
			return fmt.Sprintf("%04d", y)
		}
		return s
	})
}
