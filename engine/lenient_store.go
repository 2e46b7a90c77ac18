package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"unicode/utf8"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Outside strict mode, and under INSERT IGNORE / UPDATE IGNORE, MySQL
// stores a computed value a column cannot hold adjusted, with a warning,
// where strict mode fails the statement ("Out-of-Range and Overflow
// Handling", "Strict SQL Mode"): a number past an integer or DECIMAL
// column's range becomes the nearest end of it (1264), a string longer
// than a VARCHAR(n) / CHAR(n) is cut (1265), and a NULL into a NOT NULL
// column of an INSERT ... SELECT or UPDATE is the type's implicit default,
// 0 or '' (1048). lenientValues does that to the values of INSERT ...
// SELECT and UPDATE before they are stored; what is left over is then
// stored as in strict mode. (INSERT ... VALUES constants are adjusted by
// the binder, sql/insert_lenient.go.)

// lenientWrites reports whether a write adjusts values instead of failing.
func (db *DB) lenientWrites(ignore bool) bool { return ignore || !db.session.Strict() }

// lenientValues returns cols with every value field f cannot hold
// adjusted, noting each adjustment; row(i) is the 1-based row MySQL names
// for value i. The warnings come row by row, each row's in column order,
// as MySQL stores a row's values one after the other.
func lenientValues(ctx context.Context, cols []*columnar.Column, fields []columnar.Field, row func(i int) int, notes []adjustment, strict bool) []*columnar.Column {
	return lenientValuesAs(ctx, cols, fields, row, notes, sql.WarnBadNull, strict)
}

// lenientValuesAs is lenientValues noting a NULL made its column's
// implicit default as nullCode: INSERT's 1048, or ALTER TABLE's 1265 Data
// truncated for column 'c' at row 2 (MySQL copies a table's rows through
// the conversions of a non-strict store).
func lenientValuesAs(ctx context.Context, cols []*columnar.Column, fields []columnar.Field, row func(i int) int, notes []adjustment, nullCode uint16, strict bool) []*columnar.Column {
	out := make([]*columnar.Column, len(cols))
	for k, c := range cols {
		f := fields[k]
		out[k] = lenientColumn(c, f, func(code uint16, i int) {
			if code == sql.WarnBadNull {
				code = nullCode
			}
			if code == sql.WarnOutOfRange && f.Type.Bit > 0 && strict {
				code = sql.ErDataTooLong // Field_bit::store under is_strict_mode (IGNORE)
			}
			msg := map[uint16]string{
				sql.WarnBadNull:        fmt.Sprintf("Column '%s' cannot be null", f.Name),
				sql.WarnOutOfRange:     fmt.Sprintf("Out of range value for column '%s' at row %d", f.Name, row(i)),
				sql.WarnDataTruncated:  fmt.Sprintf("Data truncated for column '%s' at row %d", f.Name, row(i)),
				sql.ErDataTooLong:      fmt.Sprintf("Data too long for column '%s' at row %d", f.Name, row(i)),
				sql.WarnIncorrectValue: fmt.Sprintf("Incorrect integer value: '%s' for column '%s' at row %d", srcString(c, i), f.Name, row(i)),
			}[code]
			notes = append(notes, adjustment{i, k, code, msg})
		})
	}
	sort.SliceStable(notes, func(a, b int) bool {
		return notes[a].row < notes[b].row || notes[a].row == notes[b].row && notes[a].column < notes[b].column
	})
	w := sql.WarningsFrom(ctx)
	for _, n := range notes {
		w.Add(n.code, n.msg)
	}
	return out
}

// adjustment is a value adjusted for its column: its row, its column
// among the values, and the warning.
type adjustment struct {
	row, column int
	code        uint16
	msg         string
}

func lenientColumn(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	if c == nil {
		return c
	}
	t := f.Type
	if c.Type.ID != t.ID && allNull(c) && !f.Nullable && (t.ID == columnar.String || numericStore(t)) {
		c = columnar.NewColumn(t, c.Len, true) // NULL constants: the type's, to take its default
	}
	switch {
	case t.ID == columnar.String && c.Type.ID == columnar.String && t.Members == "" && !t.JSON:
		return lenientStrings(c, f, warn)
	case t.Members != "" && (c.Type.ID == columnar.String || numericStore(c.Type)):
		return lenientEnums(c, t, warn)
	case t.RoundsStore() && numericStore(c.Type):
		return lenientFloats(c, f, warn)
	case numericStore(t) && numericStore(c.Type):
		return lenientNumbers(c, f, warn)
	case c.Type.IsWide() && (numericStore(t) && t.ID != columnar.Float64 || t.IsBigUnsigned()):
		return lenientWide(c, f, warn)
	case t.IsWide() && (numericStore(c.Type) || c.Type.IsWide() || c.Type.IsBigUnsigned()):
		return lenientIntoWide(c, f, warn)
	case t.ID == columnar.Time && c.Type.ID == columnar.String && c.Type.Members == "" && !c.Type.JSON:
		return lenientTimes(c, f, warn)
	case t.ID == columnar.Time && numericStore(c.Type):
		return lenientTimeNumbers(c, f, warn)
	case t.Year && c.Type.ID == columnar.String && !c.Type.JSON:
		return lenientYearTexts(c, warn)
	case t.Year && yearNumber(c.Type):
		return lenientYears(c, f, warn)
	case t.IsBigUnsigned() && (numericStore(c.Type) || t.Bit > 0 && c.Type.IsBigUnsigned()):
		return lenientBigUnsigned(c, f, warn)
	case t.ID == columnar.Date && c.Type.ID == columnar.String && f.Nullable:
		return lenientDates(c, f, warn)
	}
	return c
}

// lenientDates parses text into DATE f as MySQL's non-strict store does:
// text that is no date is its 1265 Data truncated for column 'd' at row
// n (Field_temporal::set_warnings), where MySQL stores '0000-00-00'
// and gpusql, which has no zero date, NULL. Into a NOT NULL column the
// text stays, to fail as in strict mode.
func lenientDates(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	out := columnar.NewColumn(f.Type, c.Len, true)
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		d, ok := sql.ParseDate(c.StringAt(i))
		if !ok {
			out.SetNull(i)
			warn(sql.WarnDataTruncated, i)
			continue
		}
		out.I32[i] = d
	}
	return out
}

// lenientBigUnsigned converts c to BIGINT UNSIGNED f, whose range no
// int64 bounds: a negative value is clipped to 0 and a DOUBLE past
// 2^64 - 1 to that, each with 1264, as MySQL's UPDATE IGNORE stores them
// (a DOUBLE's tie to even first, rint: -0.5e0 is 0 without a warning).
func lenientBigUnsigned(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	out := columnar.NewColumn(f.Type, c.Len, !f.Nullable || c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		u, clipped := bigUnsignedAt(c, i, f.Type)
		if b, bit := sql.ClipBit(f.Type, clipped && u == 0, u); bit {
			u, clipped = b, true
		}
		if clipped {
			warn(sql.WarnOutOfRange, i)
		}
		out.I64[i] = int64(u)
	}
	return out
}

// bigUnsignedAt is value i of c as BIGINT UNSIGNED t stores it, and
// whether it was clipped (to 0 when negative).
func bigUnsignedAt(c *columnar.Column, i int, t columnar.Type) (uint64, bool) {
	if c.Type.Physical() == columnar.PhysFloat64 {
		switch r := math.RoundToEven(c.F64[i]); {
		case r < 0 || math.IsNaN(r):
			return 0, true
		case r >= math.MaxUint64: // 2^64 as a float64
			return math.MaxUint64, true
		default:
			return uint64(r), false
		}
	}
	if c.Type.IsBigUnsigned() {
		return uint64(c.I64[i]), false
	}
	if v, _ := asScaled(c, i, t); v >= 0 {
		return uint64(v), false
	}
	return 0, true
}

// lenientValid marks row i of out valid unless c's is NULL in a nullable
// column; a NULL into NOT NULL becomes the implicit default 0, with 1048.
// It reports whether the row has a value to convert.
func lenientValid(c, out *columnar.Column, f columnar.Field, warn func(code uint16, i int), i int) bool {
	if c.IsNull(i) {
		if !f.Nullable {
			warn(sql.WarnBadNull, i)
			out.SetValid(i)
		}
		return false
	}
	if out.Valid != nil {
		out.SetValid(i)
	}
	return true
}

// numericStore reports the types lenientNumbers adjusts: integers and
// DECIMALs of int64 width, DOUBLE as a source.
func numericStore(t columnar.Type) bool {
	switch {
	case t.Year || t.IsWide() || t.IsBigUnsigned() || t.ID == columnar.Bool:
		return false
	case t.ID == columnar.Int32, t.ID == columnar.Int64, t.ID == columnar.Decimal, t.ID == columnar.Float64:
		return true
	}
	return false
}

// storeBounds is the scaled range t holds.
func storeBounds(t columnar.Type) (lo, hi int64, ok bool) {
	switch {
	case t.ID == columnar.Decimal && t.Precision > 0 && t.Precision < 19:
		p := columnar.Pow10[t.Precision]
		return -p + 1, p - 1, true
	case t.ID == columnar.Int64 && !t.Unsigned:
		return math.MinInt64, math.MaxInt64, true
	case t.ID == columnar.Float64:
		return 0, 0, false
	}
	return t.IntBounds()
}

// lenientNumbers converts c to f's type, clipping what is past its range.
func lenientNumbers(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	t := f.Type
	lo, hi, ok := storeBounds(t)
	if !ok {
		return c
	}
	out := columnar.NewColumn(t, c.Len, !f.Nullable || c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		v, err := asScaled(c, i, t)
		switch {
		case err != nil && asFloat(c, i) < 0, err == nil && v < lo:
			v = lo
			warn(sql.WarnOutOfRange, i)
		case err != nil, v > hi:
			v = hi
			warn(sql.WarnOutOfRange, i)
		}
		if t.Physical() == columnar.PhysInt32 {
			out.I32[i] = int32(v)
		} else {
			out.I64[i] = v
		}
	}
	return out
}

// lenientFloats converts c to FLOAT / (M,D) f, clipping what is past its
// range to the bound (sql.ClipFloat).
func lenientFloats(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	out := columnar.NewColumn(f.Type, c.Len, !f.Nullable || c.HasNulls())
	for i := 0; i < c.Len; i++ {
		if !lenientValid(c, out, f, warn, i) {
			continue
		}
		v, clipped := sql.ClipFloat(f.Type, asFloat(c, i))
		if clipped {
			warn(sql.WarnOutOfRange, i)
		}
		out.F64[i] = v
	}
	return out
}

// lenientStrings cuts the strings longer than f's width (and fills a NULL
// of a NOT NULL column with the empty string).
func lenientStrings(c *columnar.Column, f columnar.Field, warn func(code uint16, i int)) *columnar.Column {
	w := f.Type.Width
	needed := !f.Nullable && c.HasNulls()
	for i := 0; i < c.Len && !needed && w > 0; i++ {
		needed = !c.IsNull(i) && tooLong(c.StringAt(i), f.Type)
	}
	if !needed {
		return c
	}
	b := columnar.NewBuilder(c.Type)
	b.Reserve(c.Len)
	for i := 0; i < c.Len; i++ {
		switch {
		case c.IsNull(i) && f.Nullable:
			b.AppendNull()
		case c.IsNull(i):
			warn(sql.WarnBadNull, i)
			b.AppendString("")
		case w > 0 && tooLong(c.StringAt(i), f.Type):
			warn(sql.WarnDataTruncated, i)
			b.AppendString(cutTo(c.StringAt(i), f.Type))
		default:
			b.AppendString(c.StringAt(i))
		}
	}
	return b.Column()
}

// lenientEnums gives the values ENUM or SET t does not take what MySQL's
// non-strict store keeps (sql.LenientEnum), with 1265. The column it
// returns has type t, whose error value ” the store lets through.
func lenientEnums(c *columnar.Column, t columnar.Type, warn func(code uint16, i int)) *columnar.Column {
	b := columnar.NewBuilder(t)
	b.Reserve(c.Len)
	for i := 0; i < c.Len; i++ {
		if c.IsNull(i) {
			b.AppendNull()
			continue
		}
		s := enumSource(c, i, t)
		v, err := fitStored(t, c.Type, s)
		if err != nil {
			warn(sql.WarnDataTruncated, i)
			v = sql.LenientEnum(t, s, c.Type.ID != columnar.String)
		}
		b.AppendString(v)
	}
	return b.Column()
}

func tooLong(s string, t columnar.Type) bool {
	if t.Binary {
		return len(s) > t.Width
	}
	return utf8.RuneCountInString(s) > t.Width
}

func cutTo(s string, t columnar.Type) string {
	if t.Binary {
		return s[:t.Width]
	}
	return string([]rune(s)[:t.Width])
}

// lenientResult is lenientValues over an INSERT ... SELECT's result.
func (db *DB) lenientResult(ctx context.Context, res *exec.Result, fields []columnar.Field, targets []int, notes []adjustment) *exec.Result {
	fs := make([]columnar.Field, len(targets))
	for i, k := range targets {
		fs[i] = fields[k]
		// NULL into the AUTO_INCREMENT column asks for the next value,
		// no warning 1048 (the value is generated when stored).
		fs[i].Nullable = fs[i].Nullable || fs[i].AutoIncrement
	}
	out := *res
	out.Columns = lenientValues(ctx, res.Columns, fs, func(i int) int { return i + 1 }, notes, db.session.Strict())
	return &out
}

// lenientUpdate is lenientValues over an UPDATE's source: column 0 holds
// the row ids, column i+1 the new values of targets[i]; a row is named by
// its place in the table (ids), as UPDATE's errors name it. The SET
// constants the binder adjusted note their warning in every row.
func lenientUpdate(ctx context.Context, s *sql.Update, res *exec.Result, fields []columnar.Field, ids []int, notes []adjustment, strict bool) *exec.Result {
	targets := s.Targets
	fs := make([]columnar.Field, len(targets))
	for i, k := range targets {
		fs[i] = fields[k]
	}
	for _, sw := range s.StoreWarnings {
		k := slices.Index(targets, sw.Column)
		for i := range ids {
			notes = append(notes, adjustment{i, k, sw.Code, fmt.Sprintf(sw.Format, ids[i]+1)})
		}
	}
	out := *res
	vals := lenientValues(ctx, res.Columns[1:1+len(targets)], fs, func(i int) int { return ids[i] + 1 }, notes, strict)
	out.Columns = append(append([]*columnar.Column{res.Columns[0]}, vals...), res.Columns[1+len(targets):]...)
	return &out
}

func allNull(c *columnar.Column) bool {
	for i := 0; i < c.Len; i++ {
		if !c.IsNull(i) {
			return false
		}
	}
	return true
}
