package ssbcheck

import (
	"bufio"
	"context"
	dbsql "database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	_ "modernc.org/sqlite"
)

// The oracle is SQLite in memory, loaded from the same schema script as
// gpusql: CREATE TABLE statements run as they are (date quoted), and LOAD
// DATA, which SQLite lacks, becomes INSERTs of the file's rows here.

var (
	commentRE = regexp.MustCompile(`(?m)^\s*--.*$`)
	loadRE    = regexp.MustCompile(`(?is)^load\s+data\s+(?:local\s+)?infile\s+'([^']*)'\s+into\s+table\s+(\w+)\s*(.*)$`)
	termRE    = regexp.MustCompile(`(?i)terminated\s+by\s+'([^']+)'`)
)

// openOracle returns an SQLite database with the tables of schema (a script
// of CREATE TABLE and LOAD DATA statements, files relative to dir) loaded.
func openOracle(ctx context.Context, schema, dir string) (*dbsql.DB, error) {
	db, err := dbsql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	// Every connection to :memory: is a database of its own.
	db.SetMaxOpenConns(1)
	for _, stmt := range strings.Split(commentRE.ReplaceAllString(schema, ""), ";") {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" {
			continue
		}
		if m := loadRE.FindStringSubmatch(stmt); m != nil {
			err = loadTbl(ctx, db, filepath.Join(dir, m[1]), m[2], m[3])
		} else {
			_, err = db.ExecContext(ctx, forSQLite(stmt))
		}
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("sqlite: %.60q: %w", stmt, err)
		}
	}
	return db, nil
}

// loadTbl inserts the rows of a dbgen .tbl file ('|' after every field) into
// table. Integer columns get integers parsed here rather than text left to
// SQLite's type affinity, so a malformed number fails the load instead of
// being stored as a string.
func loadTbl(ctx context.Context, db *dbsql.DB, path, table, opts string) error {
	if m := termRE.FindStringSubmatch(opts); m == nil || m[1] != "|" {
		return fmt.Errorf("load %s: only fields terminated by '|' are supported here", path)
	}
	rows, err := db.QueryContext(ctx, "select type from pragma_table_info(?) order by cid", table)
	if err != nil {
		return err
	}
	var isInt []bool
	for rows.Next() {
		var typ string
		if err := rows.Scan(&typ); err != nil {
			rows.Close()
			return err
		}
		isInt = append(isInt, strings.Contains(strings.ToLower(typ), "int"))
	}
	rows.Close()
	if len(isInt) == 0 {
		return fmt.Errorf("load %s: no table %s", path, table)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	marks := strings.TrimSuffix(strings.Repeat("?,", len(isInt)), ",")
	ins, err := tx.PrepareContext(ctx, fmt.Sprintf(`insert into %q values (%s)`, table, marks))
	if err != nil {
		return err
	}
	defer ins.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	args := make([]any, len(isInt))
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "|")
		if len(fields) == len(isInt)+1 && fields[len(isInt)] == "" {
			fields = fields[:len(isInt)]
		}
		if len(fields) != len(isInt) {
			return fmt.Errorf("%s line %d: %d fields, want %d", path, line, len(fields), len(isInt))
		}
		for i, s := range fields {
			if !isInt[i] {
				args[i] = s
				continue
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("%s line %d field %d: %w", path, line, i+1, err)
			}
			args[i] = v
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("%s line %d: %w", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return tx.Commit()
}

// oracleQuery runs a query on SQLite and returns its column names and rows.
func oracleQuery(ctx context.Context, db *dbsql.DB, query string) ([]string, [][]cell, error) {
	rows, err := db.QueryContext(ctx, forSQLite(query))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	var out [][]cell
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		row := make([]cell, len(names))
		for i, v := range vals {
			row[i] = sqliteCell(v)
		}
		out = append(out, row)
	}
	return names, out, rows.Err()
}

func sqliteCell(v any) cell {
	switch v := v.(type) {
	case nil:
		return cell{kind: kindNull}
	case int64:
		return cell{kind: kindInt, i: v}
	case float64:
		return cell{kind: kindFloat, f: v}
	case []byte:
		return cell{kind: kindString, s: string(v)}
	case string:
		return cell{kind: kindString, s: v}
	}
	return cell{kind: kindString, s: fmt.Sprint(v)}
}
