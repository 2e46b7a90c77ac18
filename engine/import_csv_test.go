package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gpusql/sql"
)

// IMPORT INTO ... FORMAT 'csv' skips no line unless skip_rows says so (as
// TiDB, whose statement it is): a file without a header keeps its first
// row (it used to lose it, silently), a header read as data fails on a
// typed column, and a '|' file names its delimiter.
func TestImportCSVHeader(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"plain.csv": "1,a\n2,b\n", "head.csv": "id,s\n1,a\n2,b\n", "pipe.txt": "id|s\n1|a\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := open(t)
	mustExec(t, db, "create table t (id int, s varchar(5))", dir)
	mustExec(t, db, "import into t from 'plain.csv' format 'csv'", dir)
	mustExec(t, db, "import into t from 'head.csv' format 'csv' with skip_rows=1", dir)
	mustExec(t, db, "import into t from 'pipe.txt' format 'csv' with fields_terminated_by='|', skip_rows=1", dir)
	if got := tableText(t, db, "select id, s from t order by id, s"); got != "1|a;1|a;1|a;2|b;2|b" {
		t.Errorf("loaded %s", got)
	}
	_, err := db.Exec(context.Background(), "import into t from 'head.csv' format 'csv'", dir)
	if code, msg := sql.MySQLCode(err); code != 1366 || msg != "Incorrect integer value: 'id' for column 'id' at row 1" {
		t.Errorf("a header read as data: got %d %q (%v), want 1366", code, msg, err)
	}
	_, err = db.Exec(context.Background(), "import into t from 'pipe.txt' format 'csv' with skip_rows=1", dir)
	if code, msg := sql.MySQLCode(err); code != 1261 || msg != "Row 1 doesn't contain data for all columns" {
		t.Errorf("'|' read as ',': got %d %q (%v), want 1261", code, msg, err)
	}
}
