package sql

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// loadData binds LOAD DATA [LOCAL] INFILE 'f' [REPLACE | IGNORE] INTO TABLE t [FORMAT ...]
// [FIELDS TERMINATED BY 'c' [OPTIONALLY] ENCLOSED BY 'q'] [IGNORE n LINES].
// The field delimiter defaults to a tab, as in MySQL.
func (b *binder) loadData(n *ast.LoadDataStmt) (Statement, error) {
	t, err := b.table(n.Table)
	if err != nil {
		return nil, err
	}
	st := &Load{Table: t.Name, Path: n.Path, Format: "csv", Delimiter: '\t', AutoOnZero: b.autoValueOnZero(), EmptyLineRecords: true}
	st.Ignore = n.OnDuplicate == ast.OnDuplicateKeyHandlingIgnore
	st.Replace = n.OnDuplicate == ast.OnDuplicateKeyHandlingReplace
	if n.Format != nil {
		switch f := strings.ToLower(*n.Format); f {
		case "delimited data", "csv":
		case "parquet":
			st.Format = "parquet"
		default:
			return nil, b.errf(-1, "unsupported: LOAD DATA FORMAT '%s' (delimited data and parquet are supported)", f)
		}
	}
	if len(n.Options) > 0 {
		return nil, b.errf(-1, "unsupported: LOAD DATA ... WITH options")
	}
	st.Lenient = st.Format == "csv" && b.lenientLoad(n, t)
	if n.FileLocRef == ast.FileLocClient && !st.Replace {
		st.Ignore = true // LOCAL: the server cannot stop the client's send, so MySQL skips duplicates as IGNORE does
	}
	if st.Lenient || len(n.Columns) > 0 || len(n.ColumnsAndUserVars) > 0 || len(n.ColumnAssignments) > 0 {
		if st.Format == "parquet" {
			return nil, b.errf(-1, "unsupported: LOAD DATA FORMAT 'parquet' with a column list or SET")
		}
		if err := b.loadColumns(n, t, st); err != nil {
			return nil, err
		}
	}
	if fi := n.FieldsInfo; fi != nil {
		if fi.Terminated != nil {
			if st.Delimiter, err = b.oneChar(*fi.Terminated, "FIELDS TERMINATED BY"); err != nil {
				return nil, err
			}
		}
		if fi.Enclosed != nil && *fi.Enclosed != "" {
			if st.Enclosure, err = b.oneChar(*fi.Enclosed, "ENCLOSED BY"); err != nil {
				return nil, err
			}
		}
		if fi.DefinedNullBy != nil {
			return nil, b.errf(-1, "unsupported: DEFINED NULL BY")
		}
	}
	if li := n.LinesInfo; li != nil {
		if li.Starting != nil && *li.Starting != "" {
			return nil, b.errf(-1, "unsupported: LINES STARTING BY")
		}
		if li.Terminated != nil && *li.Terminated != "\n" && *li.Terminated != "\r\n" {
			return nil, b.errf(-1, "unsupported: LINES TERMINATED BY other than '\\n'")
		}
	}
	if n.IgnoreLines != nil {
		if *n.IgnoreLines > 1<<30 {
			return nil, b.errf(-1, "IGNORE %d LINES is too large", *n.IgnoreLines)
		}
		st.IgnoreLines = int(*n.IgnoreLines)
	}
	return st, nil
}

// lenientLoad reports whether LOAD DATA reads its file as MySQL does in
// its lenient modes (IGNORE, LOCAL without REPLACE or a non-strict sql_mode): a record
// with too few or too many fields warns 1261 / 1262, a value its column
// cannot take is stored converted with INSERT IGNORE's warnings. A table
// with generated columns keeps the strict path: its file's fields skip
// them, which the all-columns staging list does not know.
func (b *binder) lenientLoad(n *ast.LoadDataStmt, t *columnar.Table) bool {
	for _, f := range t.Fields {
		if f.Generated != "" {
			return false
		}
	}
	// LOCAL stands for IGNORE only without REPLACE (MySQL's sql_load.cc
	// sets IGNORE for a LOCAL load whose duplicates would be errors).
	local := n.FileLocRef == ast.FileLocClient && n.OnDuplicate != ast.OnDuplicateKeyHandlingReplace
	return b.lenientWrites(n.OnDuplicate == ast.OnDuplicateKeyHandlingIgnore || local)
}

func (b *binder) oneChar(s, what string) (rune, error) {
	if utf8.RuneCountInString(s) != 1 {
		return 0, b.errf(-1, "unsupported: %s '%s' (one character is supported)", what, s)
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r, nil
}

// importInto binds IMPORT INTO t FROM 'f' [FORMAT 'csv'|'parquet']
// [WITH fields_terminated_by='c', fields_enclosed_by='q', skip_rows=n].
// CSV defaults: ',' delimiter, '"' enclosure, no line skipped. The
// defaults are TiDB's, whose statement this is (SKIP_ROWS defaults to
// 0): skipping a header by default dropped the first row of a file
// without one, silently, where a header read as data fails loudly on a
// typed column (1366 Incorrect integer value: 'id' ... at row 1).
func (b *binder) importInto(n *ast.ImportIntoStmt) (Statement, error) {
	t, err := b.table(n.Table)
	if err != nil {
		return nil, err
	}
	if n.Select != nil {
		return nil, b.errf(-1, "unsupported: IMPORT INTO ... FROM SELECT (use INSERT INTO ... SELECT)")
	}
	if len(n.ColumnsAndUserVars) > 0 || len(n.ColumnAssignments) > 0 {
		return nil, b.errf(-1, "unsupported: IMPORT INTO with a column list or SET")
	}
	st := &Load{Table: t.Name, Path: n.Path, Format: "csv", Delimiter: ',', Enclosure: '"', AutoOnZero: b.autoValueOnZero()}
	if n.Format != nil {
		switch f := strings.ToLower(*n.Format); f {
		case "csv":
		case "parquet":
			st = &Load{Table: t.Name, Path: n.Path, Format: "parquet", AutoOnZero: b.autoValueOnZero()}
		default:
			return nil, b.errf(-1, "unsupported: IMPORT INTO FORMAT '%s' (csv and parquet are supported)", f)
		}
	}
	for _, o := range n.Options {
		val := ""
		if v, ok := o.Value.(*driver.ValueExpr); ok {
			switch v.Kind() {
			case driver.KindString:
				val = v.GetString()
			case driver.KindInt64:
				val = strconv.FormatInt(v.GetInt64(), 10)
			case driver.KindUint64:
				val = strconv.FormatUint(v.GetUint64(), 10)
			}
		}
		switch o.Name {
		case "fields_terminated_by":
			if st.Delimiter, err = b.oneChar(val, "fields_terminated_by"); err != nil {
				return nil, err
			}
		case "fields_enclosed_by":
			if val == "" {
				st.Enclosure = 0
			} else if st.Enclosure, err = b.oneChar(val, "fields_enclosed_by"); err != nil {
				return nil, err
			}
		case "skip_rows":
			k, e := strconv.Atoi(val)
			if e != nil || k < 0 {
				return nil, b.errf(-1, "skip_rows takes a non-negative integer")
			}
			st.IgnoreLines = k
		default:
			return nil, b.errf(-1, "unsupported: IMPORT INTO option %s (fields_terminated_by, fields_enclosed_by and skip_rows are supported)", o.Name)
		}
	}
	return st, nil
}
