package planner_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gpusql/catalog"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	ssbDir    = "/work/shared/ssb"
	goldenDir = "../testdata/explain"
	// goldenSF is the scale factor whose statistics the golden plans use.
	goldenSF = 0.1
)

var (
	ssbOnce sync.Once
	ssbCat  *catalog.Catalog
	ssbErr  error
)

// ssbCatalog generates and loads SSB data at goldenSF once per test binary.
func ssbCatalog(t testing.TB) *catalog.Catalog {
	ssbOnce.Do(func() {
		dir := filepath.Join(os.TempDir(), "gpusql-ssb-sf0.1")
		if ssbErr = ensureSSB(dir, goldenSF); ssbErr != nil {
			return
		}
		schema, err := os.ReadFile(filepath.Join(ssbDir, "schema.sql"))
		if err != nil {
			ssbErr = err
			return
		}
		ps, err := sql.Parse(string(schema))
		if err != nil {
			ssbErr = err
			return
		}
		cat := catalog.New()
		for _, p := range ps {
			st, err := sql.Bind(cat, p)
			if err != nil {
				ssbErr = err
				return
			}
			switch st := st.(type) {
			case *sql.CreateTable:
				ssbErr = cat.Create(st.Name, st.Fields, false)
			case *sql.Load:
				ssbErr = cat.Update(st.Table, func(old *columnar.Table) (*columnar.Table, error) {
					nt, err := columnar.LoadDelimited(old, filepath.Join(dir, st.Path),
						columnar.DelimitedOptions{Delimiter: st.Delimiter})
					if err != nil {
						return nil, err
					}
					columnar.ComputeStats(nt)
					return nt, nil
				})
			}
			if ssbErr != nil {
				return
			}
		}
		ssbCat = cat
	})
	if ssbErr != nil {
		t.Fatal(ssbErr)
	}
	return ssbCat
}

// TestSSBExplainGolden compares the EXPLAIN of the 13 SSB queries (with
// statistics of generated SF 0.1 data) with testdata/explain/ssb_*.txt;
// go test ./planner -update rewrites them.
func TestSSBExplainGolden(t *testing.T) {
	cat := ssbCatalog(t)
	text, err := os.ReadFile(filepath.Join(ssbDir, "queries.sql"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := sql.Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for i, p := range ps {
		name := "Q" + string(rune('0'+i))
		if p.Line >= 2 && strings.HasPrefix(lines[p.Line-2], "-- ") {
			name = strings.TrimPrefix(lines[p.Line-2], "-- ")
		}
		st, err := sql.Bind(cat, p)
		if err != nil {
			t.Fatal(err)
		}
		phys, err := planner.Plan(st.(*sql.Query), planner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := "-- " + name + "\n" + strings.TrimSpace(p.Text) + "\n\n" + phys.Explain()
		path := filepath.Join(goldenDir, "ssb_"+name+".txt")
		if *update {
			if err := os.MkdirAll(goldenDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./planner -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s plan changed:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// ensureSSB generates SSB data at sf into dir unless it is there: into a
// fresh folder renamed into place, so an interrupted or concurrent run never
// leaves a partial one.
func ensureSSB(dir string, sf float64) error {
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := ssbgen.Generate(ssbgen.Options{SF: sf, Out: tmp}); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "done"), nil, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "done")); serr == nil {
			return nil
		}
		return err
	}
	return nil
}
