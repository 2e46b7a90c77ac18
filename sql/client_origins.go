package sql

import (
	"gpusql/catalog"
	"gpusql/exec"
)

// ClientOrigins describes the result columns of q that are a table's
// column as it is, from the column's definition and the table's indexes
// (indexes looks them up by table name), as MySQL's field flags carry
// them (TABLE_SHARE's key setup): every column of the primary key
// (PrimaryIndex: or of the UNIQUE NOT NULL key standing for it) is
// PRI_KEY; the first column of another index is UNIQUE_KEY for a
// one-column UNIQUE index, else MULTIPLE_KEY; each column of any index
// is PART_KEY. SELECT id FROM t with id INT AUTO_INCREMENT PRIMARY KEY
// is NOT_NULL PRI_KEY AUTO_INCREMENT NUM PART_KEY in MySQL. A DATETIME or
// TIMESTAMP with DEFAULT or ON UPDATE CURRENT_TIMESTAMP is TIMESTAMP, the
// latter also ON_UPDATE_NOW (Field_temporal_with_date_and_time's
// init_timestamp_flags). nil where no column is a table's.
func ClientOrigins(q *Query, indexes func(table string) []catalog.Index) []exec.ColumnOrigin {
	var origins []exec.ColumnOrigin
	for i := range q.Plan.Schema() {
		t, c := baseColumn(q.Plan, i)
		if t == nil {
			continue
		}
		f := t.Fields[c]
		o := exec.ColumnOrigin{AutoInc: f.AutoIncrement,
			NoDefault: !f.Nullable && !f.HasDefault && !f.AutoIncrement && f.Generated == "",
			NowAuto:   DefaultsToNow(f) || f.OnUpdateNow, OnUpdateNow: f.OnUpdateNow}
		ixs := indexes(t.Name)
		primary := PrimaryIndex(t.Fields, ixs)
		for i, ix := range ixs {
			for k, col := range ix.Columns {
				if col != c {
					continue
				}
				o.PartKey = true
				switch {
				case i == primary:
					o.Primary = true
				case k == 0 && ix.Unique && len(ix.Columns) == 1:
					o.Unique = true
				case k == 0:
					o.Multiple = true
				}
			}
		}
		if origins == nil {
			origins = make([]exec.ColumnOrigin, len(q.Plan.Schema()))
		}
		origins[i] = o
	}
	return origins
}
