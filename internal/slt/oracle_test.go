package slt

import (
	"context"
	dbsql "database/sql"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// The oracle runs every record of testdata/slt that is not marked
// "skipif sqlite" on SQLite and checks that SQLite, an engine that shares no
// code with gpusql, produces the expected rows too. Where MySQL and SQLite
// disagree (integer '/', DATE arithmetic, CONCAT with NULL, ...), the record
// carries "skipif sqlite" and its expectation was checked by hand.
//
// -oracle-update writes SQLite's rows into the files for the records it runs
// (new queries get their expected block from the independent engine, never
// from gpusql).
var oracleUpdate = flag.Bool("oracle-update", false, "rewrite expected rows of the SLT files from SQLite")

const sltDir = "../../testdata/slt"

// classicDir holds the classic-format fixtures of the engine's TestSLTExtra;
// the oracle checks their answers too.
const classicDir = "../../testdata/slt-classic"

func TestSQLiteOracle(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(sltDir, "*.test"))
	classic, _ := filepath.Glob(filepath.Join(classicDir, "*.test"))
	files = append(files, classic...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in %s (%v)", sltDir, err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			runOracle(t, f)
			if *oracleUpdate {
				if err := f.Write(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func runOracle(t *testing.T, f *File) {
	db, err := dbsql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// One connection: every connection to :memory: is its own database.
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	base := filepath.Dir(f.Path)
	for _, r := range f.Records {
		if r.Kind == Halt {
			if r.Skipped("sqlite") {
				continue
			}
			return
		}
		if r.Skipped("sqlite") {
			continue
		}
		where := fmt.Sprintf("%s:%d", f.Path, r.Line)
		if r.Kind == Invalid {
			t.Errorf("%s: unknown record type %q", where, r.SQL)
			return
		}
		if r.Kind == Statement {
			err := oracleExec(ctx, db, r.SQL, base)
			switch {
			case r.ExpectError && err == nil:
				t.Errorf("%s: SQLite ran a statement expected to fail:\n%s", where, r.SQL)
			case !r.ExpectError && err != nil:
				t.Errorf("%s: SQLite: %v\n%s", where, err, r.SQL)
			}
			continue
		}
		rows, err := oracleQuery(ctx, db, r.SQL)
		if err != nil {
			t.Errorf("%s: SQLite: %v\n%s", where, err, r.SQL)
			continue
		}
		got, err := Format(r, rows)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if *oracleUpdate {
			r.SetResult(got)
			continue
		}
		if d := Diff(r, got); d != "" {
			t.Errorf("%s: SQLite disagrees with the expected rows: %s\n%s", where, d, r.SQL)
		}
	}
}

func oracleQuery(ctx context.Context, db *dbsql.DB, query string) ([][]Cell, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	colTypes, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	var out [][]Cell
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]Cell, len(cols))
		for i, v := range vals {
			if t, ok := v.(time.Time); ok {
				// The driver reads the text of DATE/DATETIME/TIMESTAMP
				// columns as time.Time; print it back as SQLite stored
				// it (and as MySQL prints a DATE or DATETIME(0)).
				v = t.UTC().Format("2006-01-02 15:04:05")
				if colTypes[i].DatabaseTypeName() == "DATE" {
					v = t.UTC().Format("2006-01-02")
				}
			}
			row[i] = sqliteCell(v)
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

func sqliteCell(v any) Cell {
	switch v := v.(type) {
	case nil:
		return Cell{Null: true}
	case int64:
		return Cell{Text: strconv.FormatInt(v, 10), Num: float64(v), IsNum: true}
	case float64:
		return Cell{Text: formatDouble(v), Num: v, IsNum: true}
	case []byte:
		return Cell{Text: string(v)}
	case string:
		return Cell{Text: v}
	case bool:
		if v {
			return Cell{Text: "1", Num: 1, IsNum: true}
		}
		return Cell{Text: "0", IsNum: true}
	}
	return Cell{Text: fmt.Sprint(v)}
}

var (
	loadRE    = regexp.MustCompile(`(?is)^\s*load\s+data\s+(?:local\s+)?infile\s+'([^']*)'\s+into\s+table\s+(\w+)(.*?);?\s*$`)
	termRE    = regexp.MustCompile(`(?i)terminated\s+by\s+'([^']+)'`)
	enclRE    = regexp.MustCompile(`(?i)enclosed\s+by\s+'([^']+)'`)
	ignoreRE  = regexp.MustCompile(`(?i)ignore\s+(\d+)\s+lines`)
	commentRE = regexp.MustCompile(`(?m)^\s*--.*$`)
)

// oracleExec runs a statement on SQLite; LOAD DATA, which SQLite lacks, is
// done here by reading the file and inserting its rows.
func oracleExec(ctx context.Context, db *dbsql.DB, stmt, base string) error {
	m := loadRE.FindStringSubmatch(commentRE.ReplaceAllString(stmt, ""))
	if m == nil {
		_, err := db.ExecContext(ctx, stmt)
		return err
	}
	path, table, opts := m[1], m[2], m[3]
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	delim := '\t'
	if t := termRE.FindStringSubmatch(opts); t != nil {
		delim = []rune(t[1])[0]
	}
	ignore := 0
	if t := ignoreRE.FindStringSubmatch(opts); t != nil {
		ignore, _ = strconv.Atoi(t[1])
	}
	ncols := 0
	if err := db.QueryRowContext(ctx, "select count(*) from pragma_table_info(?)", table).Scan(&ncols); err != nil || ncols == 0 {
		return fmt.Errorf("load: table %s: %v", table, err)
	}
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	rd := csv.NewReader(file)
	rd.Comma = delim
	rd.FieldsPerRecord = -1
	// Without ENCLOSED BY a quote is an ordinary character.
	rd.LazyQuotes = enclRE.FindStringSubmatch(opts) == nil
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, "insert into "+table+" values (?"+strings.Repeat(",?", ncols-1)+")")
	if err != nil {
		return err
	}
	for line := 1; ; line++ {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if line <= ignore {
			continue
		}
		// dbgen ends every line with the delimiter: one empty field more.
		if len(rec) == ncols+1 && rec[ncols] == "" {
			rec = rec[:ncols]
		}
		if len(rec) != ncols {
			return fmt.Errorf("%s:%d: %d fields, want %d", path, line, len(rec), ncols)
		}
		args := make([]any, ncols)
		for i, v := range rec {
			if v == `\N` {
				args[i] = nil
			} else {
				args[i] = v
			}
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// formatDouble is exec.FormatDouble's rule (shortest digits, MySQL-style
// exponent), repeated here so the oracle builds while the engine's packages
// are being edited.
func formatDouble(f float64) string {
	if a := math.Abs(f); f == 0 || (a >= 1e-6 && a < 1e15) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}
