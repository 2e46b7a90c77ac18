package sql

import (
	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// Statement is one bound SQL statement.
type Statement interface{ statement() }

// Query is a SELECT (or set operation / WITH) whose rows are returned.
type Query struct {
	Plan Plan
	// Names are the user-visible column names (aliases) of the result.
	Names []string
	// Recursive are the WITH RECURSIVE tables Plan reads, in the order
	// the engine must compute them (sql/recursive_cte.go).
	Recursive []*RecursiveCTE
	// Reads are the snapshots and views binding used and whether the
	// query must be bound on every run (query_reads.go).
	Reads QueryReads
	// Discard: DO expr, ... evaluates the expressions (for what they do:
	// SLEEP, GET_LOCK, @x := ...) and returns no rows (do.go).
	Discard bool
	// MaxExecutionMS is the SELECT's MAX_EXECUTION_TIME(N) optimizer hint
	// (milliseconds; 0: none), which overrides @@max_execution_time.
	MaxExecutionMS int64
}

// Explain shows the physical plan of Query; Analyze runs it and adds actual
// rows and times.
type Explain struct {
	Query   *Query
	Analyze bool
}

// CreateTable creates an empty table.
type CreateTable struct {
	Name        string
	Fields      []columnar.Field
	Indexes     []catalog.Index
	Checks      []catalog.Check
	ForeignKeys []catalog.ForeignKey
	IfNotExists bool
	// Options are its COMMENT and default collation (table_options.go).
	Options catalog.TableOptions
	DDLWarnings
	// AutoIncrement is the table option AUTO_INCREMENT = N, the first
	// value the AUTO_INCREMENT column generates (0: not given, 1).
	AutoIncrement uint64
}

// CreateTableAs creates a table holding a query's result.
type CreateTableAs struct {
	Name  string
	Query *Query
	// Columns says which result columns are NOT NULL and which copy a
	// base table column's definition (create_table_as.go).
	Columns []CTASColumn
}

// DropTable drops a table.
type DropTable struct {
	Names    []string
	IfExists bool
	// Elsewhere are the IF EXISTS names of other databases (nope.t),
	// which MySQL notes as Note 1051 Unknown table 'nope.t'.
	Elsewhere []string
}

// Insert appends the rows of Source to Table. Source's output column i goes
// to table column Targets[i]; table columns not in Targets get NULL. Source
// columns are already cast to the target column types. Replace (REPLACE
// INTO) first deletes the rows whose PRIMARY KEY or UNIQUE key a new row
// repeats.
type Insert struct {
	DMLReads
	DDLWarnings // VALUES(col)'s deprecation (on_duplicate.go)
	Table       string
	Targets     []int
	Source      Plan
	Replace     bool
	// Ignore (INSERT IGNORE) skips the new rows whose PRIMARY KEY or UNIQUE
	// key an existing or earlier new row holds.
	Ignore bool
	// OnDuplicate is set by ON DUPLICATE KEY UPDATE (on_duplicate.go).
	OnDuplicate *OnDuplicate
	// AutoOnZero: a 0 stored into the AUTO_INCREMENT column generates a
	// value, as NULL does (sql_mode without NO_AUTO_VALUE_ON_ZERO).
	AutoOnZero bool
	// Notes are what storing the written values notes (1265 for a
	// DECIMAL rounded to its column's scale); the engine adds them to
	// the statement's warnings when the rows are stored.
	Notes []Warning
	// Recursive are the WITH RECURSIVE tables Source reads (INSERT ...
	// WITH RECURSIVE ... SELECT), computed before it runs, as a
	// Query's.
	Recursive []*RecursiveCTE
}

// Load appends a file to a table: LOAD DATA INFILE (Format "csv", with the
// delimiter, enclosure and header lines given) or IMPORT INTO (Format "csv" or
// "parquet"). Path is as written; the engine resolves it against the script's
// folder.
type Load struct {
	Table       string
	Path        string
	Format      string
	Delimiter   rune
	Enclosure   rune // 0: none
	IgnoreLines int
	// AutoOnZero is Insert.AutoOnZero for the file's rows.
	AutoOnZero bool
	// Ignore (LOAD DATA ... IGNORE) skips rows that repeat a unique key or
	// break a constraint; Replace (... REPLACE) replaces the rows they
	// repeat a key of, as INSERT IGNORE and REPLACE do.
	Ignore, Replace bool
	// Staging and Insert are a column list's or SET's (load_columns.go):
	// the file is read into a table LoadStagingName of the fields
	// Staging, which the INSERT ... SELECT text Insert stores; without
	// them the file holds every column in table order.
	Staging []columnar.Field
	Insert  string
	// Lenient reads the file as MySQL's lenient modes do (sql/load.go's
	// lenientLoad): every staging field is text, which the INSERT
	// converts with its warnings, and Missing[c] is the text a record
	// without field c gives it (nil: NULL).
	Lenient bool
	Missing []*string
	// EmptyLineRecords: an empty line is a record of one empty field, as
	// in MySQL's LOAD DATA (IMPORT INTO skips it).
	EmptyLineRecords bool
}

// ShowTables lists the tables, those whose name matches Like when it is
// set (SHOW TABLES LIKE 'pattern').
type ShowTables struct {
	Like *string
	Full bool // SHOW FULL TABLES: a Table_type column too (BASE TABLE or VIEW)
	// InfoSchema: SHOW TABLES FROM information_schema, its tables
	// (InfoSchemaTables); Like is then in upper case, as MySQL makes it.
	InfoSchema bool
}

// ShowProcessList is SHOW [FULL] PROCESSLIST: the server's connections
// (Info cut to 100 characters unless Full).
type ShowProcessList struct{ Full bool }

// ShowCatalogTable is SHOW CHARACTER SET, SHOW COLLATION or SHOW ENGINES
// [LIKE 'pattern']: gpusql's fixed answers (engine/show_catalog.go).
type ShowCatalogTable struct {
	What string // "charset", "collation", "engines", or show_more.go's
	Like *string
	Name string // the view of SHOW CREATE VIEW
}

// ShowWarnings is SHOW WARNINGS / SHOW ERRORS [or their COUNT(*)]: gpusql
// fails a statement rather than warn, so there are none to list.
type ShowWarnings struct {
	Errors, Count bool
	// Last are the warnings of the connection's previous statement.
	Last *Warnings
	// Offset and Limit are LIMIT's window of the rows (Limit -1: all).
	Offset, Limit int64
}

// Describe lists a table's columns and types.
type Describe struct {
	Table string
	Like  *string // SHOW COLUMNS FROM t LIKE 'pattern': only the columns it matches
	Full  bool    // SHOW FULL COLUMNS: Collation, Privileges and Comment too
}

func (*Query) statement()            {}
func (*Explain) statement()          {}
func (*CreateTable) statement()      {}
func (*CreateTableAs) statement()    {}
func (*DropTable) statement()        {}
func (*Insert) statement()           {}
func (*Load) statement()             {}
func (*ShowTables) statement()       {}
func (*ShowWarnings) statement()     {}
func (*ShowProcessList) statement()  {}
func (*ShowCatalogTable) statement() {}
func (*Describe) statement()         {}
