package cpu_test

import (
	"context"
	dbsql "database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// testDB is a catalog plus, optionally, the same tables in SQLite, which
// serves as the oracle for queries whose semantics the two share.
type testDB struct {
	t      testing.TB
	cat    *catalog.Catalog
	dir    string
	oracle *dbsql.DB
}

func newTestDB(t testing.TB, withOracle bool) *testDB {
	d := &testDB{t: t, cat: catalog.New(), dir: t.TempDir()}
	if withOracle {
		db, err := dbsql.Open("sqlite", ":memory:")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		d.oracle = db
	}
	return d
}

func (d *testDB) bind(text string) sql.Statement {
	d.t.Helper()
	ps, err := sql.Parse(text)
	if err != nil {
		d.t.Fatalf("parse %q: %v", text, err)
	}
	if len(ps) != 1 {
		d.t.Fatalf("want one statement in %q", text)
	}
	st, err := sql.Bind(d.cat, ps[0])
	if err != nil {
		d.t.Fatalf("bind %q: %v", text, err)
	}
	return st
}

// create runs CREATE TABLE here and in the oracle.
func (d *testDB) create(ddl string) {
	d.t.Helper()
	ct, ok := d.bind(ddl).(*sql.CreateTable)
	if !ok {
		d.t.Fatalf("%q is not CREATE TABLE", ddl)
	}
	if err := d.cat.Create(ct.Name, ct.Fields, false); err != nil {
		d.t.Fatal(err)
	}
	if d.oracle != nil {
		var cols []string
		for _, f := range ct.Fields {
			typ := "INTEGER"
			switch f.Type.ID {
			case columnar.Float64, columnar.Decimal:
				typ = "REAL"
			case columnar.String, columnar.Date, columnar.Datetime:
				typ = "TEXT" // SQLite keeps dates and datetimes as their text
			}
			cols = append(cols, f.Name+" "+typ)
		}
		if _, err := d.oracle.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", ct.Name, strings.Join(cols, ", "))); err != nil {
			d.t.Fatal(err)
		}
	}
}

// load appends rows given as '|'-separated lines (\N is NULL).
func (d *testDB) load(table string, lines []string) {
	d.t.Helper()
	path := filepath.Join(d.dir, table+".tbl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		d.t.Fatal(err)
	}
	err := d.cat.Update(table, func(old *columnar.Table) (*columnar.Table, error) {
		nt, err := columnar.LoadDelimited(old, path, columnar.DelimitedOptions{Delimiter: '|'})
		if err != nil {
			return nil, err
		}
		columnar.ComputeStats(nt)
		return nt, nil
	})
	if err != nil {
		d.t.Fatal(err)
	}
	if d.oracle == nil || len(lines) == 0 {
		return
	}
	tx, err := d.oracle.Begin()
	if err != nil {
		d.t.Fatal(err)
	}
	tb, _ := d.cat.Table(table)
	marks := strings.TrimSuffix(strings.Repeat("?,", len(tb.Fields)), ",")
	stmt, err := tx.Prepare(fmt.Sprintf("INSERT INTO %s VALUES (%s)", table, marks))
	if err != nil {
		d.t.Fatal(err)
	}
	for _, l := range lines {
		fs := strings.Split(l, "|")
		args := make([]any, len(tb.Fields))
		for i, f := range tb.Fields {
			switch {
			case fs[i] == `\N` || (fs[i] == "" && f.Type.ID != columnar.String):
				args[i] = nil
			case f.Type.ID == columnar.String || f.Type.ID == columnar.Date || f.Type.ID == columnar.Datetime:
				args[i] = fs[i]
			case f.Type.ID == columnar.Float64 || f.Type.ID == columnar.Decimal:
				v, _ := strconv.ParseFloat(fs[i], 64)
				args[i] = v
			default:
				v, _ := strconv.ParseInt(fs[i], 10, 64)
				args[i] = v
			}
		}
		if _, err := stmt.Exec(args...); err != nil {
			d.t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		d.t.Fatal(err)
	}
}

func (d *testDB) plan(q string, opts planner.Options) *planner.Physical {
	d.t.Helper()
	st := d.bind(q)
	query, ok := st.(*sql.Query)
	if !ok {
		d.t.Fatalf("%q is not a query", q)
	}
	p, err := planner.Plan(query, opts)
	if err != nil {
		d.t.Fatalf("plan %q: %v", q, err)
	}
	return p
}

// run plans and runs q on the CPU executor and returns its rows formatted.
func (d *testDB) run(q string, opts planner.Options) [][]string {
	d.t.Helper()
	p := d.plan(q, opts)
	res, err := cpu.Run(context.Background(), p)
	if err != nil {
		d.t.Fatalf("run %q (%+v): %v\n%s", q, opts, err, p.Explain())
	}
	return formatResult(res)
}

func formatResult(res *exec.Result) [][]string {
	rows := make([][]string, res.Rows)
	for r := range rows {
		rows[r] = make([]string, len(res.Columns))
		for c, col := range res.Columns {
			rows[r][c] = formatCell(col, r)
		}
	}
	return rows
}

func formatCell(col *columnar.Column, r int) string {
	if col.IsNull(r) {
		return "NULL"
	}
	switch col.Type.ID {
	case columnar.String:
		return col.StringAt(r)
	case columnar.Vector:
		return columnar.VectorText(col.VectorAt(r))
	case columnar.Float64:
		return strconv.FormatFloat(col.F64[r], 'g', 10, 64)
	case columnar.Decimal:
		v := col.I64[r]
		s := col.Type.Scale
		if s == 0 {
			return strconv.FormatInt(v, 10)
		}
		neg := v < 0
		if neg {
			v = -v
		}
		str := strconv.FormatInt(v, 10)
		for len(str) <= s {
			str = "0" + str
		}
		str = str[:len(str)-s] + "." + str[len(str)-s:]
		if neg {
			str = "-" + str
		}
		return str
	case columnar.Date:
		days := col.Int64At(r)
		return formatDays(days)
	case columnar.Datetime:
		return columnar.FormatDatetime(col.I64[r], col.Type.Scale)
	}
	return strconv.FormatInt(col.Int64At(r), 10)
}

func formatDays(days int64) string {
	y, m, dd := civil(days)
	return fmt.Sprintf("%04d-%02d-%02d", y, m, dd)
}

func civil(z int64) (int64, int64, int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// oracleRows runs q on SQLite.
func (d *testDB) oracleRows(q string) [][]string {
	d.t.Helper()
	rs, err := d.oracle.Query(q)
	if err != nil {
		d.t.Fatalf("sqlite %q: %v", q, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out [][]string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			d.t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				row[i] = "NULL"
			case int64:
				row[i] = strconv.FormatInt(v, 10)
			case float64:
				row[i] = strconv.FormatFloat(v, 'g', 10, 64)
			case []byte:
				row[i] = string(v)
			case string:
				row[i] = v
			default:
				row[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row)
	}
	return out
}

// normalize renders numbers comparably (decimals and doubles to 6
// significant digits) so SQLite's REAL and our DECIMAL agree.
func normalize(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, c := range r {
			if f, err := strconv.ParseFloat(c, 64); err == nil && strings.ContainsAny(c, ".e") {
				if f == math.Trunc(f) && math.Abs(f) < 1e15 {
					c = strconv.FormatInt(int64(f), 10)
				} else {
					c = strconv.FormatFloat(f, 'g', 6, 64)
				}
			}
			out[i][j] = c
		}
	}
	return out
}

func sortedRows(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, "|")
	}
	sort.Strings(out)
	return out
}

func rowsText(rows [][]string) string {
	var sb strings.Builder
	for _, r := range rows {
		sb.WriteString(strings.Join(r, "|"))
		sb.WriteString("\n")
	}
	return sb.String()
}

// allOptions are the strategy combinations every query is run under.
var allOptions = []planner.Options{
	{},
	{Join: "hash", GroupBy: "hash"},
	{Join: "hash", GroupBy: "dense"},
	{Join: "merge", GroupBy: "hash"},
	{Join: "merge", GroupBy: "dense"},
	{Join: "bitmap"},
	{Join: "twopass"},
}
