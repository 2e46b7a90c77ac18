package engine

import (
	"strings"
	"testing"
)

// An index's COMMENT, from KEY ... COMMENT in CREATE TABLE, CREATE INDEX
// or ALTER TABLE ADD, is kept as MySQL 8 keeps it: written after the key's
// columns by SHOW CREATE TABLE (the text reads back the same), shown as
// SHOW INDEX's Index_comment and STATISTICS' INDEX_COMMENT.
func TestIndexComment(t *testing.T) {
	db := open(t)
	mustRun(t, db, `CREATE TABLE t (a INT, b INT, c INT NOT NULL, KEY kb (b) COMMENT 'bee''s', PRIMARY KEY (c) COMMENT 'pk');
		CREATE INDEX i ON t (a) COMMENT 'x'; ALTER TABLE t ADD UNIQUE u (a, b) COMMENT 'uu'`)
	want := "t|CREATE TABLE `t` (\n" +
		"  `a` int DEFAULT NULL,\n" +
		"  `b` int DEFAULT NULL,\n" +
		"  `c` int NOT NULL,\n" +
		"  PRIMARY KEY (`c`) COMMENT 'pk',\n" +
		"  UNIQUE KEY `u` (`a`,`b`) COMMENT 'uu',\n" +
		"  KEY `kb` (`b`) COMMENT 'bee\\'s',\n" +
		"  KEY `i` (`a`) COMMENT 'x'\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	got := tableText(t, db, "SHOW CREATE TABLE t")
	if got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	mustRun(t, db, "DROP TABLE t; "+strings.TrimPrefix(got, "t|"))
	if again := tableText(t, db, "SHOW CREATE TABLE t"); again != want {
		t.Errorf("SHOW CREATE TABLE after reading its text back:\n%s", again)
	}
	stats := "SELECT INDEX_NAME, INDEX_COMMENT FROM information_schema.STATISTICS WHERE TABLE_NAME = 't'"
	if got, want := tableText(t, db, stats), "PRIMARY|pk;u|uu;u|uu;kb|bee's;i|x"; got != want {
		t.Errorf("%s:\n%s\nwant:\n%s", stats, got, want)
	}
	show := tableText(t, db, "SHOW INDEX FROM t")
	for _, part := range []string{"|kb|1|b|A|0|NULL|NULL|YES|BTREE||bee's|YES|NULL", "|PRIMARY|1|c|A|0|NULL|NULL||BTREE||pk|YES|NULL"} {
		if !strings.Contains(show, part) {
			t.Errorf("SHOW INDEX lacks %s:\n%s", part, show)
		}
	}
}

// A key part written DESC keeps its order as MySQL 8 keeps it: SHOW
// CREATE TABLE writes `a` DESC, SHOW INDEX and STATISTICS give Collation
// 'D'; dropping a column of the key keeps the others' marks.
func TestIndexDesc(t *testing.T) {
	db := open(t)
	mustRun(t, db, `CREATE TABLE t (a INT, b INT, c INT NOT NULL, KEY k (a DESC, b, c DESC), PRIMARY KEY (c DESC));
		CREATE INDEX j ON t (b DESC); ALTER TABLE t DROP COLUMN a`)
	want := "t|CREATE TABLE `t` (\n" +
		"  `b` int DEFAULT NULL,\n" +
		"  `c` int NOT NULL,\n" +
		"  PRIMARY KEY (`c` DESC),\n" +
		"  KEY `k` (`b`,`c` DESC),\n" +
		"  KEY `j` (`b` DESC)\n" +
		") DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
	if got := tableText(t, db, "SHOW CREATE TABLE t"); got != want {
		t.Errorf("SHOW CREATE TABLE:\n%s\nwant:\n%s", got, want)
	}
	stats := "SELECT INDEX_NAME, COLUMN_NAME, COLLATION FROM information_schema.STATISTICS WHERE TABLE_NAME = 't'"
	if got, want := tableText(t, db, stats), "PRIMARY|c|D;k|b|A;k|c|D;j|b|D"; got != want {
		t.Errorf("%s:\n%s\nwant:\n%s", stats, got, want)
	}
	if show := tableText(t, db, "SHOW INDEX FROM t"); !strings.Contains(show, "t|1|k|2|c|D|") {
		t.Errorf("SHOW INDEX lacks k's c with Collation D:\n%s", show)
	}
}

// A key part's prefix length is kept as MySQL 8 keeps it: SHOW CREATE
// TABLE writes `c`(10), SHOW INDEX's Sub_part and STATISTICS.SUB_PART give
// 10; a prefix as long as a VARCHAR(n) is the whole column (NULL), and
// dropping a column of the key keeps the other parts' prefixes.
func TestIndexPrefix(t *testing.T) {
	db := open(t)
	mustRun(t, db, `CREATE TABLE t (a INT, b VARCHAR(3), c TEXT, KEY k (a, b(2), c(10)), UNIQUE KEY u (b(3)));
		CREATE INDEX j ON t (c(4) DESC); ALTER TABLE t DROP COLUMN a`)
	show := tableText(t, db, "SHOW CREATE TABLE t")
	for _, want := range []string{"  UNIQUE KEY `u` (`b`),\n", "  KEY `k` (`b`(2),`c`(10)),\n", "  KEY `j` (`c`(4) DESC)\n"} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, show)
		}
	}
	stats := "SELECT INDEX_NAME, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_NAME = 't'"
	if got, want := tableText(t, db, stats), "u|b|NULL;k|b|2;k|c|10;j|c|4"; got != want {
		t.Errorf("%s:\n%s\nwant:\n%s", stats, got, want)
	}
	show = tableText(t, db, "SHOW INDEX FROM t")
	for _, want := range []string{"t|0|u|1|b|A|0|NULL|", "t|1|k|1|b|A|0|2|", "t|1|k|2|c|A|0|10|", "t|1|j|1|c|D|0|4|"} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW INDEX lacks %q:\n%s", want, show)
		}
	}
}
