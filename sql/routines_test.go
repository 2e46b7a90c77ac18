package sql

import (
	"strings"
	"testing"

	"gpusql/catalog"
)

// A stored program's body keeps its inner ';': the statements after it
// parse as written, at their own lines, and the program binds to a clear
// "unsupported" error.
func TestStoredProgramsAreOneStatement(t *testing.T) {
	script := `CREATE TABLE t (a INT);
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW
BEGIN
  IF NEW.a < 0 THEN SET NEW.a = 0; END IF;
  CASE WHEN NEW.a > 5 THEN SET NEW.a = 5; ELSE BEGIN END; END CASE;
  SET @x = CASE NEW.a WHEN 1 THEN 'a;' ELSE "END;" END; -- ; end
END;
INSERT INTO t VALUES (1);
CREATE DEFINER = 'root'@'%' PROCEDURE p() BEGIN SELECT 1; END;
DROP TRIGGER IF EXISTS tr;
SELECT a FROM t`
	stmts, err := Parse(script)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line   int
		prefix string
		kind   string
	}{
		{1, "CREATE TABLE", ""},
		{2, "CREATE TRIGGER", "CREATE TRIGGER"},
		{8, "INSERT INTO", ""},
		{9, "CREATE DEFINER", "CREATE PROCEDURE"},
		{10, "DROP TRIGGER", "DROP TRIGGER"},
		{11, "SELECT a", ""},
	}
	if len(stmts) != len(want) {
		t.Fatalf("got %d statements, want %d: %+v", len(stmts), len(want), stmts)
	}
	for i, w := range want {
		s := stmts[i]
		if s.Line != w.line || !strings.HasPrefix(s.Text, w.prefix) || s.routine != w.kind {
			t.Errorf("statement %d: line %d %q (%s), want line %d %q (%s)", i, s.Line, s.Text, s.routine, w.line, w.prefix, w.kind)
		}
	}
	if !strings.HasSuffix(stmts[1].Text, "END") {
		t.Errorf("trigger text cut short: %q", stmts[1].Text)
	}
	_, err = Bind(catalog.New(), stmts[1])
	if err == nil || !strings.Contains(err.Error(), "line 2:1: unsupported: CREATE TRIGGER") {
		t.Errorf("binding the trigger: %v", err)
	}
}
