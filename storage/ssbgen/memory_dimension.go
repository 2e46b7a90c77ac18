package ssbgen

import (
	"slices"

	"gpusql/storage/columnar"
)

// dimensionTable generates a dimension table (or date) in memory: its
// blocks are filled in parallel by the text path's fill functions, so
// its values are the text's by construction, then each column is copied
// or dictionary-encoded into its final vector, one column per worker.
func dimensionTable(t table, opts TableOptions) *columnar.Table {
	blocks := int((t.units + t.block - 1) / t.block)
	batches := make([]*batch, blocks)
	parallelFor(blocks, opts.Workers, func(_, b int) {
		bt := newBatch(t.specs)
		first := int64(b)*t.block + 1
		t.fill(bt, first, min(first+t.block-1, t.units))
		batches[b] = bt
	})
	rows := 0
	for _, bt := range batches {
		rows += bt.rows
	}
	fields := fieldsOf(t.specs)
	cols := make([]*columnar.Column, len(fields))
	parallelFor(len(fields), opts.Workers, func(_, c int) {
		col := columnar.NewColumnIn(opts.Alloc, fields[c].Type, rows, false)
		if t.specs[c].kind == kindString {
			encodeStrings(col, batches, c)
		} else {
			copyInts(col, batches, c)
		}
		cols[c] = col
	})
	return newTable(t.name, fields, cols, rows)
}

// copyInts copies column c of the batches, in order, into col's vector.
func copyInts(col *columnar.Column, batches []*batch, c int) {
	row := 0
	for _, bt := range batches {
		for _, v := range bt.cols[c].ints {
			if col.I32 != nil {
				col.I32[row] = int32(v)
			} else {
				col.I64[row] = v
			}
			row++
		}
	}
}

// encodeStrings dictionary-encodes column c of the batches into col as
// the loaders do: each distinct string gets an id in order of first
// appearance, then the distinct strings are sorted and the ids rewritten
// to their ranks, so the dictionary is sorted and holds exactly the
// strings that occur.
func encodeStrings(col *columnar.Column, batches []*batch, c int) {
	ids := map[string]int32{}
	var vals []string
	row := 0
	for _, bt := range batches {
		for r := range bt.rows {
			s := bt.strAt(c, r)
			id, ok := ids[string(s)]
			if !ok {
				id = int32(len(vals))
				vals = append(vals, string(s))
				ids[vals[id]] = id
			}
			col.I32[row] = id
			row++
		}
	}
	order := make([]int32, len(vals))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case vals[a] < vals[b]:
			return -1
		case vals[a] > vals[b]:
			return 1
		}
		return 0
	})
	rank := make([]int32, len(vals))
	sorted := make([]string, len(vals))
	for r, id := range order {
		rank[id] = int32(r)
		sorted[r] = vals[id]
	}
	for i, id := range col.I32 {
		col.I32[i] = rank[id]
	}
	col.Dict = &columnar.Dictionary{Values: sorted}
}
