package engine

import (
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// convertDatetimeInto is convertInto where either side is a DATETIME: the
// values convert as the binder's casts do (a DATE is its midnight, a
// DATETIME into DATE keeps the date, fsp rounds, numbers read as
// YYYYMMDDHHMMSS), and a DATETIME or TIMESTAMP column takes only values in
// its range (MySQL's strict mode: INSERT ... SELECT and UPDATE results
// such as DATE_ADD(ts, INTERVAL 2000 YEAR) fail, naming the row).
func convertDatetimeInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	t, st := out.Type, src.Type
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		var iv int64
		var fv float64
		switch st.Physical() {
		case columnar.PhysFloat64:
			fv = src.F64[i]
		case columnar.PhysInt64:
			iv = src.I64[i]
		default:
			iv = int64(src.I32[i])
		}
		ok := true
		if st.ID != t.ID || st.Scale != t.Scale {
			iv, fv, ok = sql.ConvertDatetimeValue(iv, fv, st, t)
		}
		if !ok || t.ID == columnar.Datetime && !t.InDatetimeRange(iv) {
			return &rowError{row: i, value: exec.FormatValue(src, i), typ: t}
		}
		switch t.Physical() {
		case columnar.PhysFloat64:
			out.F64[m+i] = fv
		case columnar.PhysInt64:
			out.I64[m+i] = iv
		default:
			out.I32[m+i] = int32(iv)
		}
	}
	return nil
}

// parseDatetimesInto stores strings into a DATETIME or TIMESTAMP column,
// parsing each as MySQL does (rounded to the column's fsp); a string that
// is not a datetime, or lies outside the column's range, fails the
// statement (strict mode), naming it and its row.
func parseDatetimesInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	t := out.Type
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		s := src.StringAt(i)
		us, ok := columnar.ParseDatetime(s, t.Scale)
		if !ok || !t.InDatetimeRange(us) {
			return &rowError{row: i, value: s, typ: t}
		}
		out.I64[m+i] = us
	}
	return nil
}

// parseDatesInto is parseDatetimesInto for a DATE column (days since
// 1970-01-01), reading text as the binder reads a DATE constant.
func parseDatesInto(out *columnar.Column, m int, src *columnar.Column, n int) error {
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		s := src.StringAt(i)
		d, ok := sql.ParseDate(s)
		if !ok {
			return &rowError{row: i, value: s, typ: out.Type}
		}
		out.I32[m+i] = d
	}
	return nil
}

// touchColumns sets the ON UPDATE CURRENT_TIMESTAMP columns touch (of
// UPDATE or ON DUPLICATE KEY UPDATE) to the statement's clock now (in the
// session zone z, stored as UTC in a TIMESTAMP column) in the
// rows the update changed (diff), as MySQL does; rows whose values stay as
// they were keep their timestamps. It reads old's columns and writes t's.
func touchColumns(t, old *columnar.Table, ids []int, diff []bool, touch []int, now0 int64, z *sql.TimeZone) error {
	for _, k := range touch {
		f := old.Fields[k]
		now := nowFor(f, columnar.RoundDatetime(now0, f.Type.Scale), z)
		if !f.Type.InDatetimeRange(now) {
			return &rowError{row: 0, value: columnar.FormatDatetime(now, f.Type.Scale), typ: f.Type, column: f.Name}
		}
		src := columnar.NewColumn(f.Type, len(ids), true)
		for i, id := range ids {
			switch {
			case diff[i]:
				src.I64[i] = now
			case old.Columns[k].IsNull(id):
				continue
			default:
				src.I64[i] = old.Columns[k].I64[id]
			}
			src.SetValid(i)
		}
		var err error
		if t.Columns[k], err = setColumn(old.Columns[k], ids, src, f, make([]bool, len(ids))); err != nil {
			return err
		}
	}
	return nil
}
