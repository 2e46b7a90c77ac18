package engine

import (
	"fmt"
	"sync"

	"gpusql/storage/columnar"
)

// Remapped columns (storage/columnar/remap_column.go, catalog/remap.go):
// when they are built is Options.Remap's choice. By default ANALYZE TABLE
// builds them; "load" also builds them after each LOAD DATA and for every
// table of a database directory when it opens that has none (a database
// directory keeps the remaps built, catalog/disk/remap_file.go);
// "off" never builds them. `bench conflicts` measured on the H100 that
// plain shared-memory atomics on 4-byte keys stay at ~80 % of HBM at every
// skew for 1,024 values, which is why a load does not pay for remaps
// unless asked.

// remapModes are Options.Remap's values.
var remapModes = map[string]bool{"": true, "analyze": true, "load": true, "off": true}

// remapNote is what building one column's remap reports.
type remapNote struct {
	column string
	text   string
}

// buildRemaps remaps every candidate column of the named table's current
// snapshot (RemapCandidate), one goroutine per column, and keeps those
// whose snapshot is still current. Memory for the build (the column's
// codes and the slots, 8 B a row) is reserved from the database's
// accountant; a column that does not fit is skipped with a note.
func (db *DB) buildRemaps(name string) []remapNote {
	if db.opts.Remap == "off" {
		return nil
	}
	t, ok := db.cat.Table(name)
	if !ok {
		return nil
	}
	minRows := db.opts.RemapMinRows
	if minRows <= 0 {
		minRows = columnar.RemapMinRows
	}
	notes := make([]remapNote, len(t.Fields))
	var wg sync.WaitGroup
	for c := range t.Fields {
		lo, codes, ok := columnar.RemapCandidate(t, c, minRows)
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			notes[c] = db.buildRemap(t, c, lo, codes)
		}()
	}
	wg.Wait()
	var out []remapNote
	for _, n := range notes {
		if n.column != "" {
			out = append(out, n)
		}
	}
	return out
}

func (db *DB) buildRemap(t *columnar.Table, c int, lo int64, codes int) remapNote {
	note := remapNote{column: t.Fields[c].Name}
	if r := db.cat.Remap(t, c); r != nil {
		note.text = remapText(r)
		return note
	}
	bytes := int64(8 * t.Rows)
	if err := db.mem.Reserve(bytes, fmt.Sprintf("remap of %s.%s", t.Name, note.column)); err != nil {
		note.text = fmt.Sprintf("%s not remapped: %v", note.column, err)
		return note
	}
	defer db.mem.Release(bytes)
	r, err := columnar.BuildColumnRemap(t, c, lo, codes, columnar.DefaultColumnRemapOptions())
	if err != nil {
		note.text = fmt.Sprintf("%s not remapped: %v", note.column, err)
		return note
	}
	if !db.cat.SetRemap(t, r) {
		note.text = fmt.Sprintf("%s not remapped: the table changed meanwhile", note.column)
		return note
	}
	note.text = remapText(r)
	return note
}

func remapText(r *columnar.ColumnRemap) string {
	return fmt.Sprintf("%s remapped: %d values, %.2f copies per value, %.2f rounds per warp (plain %.2f), built in %.2f s",
		r.Column, r.Codes, r.CopiesPerValue(), r.MeanRounds(), r.MeanPlainRounds(), r.Elapsed.Seconds())
}
