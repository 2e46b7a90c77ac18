package planner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// statsTable is a table of int64 columns that carries statistics only (no
// rows are read by the planner): rows rows, and per column its range and
// whether its chunks hold disjoint ranges (a sorted, unique key) or each
// draw `distinct` values from the whole range.
type statsCol struct {
	name     string
	min, max int64
	distinct int // per chunk, for overlapping chunks; 0: sorted unique
	// sorted: with distinct 0, the chunks also say their rows are in key
	// order (ChunkStats.Sorted, as a load of sorted rows computes).
	sorted bool
}

func statsTable(name string, rows int, cols ...statsCol) *columnar.Table {
	t := &columnar.Table{Name: name, Rows: rows}
	chunks := t.NumChunks()
	for _, c := range cols {
		t.Fields = append(t.Fields, columnar.Field{Name: c.name, Type: columnar.TInt64})
		t.Columns = append(t.Columns, &columnar.Column{Type: columnar.TInt64})
		st := make([]columnar.ChunkStats, chunks)
		for i := range st {
			n := min(columnar.ChunkRows, rows-i*columnar.ChunkRows)
			st[i] = columnar.ChunkStats{Min: c.min, Max: c.max, Distinct: c.distinct}
			if c.distinct == 0 { // disjoint, evenly spread ranges
				w := (c.max - c.min + 1) / int64(chunks)
				st[i] = columnar.ChunkStats{Min: c.min + int64(i)*w, Max: c.min + int64(i+1)*w - 1, Distinct: n, Sorted: c.sorted}
			}
		}
		t.Stats = append(t.Stats, st)
	}
	return t
}

// TestJoinAlgorithmsGolden: with statistics of large tables and the h100
// profile, the planner's cost rules pick each join algorithm for at least
// one query (testdata/explain/joins_h100.txt; go test ./planner -update).
func TestJoinAlgorithmsGolden(t *testing.T) {
	cat := catalog.New()
	const m = 1 << 20
	cat.Put(statsTable("fact", 64*m,
		statsCol{"f_dim", 0, m - 1, 60000, false},        // a dense foreign key
		statsCol{"f_key", 0, 1<<31 - 1, 0, false},        // unique over 2^31
		statsCol{"f_wide", 0, 8*m - 1, 65000, false},     // mostly misses dim2
		statsCol{"f_dup", 0, 512*1024 - 1, 60000, false}, // matches dup's heavy keys
		statsCol{"f_seq", 0, 1<<31 - 1, 0, true},         // loaded in key order
	))
	cat.Put(statsTable("dim", m, statsCol{"d_key", 0, m - 1, 0, false}))
	cat.Put(statsTable("dim2", 2*m, statsCol{"d2_key", 0, 2*m - 1, 0, false}))
	cat.Put(statsTable("big", 16*m, statsCol{"b_key", 0, 1<<31 - 1, 0, false}))
	cat.Put(statsTable("mid", 100000, statsCol{"m_key", 0, 1<<31 - 1, 0, false}))
	cat.Put(statsTable("dup", 8*m, statsCol{"du_key", 0, 512*1024 - 1, 60000, false}))
	cat.Put(statsTable("seq", 16*m, statsCol{"s_key", 0, 1<<31 - 1, 0, true}))
	queries := []struct{ name, sql, join string }{
		{"DirectArray", "select count(*) from fact join dim on f_dim = d_key", ""},
		{"HashTable", "select count(*) from fact join mid on f_key = m_key", ""},
		{"Bitmap semi join", "select count(*) from fact where f_dim in (select d_key from dim where d_key < 1000)", ""},
		{"Bitmap filter + direct array", "select count(*) from fact join dim2 on f_wide = d2_key", ""},
		{"BucketedBitmap", "select count(*) from fact where f_key in (select b_key from big)", ""},
		{"SortMergeJoin", "select count(*) from fact join dup on f_dup = du_key", ""},
		{"HashTable two-pass", "select count(*) from fact join big on f_key = b_key", ""},
		{"SortMergeJoin on inputs sorted on the key", "select count(*) from (select f_key from fact order by f_key limit 100000000) a " +
			"join (select b_key from big order by b_key limit 100000000) b on f_key = b_key", ""},
		{"SortMergeJoin on tables loaded sorted on the key", "select count(*) from fact join seq on f_seq = s_key where s_key > 1000", ""},
		{"SortMergeJoin with one input sorted (join_algorithm = merge)",
			"select count(*) from fact join (select d_key from dim order by d_key limit 100000000) b on f_dim = d_key", "merge"},
	}
	prof, err := planner.LookupGPUProfile("h100")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, q := range queries {
		ps, err := sql.Parse(q.sql)
		if err != nil {
			t.Fatal(err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.Plan(st.(*sql.Query), planner.Options{GPU: prof, Join: q.join})
		if err != nil {
			t.Fatal(err)
		}
		ex := p.Explain()
		want := strings.Fields(q.name)[0]
		if !strings.Contains(ex, want) || (strings.HasSuffix(q.name, "two-pass") != strings.Contains(ex, "two-pass")) {
			t.Errorf("%s: the planner did not choose it:\n%s", q.name, ex)
		}
		if strings.Contains(q.name, "sorted") != strings.Contains(ex, "not sorted again") {
			t.Errorf("%s: EXPLAIN should say which inputs are not sorted again:\n%s", q.name, ex)
		}
		out.WriteString("-- " + q.name + "\n" + q.sql + "\n\n" + ex + "\n\n")
	}
	path := filepath.Join(goldenDir, "joins_h100.txt")
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./planner -update)", err)
	}
	if out.String() != string(want) {
		t.Errorf("join plans changed:\n%s\nwant:\n%s", out.String(), want)
	}
}
