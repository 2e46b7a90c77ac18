package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ENUM and SET columns keep their members in a database directory and are
// checked on LOAD DATA as on INSERT.
func TestEnumSetReopenAndLoad(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, filepath.Join(dir, "db"))
	mustRun(t, db, "CREATE TABLE e (id INT, size ENUM('small','large') NOT NULL, tags SET('a','b'))")
	good, bad := filepath.Join(dir, "good.csv"), filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(good, []byte("1,LARGE,b\n2,small,\"b,a\"\n3,1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("4,small,a\n5,medium,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, "LOAD DATA INFILE '"+good+"' INTO TABLE e FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'")
	if _, err := db.Exec(context.Background(), "LOAD DATA INFILE '"+bad+"' INTO TABLE e FIELDS TERMINATED BY ','", ""); err == nil || !strings.Contains(err.Error(), "Data truncated for column 'size'") {
		t.Fatalf("LOAD DATA of a non-member gave %v, want Data truncated", err)
	}
	want := "CREATE TABLE `e` (\n" +
		"  `id` int DEFAULT NULL,\n" +
		"  `size` enum('small','large') NOT NULL DEFAULT 'small',\n" +
		"  `tags` set('a','b') DEFAULT NULL\n" +
		")"
	if got := showCreate(t, db, "e"); got != want {
		t.Fatalf("SHOW CREATE TABLE:\n%s\nwant\n%s", got, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, filepath.Join(dir, "db"))
	defer db.Close()
	if got := showCreate(t, db, "e"); got != want {
		t.Fatalf("SHOW CREATE TABLE after reopening:\n%s\nwant\n%s", got, want)
	}
	if got := tableText(t, db, "SELECT id, size, size + 0, tags, tags + 0 FROM e ORDER BY size DESC, id"); got != "1|large|2|b|2;2|small|1|a,b|3;3|small|1||0" {
		t.Fatalf("rows after reopening %q", got)
	}
	if _, err := db.Exec(context.Background(), "INSERT INTO e VALUES (9, 'tiny', NULL)", ""); err == nil {
		t.Fatal("a non-member inserted after reopening")
	}
}
