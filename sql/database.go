package sql

import (
	"strings"
)

// Statements about the database as a whole, in the spellings of DuckDB and
// SQLite (MySQL has none of them, and the TiDB parser rejects them): they
// are cut out of a script before parsing like stored programs
// (routines.go) and bound here from their words.

// Checkpoint is CHECKPOINT or VACUUM [table]: fold pending changes into the
// database files.
type Checkpoint struct{}

// CheckDatabase is CHECK DATABASE or PRAGMA integrity_check: verify the
// checksum of every byte of the database files.
type CheckDatabase struct{}

// ExportDatabase is EXPORT DATABASE 'dir': schema.sql plus a Parquet file
// per table.
type ExportDatabase struct{ Dir string }

// ImportDatabase is IMPORT DATABASE 'dir': run an exported schema.sql,
// loading its Parquet files.
type ImportDatabase struct{ Dir string }

func (*Checkpoint) statement()     {}
func (*CheckDatabase) statement()  {}
func (*ExportDatabase) statement() {}
func (*ImportDatabase) statement() {}

// databaseCommand names the database statement starting with word w (the
// scanner positioned after it), or "".
func databaseCommand(w string, sc *wordScanner) string {
	switch u := strings.ToUpper(w); u {
	case "CHECKPOINT", "VACUUM", "PRAGMA":
		return u
	case "CHECK", "EXPORT", "IMPORT":
		save := sc.pos
		if _, n := sc.next(); strings.EqualFold(n, "DATABASE") {
			return u + " DATABASE"
		}
		sc.pos = save
	}
	return ""
}

var databaseCommands = map[string]bool{"CHECKPOINT": true, "VACUUM": true, "PRAGMA": true,
	"CHECK DATABASE": true, "EXPORT DATABASE": true, "IMPORT DATABASE": true}

// bindDatabaseCommand binds the text of a database statement of kind.
func (b *binder) bindDatabaseCommand(kind, text string) (Statement, error) {
	sc := wordScanner{s: text}
	var words []string
	for {
		_, w := sc.next()
		if w == "" || w == ";" {
			break
		}
		words = append(words, w)
	}
	switch kind {
	case "CHECKPOINT":
		if len(words) == 1 {
			return &Checkpoint{}, nil
		}
	case "VACUUM":
		if len(words) <= 2 {
			return &Checkpoint{}, nil
		}
	case "CHECK DATABASE":
		if len(words) == 2 {
			return &CheckDatabase{}, nil
		}
	case "PRAGMA":
		if len(words) == 2 && (strings.EqualFold(words[1], "integrity_check") || strings.EqualFold(words[1], "quick_check")) {
			return &CheckDatabase{}, nil
		}
		return nil, b.errf(b.start, "unsupported: PRAGMA %s (only PRAGMA integrity_check)", strings.Join(words[1:], " "))
	case "EXPORT DATABASE", "IMPORT DATABASE":
		if len(words) == 3 && len(words[2]) >= 2 && (words[2][0] == '\'' || words[2][0] == '"') {
			dir := strings.ReplaceAll(words[2][1:len(words[2])-1], `''`, `'`)
			if dir == "" {
				return nil, b.errf(b.start, "%s needs a directory", kind)
			}
			if kind == "EXPORT DATABASE" {
				return &ExportDatabase{Dir: dir}, nil
			}
			return &ImportDatabase{Dir: dir}, nil
		}
		return nil, b.errf(b.start, "syntax: %s 'directory'", kind)
	}
	return nil, b.errf(b.start, "syntax error in %s: %s", kind, text)
}
