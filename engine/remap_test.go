package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpusql/storage/ssbgen"
)

// remapDB is a database whose table f (k: 40 values, skewed; v: distinct
// per row) passes the remap row minimum.
func remapDB(t *testing.T, mode string) (*DB, string) {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		k := i % 40
		if i%3 != 0 {
			k = 7 // the hot value
		}
		fmt.Fprintf(&b, "%d,%d\n", k, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(Options{Executor: "cpu", Remap: mode, RemapMinRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), "create table f (k int, v int); load data infile 'f.csv' into table f fields terminated by ','", dir); err != nil {
		t.Fatal(err)
	}
	return db, dir
}

func analyzeRows(t *testing.T, db *DB) []string {
	t.Helper()
	res, err := db.Exec(context.Background(), "analyze table f", "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	r := res[0].Result
	for i := 0; i < r.Rows; i++ {
		out = append(out, r.Columns[2].Dict.Values[r.Columns[2].I32[i]]+": "+r.Columns[3].Dict.Values[r.Columns[3].I32[i]])
	}
	return out
}

// ANALYZE TABLE remaps the small-domain column k (not v, whose 5,000
// values do not fit shared memory), says so in a note row, and a write
// to k drops the remap until the next ANALYZE.
func TestAnalyzeBuildsRemaps(t *testing.T) {
	db, _ := remapDB(t, "")
	if got := db.Catalog().Remaps("f"); len(got) != 0 {
		t.Fatalf("LOAD built %d remaps in the default (analyze) mode", len(got))
	}
	rows := analyzeRows(t, db)
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "note: k remapped: 40 values") || rows[1] != "status: OK" {
		t.Fatalf("ANALYZE rows %q", rows)
	}
	rs := db.Catalog().Remaps("f")
	if len(rs) != 1 || rs[0].Column != "k" || rs[0].MeanRounds() >= rs[0].MeanPlainRounds() {
		t.Fatalf("remaps after ANALYZE: %+v", rs)
	}
	if _, err := db.Exec(context.Background(), "update f set k = 8 where v = 3", ""); err != nil {
		t.Fatal(err)
	}
	if got := db.Catalog().Remaps("f"); len(got) != 0 {
		t.Errorf("an UPDATE of k left %d remaps", len(got))
	}
	if rows := analyzeRows(t, db); len(rows) != 2 || len(db.Catalog().Remaps("f")) != 1 {
		t.Errorf("ANALYZE after the UPDATE: %q", rows)
	}
}

// Mode load remaps right after LOAD; mode off never, ANALYZE included.
func TestRemapModes(t *testing.T) {
	db, _ := remapDB(t, "load")
	if got := db.Catalog().Remaps("f"); len(got) != 1 {
		t.Errorf("mode load: %d remaps after LOAD, want 1", len(got))
	}
	db, _ = remapDB(t, "off")
	if rows := analyzeRows(t, db); len(rows) != 1 || len(db.Catalog().Remaps("f")) != 0 {
		t.Errorf("mode off: ANALYZE rows %q, %d remaps", rows, len(db.Catalog().Remaps("f")))
	}
	if _, err := Open(Options{Remap: "always"}); err == nil {
		t.Error("Open accepted remap mode always")
	}
}

// A database directory keeps the remaps ANALYZE TABLE built: reopened
// (in the default mode, which builds none at open) the same slots are
// there, CHECK DATABASE checks their file, a write to the column drops
// the file, and a damaged file is left out at open instead of failing it.
func TestRemapPersisted(t *testing.T) {
	_, dir := remapDB(t, "")
	path := filepath.Join(t.TempDir(), "db")
	open := func(mode string) *DB {
		t.Helper()
		db, err := Open(Options{Executor: "cpu", Path: path, NoSync: true, Remap: mode, RemapMinRows: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	remapFiles := func() []string {
		m, _ := filepath.Glob(filepath.Join(path, "*.remap"))
		return m
	}
	db := open("")
	if _, err := db.Exec(context.Background(), "create table f (k int, v int); load data infile 'f.csv' into table f fields terminated by ','", dir); err != nil {
		t.Fatal(err)
	}
	analyzeRows(t, db)
	built := db.Catalog().Remaps("f")
	if len(built) != 1 || len(remapFiles()) != 1 {
		t.Fatalf("after ANALYZE: %d remaps, files %v", len(built), remapFiles())
	}
	db.Close()

	db = open("")
	got := db.Catalog().Remaps("f")
	if len(got) != 1 || got[0] == built[0] || !slices.Equal(got[0].Slots, built[0].Slots) ||
		!slices.Equal(got[0].SlotValue, built[0].SlotValue) || got[0].Min != built[0].Min || got[0].Codes != built[0].Codes ||
		got[0].NullCode != built[0].NullCode || got[0].Rounds != built[0].Rounds || got[0].Options != built[0].Options {
		t.Fatalf("reopened: remaps %+v, want a copy of %+v", got, built)
	}
	if got := tableText(t, db, "CHECK DATABASE"); got != "||ok (2 column files and 1 remap file verified)" {
		t.Fatalf("CHECK DATABASE: %s", got)
	}
	if _, err := db.Exec(context.Background(), "update f set k = 8 where v = 3", ""); err != nil {
		t.Fatal(err)
	}
	if n := len(remapFiles()); n != 0 || len(db.Catalog().Remaps("f")) != 0 {
		t.Errorf("after an UPDATE of k: %d remap files, %d remaps", n, len(db.Catalog().Remaps("f")))
	}
	analyzeRows(t, db)
	db.Close()

	files := remapFiles()
	if len(files) != 1 {
		t.Fatalf("remap files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff // the last slot value
	if err := os.WriteFile(files[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	db = open("")
	defer db.Close()
	if got := db.Catalog().Remaps("f"); len(got) != 0 {
		t.Errorf("a damaged remap file was used: %+v", got)
	}
	if res, err := db.Exec(context.Background(), "select count(*) from f where k = 7", ""); err != nil || res[0].Result.Rows != 1 {
		t.Errorf("query after a damaged remap: %v", err)
	}
}

// Mode load builds the remaps a database directory does not keep when it
// opens.
func TestRemapRebuiltOnOpen(t *testing.T) {
	_, dir := remapDB(t, "")
	path := filepath.Join(t.TempDir(), "db")
	db, err := Open(Options{Executor: "cpu", Path: path, NoSync: true, Remap: "off"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), "create table f (k int, v int); load data infile 'f.csv' into table f fields terminated by ','", dir); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(Options{Executor: "cpu", Path: path, NoSync: true, Remap: "load", RemapMinRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.Catalog().Remaps("f"); len(got) != 1 || got[0].Column != "k" {
		t.Errorf("reopened in mode load: remaps %v, want k's", got)
	}
}

// End to end without a GPU: EXPLAIN for the h100 profile shows the star
// reading d's payload in f.k's remapped layout once ANALYZE TABLE built
// the remap (40 keys, 4 copies at most), and not after a write to f.
func TestExplainRemappedPayload(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "%d,%d\n", 1+i%40, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte("1,a\n2,b\n3,a\n40,c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(Options{Executor: "gpu", GPUProfile: "h100", RemapMinRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	setup := "create table f (k int, v int); load data infile 'f.csv' into table f fields terminated by ',';" +
		"create table d (dk int, name varchar(10)); load data infile 'd.csv' into table d fields terminated by ','"
	if _, err := db.Exec(ctx, setup, dir); err != nil {
		t.Fatal(err)
	}
	explain := func() string {
		t.Helper()
		res, err := db.Exec(ctx, "explain select d.name, sum(f.v) from f join d on f.k = d.dk group by d.name", "")
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		r := res[len(res)-1].Result
		for i := 0; i < r.Rows; i++ {
			sb.WriteString(r.Columns[0].Dict.Values[r.Columns[0].I32[i]] + "\n")
		}
		return sb.String()
	}
	const want = "payload: shared memory, remapped by f.k (160 slots, 3.80 copies per key"
	if got := explain(); strings.Contains(got, "payload:") {
		t.Errorf("EXPLAIN before ANALYZE shows a payload choice:\n%s", got)
	}
	if _, err := db.Exec(ctx, "analyze table f", ""); err != nil {
		t.Fatal(err)
	}
	if got := explain(); !strings.Contains(got, want) {
		t.Errorf("EXPLAIN after ANALYZE lacks %q:\n%s", want, got)
	}
	// (UPDATE would need the GPU; a LOAD appending rows writes f.k too.)
	if _, err := db.Exec(ctx, "load data infile 'f.csv' into table f fields terminated by ','", dir); err != nil {
		t.Fatal(err)
	}
	if got := explain(); strings.Contains(got, "payload:") {
		t.Errorf("EXPLAIN after a write to f.k still reads a remap:\n%s", got)
	}
}

// End to end without a GPU: a group table of too many groups for more
// than one shared copy is laid out by the group column's remap once
// ANALYZE TABLE built it and the remap measured fewer rounds than the
// plain copy; a column of uniform values keeps the layout rule's choice
// and EXPLAIN says why.
func TestExplainRemappedGroupTable(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i, k := range ssbgen.ZipfColumn(20000, 1500, 1.2, 3) {
		fmt.Fprintf(&b, "%d,%d,%d\n", k, i%1500, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(Options{Executor: "gpu", GPUProfile: "h100", RemapMinRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.Exec(ctx, "create table f (k int, u int, v int); load data infile 'f.csv' into table f fields terminated by ','", dir); err != nil {
		t.Fatal(err)
	}
	groupLine := func(col string) string {
		t.Helper()
		res, err := db.Exec(ctx, "explain select "+col+", count(*), sum(v) from f group by "+col, "")
		if err != nil {
			t.Fatal(err)
		}
		r := res[len(res)-1].Result
		for i := 0; i < r.Rows; i++ {
			if line := r.Columns[0].Dict.Values[r.Columns[0].I32[i]]; strings.Contains(line, "group table:") {
				return line
			}
		}
		t.Fatalf("no group table line in EXPLAIN of group by %s", col)
		return ""
	}
	if got := groupLine("k"); strings.Contains(got, "remapped") {
		t.Errorf("before ANALYZE: %s", got)
	}
	if _, err := db.Exec(ctx, "analyze table f", ""); err != nil {
		t.Fatal(err)
	}
	if got := groupLine("k"); !strings.Contains(got, "remapped shared memory, by f.k (") {
		t.Errorf("after ANALYZE, skewed k: %s", got)
	}
	if got := groupLine("u"); !strings.Contains(got, "not remapped: f.u has a remap, but it measured") {
		t.Errorf("after ANALYZE, uniform u: %s", got)
	}
}
