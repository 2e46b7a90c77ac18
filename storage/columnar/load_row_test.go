package columnar

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadDelimitedErrorRow: an error's Row is the record's number after
// the ignored lines (MySQL's "row N"), whatever block it falls in and
// however many lines quoted fields spread records over; Line stays the
// file's line.
func TestLoadDelimitedErrorRow(t *testing.T) {
	setBlockSize(t, 64)
	fields := []Field{{Name: "a", Type: TInt32, Nullable: true}, {Name: "b", Type: TString, Nullable: true}}
	// load writes a header and 40 two-line records, the one numbered bad
	// (from 1) with the first field given, then a short record (41).
	load := func(bad int, first string) error {
		var b strings.Builder
		b.WriteString("header\n")
		for i := 1; i <= 40; i++ {
			f := "1"
			if i == bad {
				f = first
			}
			b.WriteString(f + ",\"two\nlines\"\n")
		}
		b.WriteString("2\n")
		path := filepath.Join(t.TempDir(), "r.csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadDelimited(NewEmptyTable("r", fields), path, DelimitedOptions{Delimiter: ',', Enclosure: '"', IgnoreLines: 1})
		return err
	}
	var fe *FieldCountError
	if err := load(0, ""); !errors.As(err, &fe) || fe.Row != 41 || fe.Line != 82 {
		t.Errorf("short record: %v, want row 41, line 82", err)
	}
	var ve *FieldValueError
	if err := load(30, "x"); !errors.As(err, &ve) || ve.Row != 30 || ve.Line != 60 {
		t.Errorf("bad value: %v, want row 30, line 60", err)
	}
}
