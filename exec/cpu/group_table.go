package cpu

// groupTable maps group keys (one int64 word and a NULL flag per key column)
// to dense group ids with open addressing and linear probing; the table is
// kept at most half full. Keys are stored column-wise per group, so that the
// group columns of the result are read straight out of it.
type groupTable struct {
	words  [][]int64
	nulls  [][]bool
	hashes []uint64
	slots  []int32 // group+1; 0 empty
	mask   uint64
	n      int
}

func newGroupTable(nkeys int) *groupTable {
	g := &groupTable{words: make([][]int64, nkeys), nulls: make([][]bool, nkeys)}
	g.slots = make([]int32, 1024)
	g.mask = 1023
	return g
}

func hashKey(kw [][]int64, kn [][]bool, p int32) uint64 {
	h := uint64(0x243F6A8885A308D3)
	for i, w := range kw {
		if kn[i] != nil && kn[i][p] {
			h = hashWords(h, 0x5bd1e995)
			continue
		}
		h = hashWords(h, w[p])
	}
	return h
}

// findOrInsert returns the group of the key at position p of the word
// vectors (kn[i] nil: column i has no NULLs in this batch).
func (g *groupTable) findOrInsert(kw [][]int64, kn [][]bool, p int32, h uint64) int32 {
	for s := h & g.mask; ; s = (s + 1) & g.mask {
		e := g.slots[s]
		if e == 0 {
			id := int32(g.n)
			g.n++
			for i, w := range kw {
				isNull := kn[i] != nil && kn[i][p]
				v := w[p]
				if isNull {
					v = 0
				}
				g.words[i] = append(g.words[i], v)
				g.nulls[i] = append(g.nulls[i], isNull)
			}
			g.hashes = append(g.hashes, h)
			g.slots[s] = id + 1
			if uint64(g.n)*2 > g.mask {
				g.grow()
			}
			return id
		}
		id := e - 1
		if g.hashes[id] != h {
			continue
		}
		eq := true
		for i, w := range kw {
			isNull := kn[i] != nil && kn[i][p]
			if g.nulls[i][id] != isNull || (!isNull && g.words[i][id] != w[p]) {
				eq = false
				break
			}
		}
		if eq {
			return id
		}
	}
}

// findOrInsertGroup inserts group id of another table (merging).
func (g *groupTable) findOrInsertGroup(o *groupTable, id int32) int32 {
	h := o.hashes[id]
	for s := h & g.mask; ; s = (s + 1) & g.mask {
		e := g.slots[s]
		if e == 0 {
			nid := int32(g.n)
			g.n++
			for i := range g.words {
				g.words[i] = append(g.words[i], o.words[i][id])
				g.nulls[i] = append(g.nulls[i], o.nulls[i][id])
			}
			g.hashes = append(g.hashes, h)
			g.slots[s] = nid + 1
			if uint64(g.n)*2 > g.mask {
				g.grow()
			}
			return nid
		}
		cand := e - 1
		if g.hashes[cand] != h {
			continue
		}
		eq := true
		for i := range g.words {
			if g.nulls[i][cand] != o.nulls[i][id] || g.words[i][cand] != o.words[i][id] {
				eq = false
				break
			}
		}
		if eq {
			return cand
		}
	}
}

func (g *groupTable) grow() {
	size := (g.mask + 1) * 2
	g.slots = make([]int32, size)
	g.mask = size - 1
	for id, h := range g.hashes {
		s := h & g.mask
		for g.slots[s] != 0 {
			s = (s + 1) & g.mask
		}
		g.slots[s] = int32(id + 1)
	}
}
