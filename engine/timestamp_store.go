package engine

import (
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// TIMESTAMP columns store UTC (sql/time_zone.go). Statements compute the
// values they store in the session time zone, so every store into a
// TIMESTAMP column converts here: INSERT (VALUES, SELECT, ON DUPLICATE KEY
// UPDATE), CREATE TABLE ... AS, UPDATE, ON UPDATE CURRENT_TIMESTAMP and
// LOAD DATA. ALTER TABLE copies stored values as they are. The range is
// checked on the UTC value ('2038-01-19 05:14:07' fits under '+02:00'),
// the error naming the value as written.

// zone is the session's time zone.
func (db *DB) zone() *sql.TimeZone {
	if z := db.session.TimeZone(); z != nil {
		return z
	}
	return sql.UTCZone
}

// timestampsToUTC returns res with the columns bound for TIMESTAMP fields
// (result column i goes to fields[targets[i]]) converted to UTC.
func (db *DB) timestampsToUTC(res *exec.Result, fields []columnar.Field, targets []int) (*exec.Result, error) {
	z := db.zone()
	if z.IsUTC() {
		return res, nil
	}
	out := *res
	out.Columns = append([]*columnar.Column(nil), res.Columns...)
	for i, k := range targets {
		if i >= len(res.Columns) || k < 0 || k >= len(fields) || !fields[k].Type.Timestamp {
			continue
		}
		c, err := timestampColumnToUTC(res.Columns[i], res.Rows, fields[k], z)
		if err != nil {
			return nil, err
		}
		out.Columns[i] = c
	}
	return &out, nil
}

// timestampColumnToUTC converts n session-zone values of src, bound for
// the TIMESTAMP field f, into a column of f's type holding their UTC
// instants. Values that are not DATETIMEs convert as a DATETIME column
// would take them (strings parsed, numbers read as YYYYMMDDhhmmss).
func timestampColumnToUTC(src *columnar.Column, n int, f columnar.Field, z *sql.TimeZone) (*columnar.Column, error) {
	local := columnar.TDatetime(f.Type.Scale)
	if src.Type.ID != columnar.Datetime || src.Type.Scale != f.Type.Scale {
		var err error
		if src, err = appendColumn(columnar.NewColumn(local, 0, false), 0, src, n, local, "", f.Name); err != nil {
			return nil, err
		}
	}
	out := columnar.NewColumn(f.Type, n, src.HasNulls())
	for i := 0; i < n; i++ {
		if src.IsNull(i) {
			continue
		}
		if src.HasNulls() {
			out.SetValid(i)
		}
		u := z.ToUTC(src.I64[i])
		if !f.Type.InDatetimeRange(u) {
			return nil, &rowError{row: i, value: columnar.FormatDatetime(src.I64[i], f.Type.Scale), typ: f.Type, column: f.Name}
		}
		out.I64[i] = u
	}
	return out, nil
}

// storedValues is src as a column of field f stores it: converted to UTC
// for a TIMESTAMP column (UPDATE's and ON DUPLICATE KEY UPDATE's values).
func storedValues(src *columnar.Column, n int, f columnar.Field, z *sql.TimeZone) (*columnar.Column, error) {
	if !f.Type.Timestamp || z.IsUTC() {
		return src, nil
	}
	return timestampColumnToUTC(src, n, f, z)
}

// nowFor is the statement clock now (session zone) as field f stores it:
// UTC in a TIMESTAMP column.
func nowFor(f columnar.Field, now int64, z *sql.TimeZone) int64 {
	if f.Type.Timestamp {
		return z.ToUTC(now)
	}
	return now
}

// loadedTimestampsToUTC converts the rows LOAD DATA appended to t (from
// row first on) in its TIMESTAMP columns, which the loader read as
// written, in the session zone.
func (db *DB) loadedTimestampsToUTC(t *columnar.Table, first int) (*columnar.Table, error) {
	z := db.zone()
	if z.IsUTC() || t.Rows == first {
		return t, nil
	}
	var next *columnar.Table
	for k, f := range t.Fields {
		if !f.Type.Timestamp {
			continue
		}
		if next == nil {
			next = &columnar.Table{Name: t.Name, Fields: t.Fields, Rows: t.Rows, Columns: append([]*columnar.Column(nil), t.Columns...)}
		}
		old := t.Columns[k]
		c := columnar.NewColumn(f.Type, t.Rows, old.HasNulls())
		copy(c.I64, old.I64[:first])
		for i := 0; i < t.Rows; i++ {
			if old.IsNull(i) {
				continue
			}
			if old.HasNulls() {
				c.SetValid(i)
			}
			if i < first {
				continue
			}
			u := z.ToUTC(old.I64[i])
			if !f.Type.InDatetimeRange(u) {
				return nil, &rowError{row: i - first, value: columnar.FormatDatetime(old.I64[i], f.Type.Scale), typ: f.Type, column: f.Name}
			}
			c.I64[i] = u
		}
		next.Columns[k] = c
	}
	if next == nil {
		return t, nil
	}
	columnar.ComputeStats(next)
	return next, nil
}
