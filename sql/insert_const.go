package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gpusql/storage/columnar"
)

// constStore is where INSERT ... VALUES stores a constant: the table's
// column col, the 1-based row, the constant's position in the text, and
// whether the write is lenient (sql_mode without strict mode, or IGNORE;
// nullToDefault: a NULL into NOT NULL takes the implicit default, as in a
// multiple-row INSERT or under IGNORE).
type constStore struct {
	table                  *columnar.Table
	col                    Column
	row, pos               int
	lenient, nullToDefault bool
}

// storeConst is constant c as column st.col stores it: converted and
// checked as MySQL's strict mode checks it (an error naming column and
// row), or, for a lenient write, adjusted with its warning appended to
// notes (insert_lenient.go).
func (b *binder) storeConst(c *Const, st constStore, notes *[]Warning) (Expr, error) {
	col, r, pos := st.col, st.row, st.pos
	c = integerStoreText(enumIndexConst(c, col.Type), col.Type)
	var err error
	if st.lenient && (c.Null && !col.Nullable && st.nullToDefault || numberConst(c, col.Type) && storeOutOfRange(c, col.Type)) {
		if v, w, ok := b.adjustConst(c, col, strconv.Itoa(r)); ok {
			*notes = append(*notes, w)
			return v, nil
		}
	}
	if c.Null && !col.Nullable {
		return nil, b.errCode(pos, ErBadNull, "Column '%s' cannot be null", col.Name)
	}
	if col.Type.JSON && !c.Null && c.T.ID != columnar.String {
		return nil, b.errf(pos, "%s", jsonStoreError(st.table.Name, col.Name, r))
	}
	if err := vectorConstError(c, col.Type); err != nil {
		return nil, b.errf(pos, "%v for column '%s' at row %d", err, col.Name, r)
	}
	if storeOutOfRange(c, col.Type) && numberConst(c, col.Type) {
		e := OutOfRangeStore(col.Type, col.Name, r, constString(c))
		err := b.errCode(pos, e.Code, "%s", e.Msg)
		err.Detail = e.Detail
		return nil, err
	}
	v, ok := convertConst(c, col.Type)
	if ok && col.Type.ID == columnar.Datetime && c.T.ID == columnar.String && columnar.HasZoneOffset(c.S) {
		// An instant written with its offset: stored as the session's wall clock (MySQL 8.0.19).
		v.I = b.zone().FromUTC(v.I)
	}
	if col.Type.ID == columnar.Datetime && !v.Null && (!ok || !col.Type.InDatetimeRange(b.storedDatetime(col.Type, v.I))) {
		return nil, b.errf(pos, "%s", incorrectDatetime(c, col.Name, r))
	}
	if col.Type.ID == columnar.Time && !ok && st.lenient && !c.Null {
		// Outside strict mode a time past +-838:59:59 is the limit, with
		// Field_temporal::set_warnings' 1264 (type_time.result); so is a
		// number, or 00:00:00 where its minutes or seconds are no time.
		us, clamped := LenientTime(c)
		if c.T.ID == columnar.String {
			us, clamped, _ = columnar.ParseTimeClamped(c.S, col.Type.Scale)
		}
		if clamped {
			*notes = append(*notes, Warning{Level: "Warning", Code: WarnOutOfRange, Message: fmt.Sprintf("Out of range value for column '%s' at row %d", col.Name, r)})
			return &Const{T: col.Type, I: us}, nil
		}
	}
	if col.Type.ID == columnar.Time && !ok {
		// MySQL's make_truncated_value_warning: 1292, also for one past
		// +-838:59:59.
		return nil, b.errCode(pos, ErTruncatedWrongValue, "%s", strings.Replace(incorrectDatetime(c, col.Name, r), "datetime", "time", 1))
	}
	if !ok || !strictOK(c, v) || storeOutOfRange(c, col.Type) {
		if adj, w, ok := b.adjustConst(c, col, strconv.Itoa(r)); st.lenient && ok {
			*notes = append(*notes, w)
			return adj, nil
		}
		return nil, b.incorrectValue(pos, c, col, r)
	}
	if col.Type.ID == columnar.String && !v.Null {
		if v.S, err = col.Type.FitString(v.S); err != nil {
			if adj, w, ok := b.adjustConst(c, col, strconv.Itoa(r)); st.lenient && ok && (err.(*columnar.StringError).TooLong || col.Type.Members != "") {
				*notes = append(*notes, w)
				return adj, nil
			}
			return nil, b.stringStoreError(pos, err.(*columnar.StringError), st.table.Name, col.Name, r)
		}
	}
	if decimalRounded(c, v) {
		*notes = append(*notes, dataTruncated(col.Name, r))
	}
	return v, nil
}

// numberConst reports a constant stored into t as a number: not a string,
// or a bit or hexadecimal literal into BIT, whose bytes are its value
// (b'11111' into BIT(4) is out of range, as 31 is).
func numberConst(c *Const, t columnar.Type) bool {
	return c.T.ID != columnar.String || c.hex && t.Bit > 0
}

// enumIndexConst is c, a DECIMAL or DOUBLE constant stored into ENUM or
// SET t, as its integer part: MySQL's Field_enum::store(double) stores
// (longlong) nr, an index or bitmask as an integer is (2.0 is 'b'), where
// its digits ('2.0') would be no member. Other constants come back as is.
func enumIndexConst(c *Const, t columnar.Type) *Const {
	if t.Members == "" || c.Null || c.T.IsWide() {
		return c
	}
	switch c.T.ID {
	case columnar.Decimal:
		return &Const{T: columnar.TInt64, I: c.I / columnar.Pow10[c.T.Scale]}
	case columnar.Float64:
		if math.Abs(c.F) < 9.2e18 {
			return &Const{T: columnar.TInt64, I: int64(c.F)}
		}
	}
	return c
}
