package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// tableOptions are base with a CREATE TABLE's or ALTER TABLE's COMMENT
// and [DEFAULT] COLLATE applied: the options gpusql keeps, as MySQL 8
// shows them in SHOW CREATE TABLE and information_schema.TABLES.
func tableOptions(opts []*ast.TableOption, base catalog.TableOptions) catalog.TableOptions {
	out := base
	for _, o := range opts {
		if o.Tp == ast.TableOptionComment {
			out.Comment = o.StrValue
		}
	}
	if coll := tableCollation(opts); coll != "" {
		out.Collation = coll
	}
	return out
}

// AlterTableOptions is ALTER TABLE t COMMENT = '...' / [DEFAULT] COLLATE
// = ...: the table's options become Options; the columns keep their
// collations (MySQL changes only the default of columns defined later).
// AutoIncrement, when not nil, is an AUTO_INCREMENT = N given beside them.
type AlterTableOptions struct {
	Table         string
	Options       catalog.TableOptions
	AutoIncrement *AlterAutoIncrement
	DDLWarnings
}

// alterColumnsCommented binds column changes with the table COMMENT that
// may come beside them in all (ALTER TABLE t ADD c INT, COMMENT = 'x'):
// MySQL sets the comment with the change, so the statement carries it.
func (b *binder) alterColumnsCommented(t *columnar.Table, all, specs []*ast.AlterTableSpec, checks []checkDef) (Statement, error) {
	st, err := b.alterColumnsChecked(t, specs, checks)
	if err != nil {
		return nil, err
	}
	var opts []*ast.TableOption
	for _, sp := range all {
		if sp.Tp != ast.AlterTableOption {
			continue
		}
		for _, o := range sp.Options {
			if o.Tp == ast.TableOptionComment {
				opts = append(opts, o)
			}
		}
	}
	ac, ok := st.(*AlterColumns)
	if !ok || len(opts) == 0 {
		return st, nil
	}
	o := tableOptions(opts, b.cat.Options(t.Name))
	if o.Comment, err = b.tableComment(t.Name, o.Comment); err != nil {
		return nil, err
	}
	ac.Options = &o
	return ac, nil
}

func (*AlterTableOptions) statement() {}

// TableCharset is the character set of a table's default collation as
// SHOW CREATE TABLE names it: utf8 is MySQL 8's utf8mb3, binary its own.
func TableCharset(collation string) string {
	if collation == "binary" {
		return "binary"
	}
	cs, _, _ := strings.Cut(collation, "_")
	if cs == "utf8" {
		return "utf8mb3"
	}
	return cs
}

// TableCollationName is collation as MySQL 8 names it (utf8_general_ci
// is utf8mb3_general_ci).
func TableCollationName(collation string) string {
	if rest, ok := strings.CutPrefix(collation, "utf8_"); ok {
		return "utf8mb3_" + rest
	}
	return collation
}

// tableCollationOf is information_schema.TABLES.TABLE_COLLATION.
func tableCollationOf(o catalog.TableOptions) string {
	if o.Collation == "" {
		return "utf8mb4_bin"
	}
	return TableCollationName(o.Collation)
}

// mysqlEngines are the storage engines a MySQL 8 server knows (a stock
// server's SHOW ENGINES, the aliases it resolves, NDB's) and gpusql's own:
// a dump's ENGINE=InnoDB or MyISAM loads, gpusql's storage taking the
// table, as SHOW ENGINES and information_schema.TABLES say.
var mysqlEngines = map[string]bool{"innodb": true, "innobase": true, "myisam": true, "memory": true,
	"heap": true, "csv": true, "archive": true, "blackhole": true, "mrg_myisam": true, "merge": true,
	"federated": true, "performance_schema": true, "ndb": true, "ndbcluster": true, "ndbinfo": true,
	"gpusql": true}

// checkEngine is MySQL's answer to ENGINE = name of an engine it does not
// know: 1286 Unknown storage engine 'name' under NO_ENGINE_SUBSTITUTION
// (in the default sql_mode); without it, warnings 1286 and 1266 and the
// default engine (ha_checktype).
func (b *binder) checkEngine(opts []*ast.TableOption, table string) error {
	for _, o := range opts {
		if o.Tp != ast.TableOptionEngine || mysqlEngines[strings.ToLower(o.StrValue)] {
			continue
		}
		if b.session == nil || b.session.hasMode("NO_ENGINE_SUBSTITUTION") {
			return b.errCode(b.wordPos(o.StrValue, -1), ErUnknownStorageEngine, "Unknown storage engine '%s'", o.StrValue)
		}
		b.ddlWarnings = append(b.ddlWarnings,
			Warning{Level: "Warning", Code: ErUnknownStorageEngine, Message: "Unknown storage engine '" + o.StrValue + "'"},
			Warning{Level: "Warning", Code: ErWarnUsingOtherHandler, Message: "Using storage engine gpusql for table '" + table + "'"})
	}
	return nil
}
