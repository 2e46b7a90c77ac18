package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Statements about the whole database: CHECKPOINT, CHECK DATABASE,
// SHOW TABLE STATUS, EXPORT and IMPORT DATABASE.

// checkpoint answers CHECKPOINT / VACUUM: columns that INSERT and LOAD
// extended by appended runs are rewritten as one file each, so the next
// open maps them instead of copying the runs together. Every statement is
// already durable; replaced files are already deleted.
func (db *DB) checkpoint() (*StatementResult, error) {
	d := db.durable
	if d == nil {
		return message("checkpoint: the database is in memory (open one with gpusql PATH)"), nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.store.Checkpoint(d.last); err != nil {
		return nil, err
	}
	return message("checkpoint: %s folded", d.store.Dir()), nil
}

// checkDatabase verifies every file of the database against its checksums,
// one row per damaged column, or one "ok" row.
func (db *DB) checkDatabase() *StatementResult {
	var tables, cols, msgs []string
	if db.durable == nil {
		tables, cols, msgs = []string{""}, []string{""}, []string{"ok (in-memory database: no files to check)"}
	} else {
		problems, n, nr := db.durable.store.Check()
		for _, p := range problems {
			tables, cols, msgs = append(tables, p.Table), append(cols, p.Column), append(msgs, p.Msg)
		}
		if len(problems) == 0 {
			tables, cols, msgs = []string{""}, []string{""}, []string{checkedText(n, nr)}
		}
	}
	res := &exec.Result{Names: []string{"table", "column", "integrity_check"},
		Columns: []*columnar.Column{stringColumn(tables), stringColumn(cols), stringColumn(msgs)}, Rows: len(msgs)}
	return &StatementResult{Kind: KindRows, Result: res}
}

// exportDatabase writes dir/schema.sql (CREATE TABLE with keys, IMPORT
// INTO of each table's Parquet file, CREATE VIEW) and dir/<table>.parquet:
// a form any gpusql version reads back with IMPORT DATABASE, and other
// tools read too.
func (db *DB) exportDatabase(dir string) (*StatementResult, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("EXPORT DATABASE: %w", err)
	}
	var script strings.Builder
	names := db.cat.Names()
	for _, n := range names {
		if len(db.cat.ForeignKeys(n)) > 0 {
			// Tables are created in name order: a child may come before
			// its parent, and its rows before the parent's.
			script.WriteString("SET foreign_key_checks = 0;\n\n")
			break
		}
	}
	for _, n := range names {
		t, _ := db.cat.Table(n)
		if err := t.Verify(); err != nil {
			return nil, err
		}
		script.WriteString(createTableSQL(t, db.cat.Indexes(n), constraintDefs(db.cat.ForeignKeys(n), db.cat.Checks(n)), db.autoIncrementNext(t), db.cat.Options(n)))
		file := n + ".parquet"
		if err := writeParquet(filepath.Join(dir, file), t); err != nil {
			return nil, fmt.Errorf("EXPORT DATABASE: table %s: %w", t.Name, err)
		}
		fmt.Fprintf(&script, "IMPORT INTO %s FROM '%s' FORMAT 'parquet';\n\n", quoteIdent(t.Name), file)
	}
	for _, v := range db.cat.ViewNames() {
		vw, _ := db.cat.View(v)
		cols := viewColumnList(vw.Columns, ", ")
		algorithm := ""
		if vw.Temptable {
			algorithm = "ALGORITHM=TEMPTABLE "
		}
		fmt.Fprintf(&script, "CREATE %sVIEW %s%s AS %s;\n", algorithm, quoteIdent(vw.Name), cols, vw.SQL)
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte(script.String()), 0o644); err != nil {
		return nil, fmt.Errorf("EXPORT DATABASE: %w", err)
	}
	return message("exported %d %s to %s", len(names), plural(len(names), "table"), dir), nil
}

func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// createTableSQL is the CREATE TABLE statement of t with its keys, the
// constraint definitions given and, when past 1, the AUTO_INCREMENT
// counter's next value, and the table's default collation and COMMENT
// (its columns name a collation where it differs, as SHOW CREATE TABLE).
func createTableSQL(t *columnar.Table, indexes []catalog.Index, constraints []string, autoNext uint64, opts catalog.TableOptions) string {
	var defs []string
	for _, f := range t.Fields {
		typ := f.Type.String()
		if f.Type.ID == columnar.String && f.Type.Width == 0 && f.Type.Members == "" && !f.Type.JSON {
			typ = f.Type.LobName() // TINYTEXT ... LONGBLOB: VARCHAR / VARBINARY need a width
		}
		defs = append(defs, quoteIdent(f.Name)+" "+typ+columnClauses(f, opts.Collation)+commentClause(f))
	}
	sorted := append([]catalog.Index(nil), indexes...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Primary && !sorted[j].Primary })
	for _, ix := range sorted {
		cols := make([]string, len(ix.Columns))
		for i, c := range ix.Columns {
			cols[i] = quoteIdent(t.Fields[c].Name) + prefixClause(ix, i) + descClause(ix, i)
		}
		list := "(" + strings.Join(cols, ", ") + ")"
		list += indexCommentClause(ix)
		switch {
		case ix.Primary:
			defs = append(defs, "PRIMARY KEY "+list)
		case ix.Unique:
			defs = append(defs, "UNIQUE KEY "+quoteIdent(ix.Name)+" "+list)
		default:
			defs = append(defs, "KEY "+quoteIdent(ix.Name)+" "+list)
		}
	}
	defs = append(defs, constraints...)
	option := ""
	if autoNext > 1 {
		option = fmt.Sprintf(" AUTO_INCREMENT=%d", autoNext)
	}
	if opts.Collation != "" {
		option += " COLLATE=" + opts.Collation
	}
	if opts.Comment != "" {
		option += " COMMENT=" + sql.QuoteComment(opts.Comment)
	}
	return fmt.Sprintf("CREATE TABLE %s (\n  %s\n)%s;\n", quoteIdent(t.Name), strings.Join(defs, ",\n  "), option)
}

// writeParquet writes t as one Parquet file (Snappy), a row group per
// million rows.
func writeParquet(path string, t *columnar.Table) error {
	res := &exec.Result{Columns: t.Columns, Rows: t.Rows}
	for _, f := range t.Fields {
		res.Names = append(res.Names, f.Name)
	}
	rec := res.Record()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy))
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps())
	if err != nil {
		f.Close()
		return err
	}
	for off := int64(0); off < rec.NumRows() || off == 0; off += 1 << 20 {
		part := rec.NewSlice(off, min(off+1<<20, rec.NumRows()))
		err = w.WriteBuffered(part)
		part.Release()
		if err != nil || rec.NumRows() == 0 {
			break
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// importDatabase runs dir/schema.sql (as EXPORT DATABASE writes it) as one
// statement: when any part fails, the catalog is put back as it was, so a
// persistent database either gains everything or nothing.
func (db *DB) importDatabase(ctx context.Context, dir string) (*StatementResult, error) {
	// The files hold TIMESTAMPs as stored, in UTC (as mysqldump's
	// SET TIME_ZONE='+00:00'): they load under UTC whatever the session's.
	utc := *db
	utc.session = db.session.NewSessionOf()
	utc.session.SetTimeZone(sql.UTCZone)
	return utc.importFiles(ctx, dir)
}

func (db *DB) importFiles(ctx context.Context, dir string) (*StatementResult, error) {
	b, err := os.ReadFile(filepath.Join(dir, "schema.sql"))
	if err != nil {
		return nil, fmt.Errorf("IMPORT DATABASE: %w", err)
	}
	before := db.cat.State()
	// schema.sql may SET foreign_key_checks = 0 (children before their
	// parents): the session gets its own setting back afterwards.
	checks := db.session.Limit("foreign_key_checks")
	defer db.session.SetLimit("foreign_key_checks", checks)
	stmts, err := sql.Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("IMPORT DATABASE %s/schema.sql: %w", dir, err)
	}
	tables := 0
	for _, p := range stmts {
		st, err := sql.BindSession(db.cat, db.session, p)
		if err == nil {
			switch st.(type) {
			case *sql.CreateTable, *sql.CreateView, *sql.Load, *sql.Insert, *sql.CreateIndex, *sql.Set:
				_, err = db.execStatement(ctx, st, dir)
			default:
				err = fmt.Errorf("unexpected statement (schema.sql holds CREATE, IMPORT INTO, LOAD DATA and SET only)")
			}
			if _, ok := st.(*sql.CreateTable); ok {
				tables++
			}
		}
		if err != nil {
			db.cat.Restore(before)
			return nil, fmt.Errorf("IMPORT DATABASE %s/schema.sql line %d: %w (nothing was imported)", dir, p.Line, err)
		}
	}
	return message("imported %d %s from %s", tables, plural(tables, "table"), dir), nil
}

// resolve makes a relative path relative to the script's folder (as LOAD
// DATA paths are).
func resolve(baseDir, path string) string {
	if !filepath.IsAbs(path) && baseDir != "" {
		return filepath.Join(baseDir, path)
	}
	return path
}

// checkedText is CHECK DATABASE's message when every file checked out.
func checkedText(columns, remaps int) string {
	if remaps == 0 {
		return fmt.Sprintf("ok (%d column files verified)", columns)
	}
	return fmt.Sprintf("ok (%d column files and %d remap %s verified)", columns, remaps, plural(remaps, "file"))
}
