package sql

import "gpusql/storage/columnar"

// DMLReads are the tables a writing statement reads by name, by
// lower-cased name: INSERT ... SELECT's source, the subqueries of UPDATE
// and DELETE, the tables a multi-table statement joins. LOCK TABLES
// holds a session to what it locked (engine/lock_tables.go), and MySQL
// checks those reads as it checks a SELECT's: 1100 for a table not
// locked.
type DMLReads struct {
	TablesRead map[string]*columnar.Table
}

func (r *DMLReads) dmlReads() *DMLReads { return r }

// ReadTables are the tables the statement reads (TablesRead).
func (r *DMLReads) ReadTables() map[string]*columnar.Table { return r.TablesRead }
