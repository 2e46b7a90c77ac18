package columnar

import (
	"runtime"
	"sync"
)

// appendTable finishes the builders (each seeded with old's column and then
// given the new rows) into the next snapshot of old: the columns, the old
// full chunks' statistics carried over (string min/max remapped to the
// merged dictionary's codes), and the statistics of the chunks the append
// touched computed.
func appendTable(old *Table, cols []*Builder) *Table {
	t := &Table{
		Name:    old.Name,
		Fields:  old.Fields,
		Columns: make([]*Column, len(cols)),
		Rows:    old.Rows,
		Stats:   make([][]ChunkStats, len(cols)),
	}
	if len(cols) > 0 {
		t.Rows = cols[0].Len()
	}
	// Finishing sorts the dictionaries of string columns: one column per
	// goroutine.
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for i, b := range cols {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			c, remap := b.finish()
			t.Columns[i] = c
			if i < len(old.Stats) {
				t.Stats[i] = carryStats(old.Stats[i], remap)
			}
		}()
	}
	wg.Wait()
	ComputeStats(t)
	return t
}

// carryStats copies a column's chunk statistics, remapping min and max of
// dictionary codes through remap (nil: codes unchanged). The merge maps
// codes monotonically, so the remapped bounds are the new bounds; distinct
// and NULL counts do not change.
func carryStats(old []ChunkStats, remap []int32) []ChunkStats {
	st := append([]ChunkStats(nil), old...)
	if remap == nil {
		return st
	}
	for k := range st {
		if st[k].Distinct > 0 {
			st[k].Min = int64(remap[st[k].Min])
			st[k].Max = int64(remap[st[k].Max])
		}
	}
	return st
}
