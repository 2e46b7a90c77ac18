// Package exec holds what both executors share: the result set they return.
package exec

import "gpusql/storage/columnar"

// Result is a query's rows as column vectors (strings as codes with their
// dictionary, decimals scaled, dates as days). Both executors return it for
// the same physical plan, so one can be checked against the other; Record
// turns it into an Arrow record batch for clients.
type Result struct {
	Names   []string
	Columns []*columnar.Column
	Rows    int
	// ClientTypes, when set, are the types clients are told of (the
	// zero Type: the column's own): MySQL's DECIMAL for a SUM or AVG the
	// engine computed as BIGINT or DECIMAL(18,s) (sql.ClientTypes). The
	// values are the same; the MySQL protocol and the database/sql
	// driver describe and send such a column as that DECIMAL.
	ClientTypes []columnar.Type
	// NotNull, when set, marks the columns the plan proves are never
	// NULL (SELECT 1, a NOT NULL column, COUNT(*)): MySQL sends them with
	// NOT_NULL_FLAG, and clients (go-sql-driver's ColumnType.Nullable)
	// read it. Unset or short: nullable, which is never wrong.
	NotNull []bool
	// Blob, when set, marks the string columns that are a table's TEXT or
	// BLOB column as it is: MySQL sends those as MYSQL_TYPE_BLOB with
	// BLOB_FLAG, and a computed string of unknown width as VAR_STRING.
	Blob []bool
	// Origins, when set, describe the columns that are a table's column
	// as it is (SELECT id FROM t): MySQL sends such a column with the
	// flags of its definition (PRI_KEY_FLAG, AUTO_INCREMENT_FLAG, ...).
	// Unset or short, or the zero ColumnOrigin: a computed column.
	Origins []ColumnOrigin
}

// ColumnOrigin is what a result column read straight from a table's
// column tells clients of that column's definition.
type ColumnOrigin struct {
	Primary   bool // a column of the primary key
	Unique    bool // the column of a one-column UNIQUE index
	Multiple  bool // the first column of another index
	PartKey   bool // a column of any index
	AutoInc   bool // the AUTO_INCREMENT column
	NoDefault bool // NOT NULL without a DEFAULT, not AUTO_INCREMENT or generated
	// NowAuto marks a DATETIME / TIMESTAMP column with DEFAULT or ON
	// UPDATE CURRENT_TIMESTAMP, OnUpdateNow one with ON UPDATE
	// CURRENT_TIMESTAMP: MySQL's TIMESTAMP_FLAG and ON_UPDATE_NOW_FLAG.
	NowAuto, OnUpdateNow bool
}

// Origin is column j's ColumnOrigin, the zero one for a computed column.
func (r *Result) Origin(j int) ColumnOrigin {
	if j < len(r.Origins) {
		return r.Origins[j]
	}
	return ColumnOrigin{}
}

// IsBlob reports whether column j is a table's TEXT or BLOB column.
func (r *Result) IsBlob(j int) bool { return j < len(r.Blob) && r.Blob[j] }

// IsNotNull reports whether column j is known never to be NULL.
func (r *Result) IsNotNull(j int) bool { return j < len(r.NotNull) && r.NotNull[j] }

// ClientType is the type clients are told column j has.
func (r *Result) ClientType(j int) columnar.Type {
	if j < len(r.ClientTypes) && r.ClientTypes[j].ID != 0 {
		return r.ClientTypes[j]
	}
	return r.Columns[j].Type
}
