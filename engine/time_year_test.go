package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const timeYearRows = "1|-34:00:00.250|2069;2|NULL|0000;3|838:59:59.000|NULL"

// TestTimeYearExportImport: EXPORT DATABASE writes TIME (Parquet
// time64[us]) and YEAR columns and IMPORT DATABASE reads them back into
// the declared TIME(3) / YEAR columns unchanged; COPY ... TO a CSV file
// writes their text.
func TestTimeYearExportImport(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "exp")
	db := open(t)
	mustRun(t, db, `CREATE TABLE ty (id INT, t TIME(3), y YEAR);
		INSERT INTO ty VALUES (1, '-34:00:00.25', '69'), (2, NULL, 0), (3, '838:59:59', NULL)`)
	if got := tableText(t, db, "SELECT id, t, y FROM ty ORDER BY id"); got != timeYearRows {
		t.Fatalf("stored %s", got)
	}
	mustRun(t, db, "EXPORT DATABASE '"+dir+"'")
	db2 := open(t)
	mustRun(t, db2, "IMPORT DATABASE '"+dir+"'")
	if got := tableText(t, db2, "SELECT id, t, y FROM ty ORDER BY id"); got != timeYearRows {
		t.Errorf("imported:\n%s\nwant:\n%s", got, timeYearRows)
	}
	if got := tableText(t, db2, "DESCRIBE ty"); !strings.Contains(got, "t|time(3)") || !strings.Contains(got, "y|year|") {
		t.Errorf("imported types: %s", got)
	}
	csv := filepath.Join(tmp, "ty.csv")
	mustRun(t, db, "COPY (SELECT t, y FROM ty ORDER BY id) TO '"+csv+"'")
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.Contains(got, "-34:00:00.250,2069") || !strings.Contains(got, ",0000") {
		t.Errorf("CSV:\n%s", got)
	}
}
