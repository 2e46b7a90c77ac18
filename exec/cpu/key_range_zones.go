package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Zone maps through join keys, the CPU's side of the GPU's
// (planner/gpu_dim_zones.go): a pipeline whose scan probes an inner or
// semi hash join on one of its integer columns drops every row whose key
// lies outside the least and greatest key the join built, so a morsel
// whose chunk statistics put all its keys outside them is not read. On a
// fact table stored in the order of that key (ALTER TABLE ... ORDER BY)
// most chunks go; in random order none does, at the cost of a test per
// chunk.

// keyRangeSkips adds to skip (nil: none yet) the morsels of ts that a hash
// join of ops, built already, rules out by its key range.
func (x *executor) keyRangeSkips(ts *planner.TableScan, ops []planner.Node, skip []bool) []bool {
	t := ts.Table
	for _, op := range ops {
		hj, ok := op.(*planner.HashJoin)
		if !ok || hj.TwoPass || (hj.Kind != sql.JoinInner && hj.Kind != sql.JoinSemi) || len(hj.ProbeKeys()) != 1 {
			continue
		}
		ref, ok := hj.ProbeKeys()[0].(*sql.ColRef)
		if !ok || !plainInt(ref.Type()) || !plainInt(hj.BuildKeys()[0].Type()) {
			continue
		}
		sc, ok := planner.ResolveScanColumn(hj.Probe(), ref.Index)
		if !ok || sc.Scan != ts || sc.Col >= len(t.Stats) || len(t.Stats[sc.Col]) != t.NumChunks() {
			continue
		}
		x.mu.Lock()
		jt := x.tables[hj]
		x.mu.Unlock()
		if jt == nil {
			continue
		}
		lo, hi, any := keyBounds(jt.keys[0], jt.keyNull)
		for k, st := range t.Stats[sc.Col] {
			rows := min(columnar.ChunkRows, t.Rows-k*columnar.ChunkRows)
			if !any || st.NullCount == rows || st.Max < lo || st.Min > hi {
				if skip == nil {
					skip = make([]bool, t.NumChunks())
				}
				skip[k] = true
			}
		}
	}
	return skip
}

// plainInt reports whether t is a signed integer whose key words are its
// values, as the chunk statistics hold them.
func plainInt(t columnar.Type) bool {
	return (t.ID == columnar.Int32 || t.ID == columnar.Int64) && !t.Unsigned
}
