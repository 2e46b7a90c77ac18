package columnar

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestFormatsAgree loads each SSB table that GPUSQL_BENCH_DIR holds as
// .tbl, .csv (header, RFC 4180 quoting) and .parquet, all written by one
// generator run, and checks the three tables are identical.
func TestFormatsAgree(t *testing.T) {
	dir := os.Getenv("GPUSQL_BENCH_DIR")
	if dir == "" {
		t.Skip("set GPUSQL_BENCH_DIR to a folder of SSB tables as .tbl, .csv and .parquet")
	}
	schema := ssbSchema(t)
	for name, fields := range schema {
		base := filepath.Join(dir, name)
		if _, err := os.Stat(base + ".tbl"); err != nil {
			continue
		}
		empty := NewEmptyTable(name, fields)
		want := mustLoad(t, empty, base+".tbl", tbl)
		loads := map[string]func() (*Table, error){
			"csv":     func() (*Table, error) { return LoadDelimited(empty, base+".csv", csvOpts) },
			"parquet": func() (*Table, error) { return LoadParquet(empty, base+".parquet", ParquetOptions{}) },
		}
		for format, load := range loads {
			got, err := load()
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Errorf("%s.%s: %v", name, format, err)
				continue
			}
			if got.Rows != want.Rows {
				t.Errorf("%s.%s: %d rows, .tbl has %d", name, format, got.Rows, want.Rows)
				continue
			}
			for c := range fields {
				g, w := got.Columns[c], want.Columns[c]
				same := reflect.DeepEqual(g.I32, w.I32) && reflect.DeepEqual(g.I64, w.I64) && g.HasNulls() == w.HasNulls()
				if g.Dict != nil {
					same = same && reflect.DeepEqual(g.Dict.Values, w.Dict.Values)
				}
				if !same || !reflect.DeepEqual(got.Stats[c], want.Stats[c]) {
					t.Errorf("%s.%s column %s differs from the .tbl load", name, format, fields[c].Name)
				}
			}
			t.Logf("%s.%s: %d rows agree", name, format, got.Rows)
		}
	}
}
