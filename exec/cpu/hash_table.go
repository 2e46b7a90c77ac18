package cpu

import (
	"math/bits"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// joinTable indexes the build side of a HashJoin. Rows with the same slot
// are chained through next (row+1, 0 ends), in build order.
//
// DirectArray (one integer key, dense range): heads[key-min] is the chain of
// rows with exactly that key, so a probe is a bounds check and a load and
// never compares keys. HashTable: heads is indexed by the top bits of the
// key hash (at least 2 slots per row) and probes compare the key words.
type joinTable struct {
	rel        *rel
	rows       int
	keys       [][]int64 // key words per key column, per build row
	keyNull    []bool    // build row has a NULL key (never matches)
	hasNullKey bool
	direct     bool
	bitmap     *joinBitmap // Bitmap, BucketedBitmap
	min        int64
	heads      []int32
	next       []int32
	shift      uint
	unique     bool
	// enc are the key encoders' interners (string keys), shared with probes.
	interners []*interner
}

// maxDirectSlots bounds a direct array the executor will allocate.
const maxDirectSlots = 1 << 24

func (x *executor) buildJoinTable(hj *planner.HashJoin, r *rel) (*joinTable, error) {
	keys := hj.BuildKeys()
	t := &joinTable{rel: r, rows: r.rows, unique: true}
	t.keys = make([][]int64, len(keys))
	t.interners = make([]*interner, len(keys))
	encs := make([]keyEncoder, len(keys))
	evs := make([]evaluator, len(keys))
	cp := &compiler{x: x}
	for i, k := range keys {
		ev, err := cp.compile(k)
		if err != nil {
			return nil, err
		}
		evs[i] = ev
		t.keys[i] = make([]int64, r.rows)
		if k.Type().ID == columnar.String || isVectorKey(k.Type()) {
			var base *columnar.Dictionary
			if c, ok := k.(*sql.ColRef); ok && c.Index < len(r.cols) && r.cols[c.Index] != nil {
				base = r.cols[c.Index].Dict
			}
			t.interners[i] = newInterner(base)
		}
		encs[i] = keyEncoder{t: k.Type(), in: t.interners[i], insert: true}
	}
	t.keyNull = make([]bool, r.rows)
	vs := make([]*vec, len(r.cols))
	for i := range vs {
		vs[i] = &vec{}
	}
	b := &batch{}
	nulls := make([]bool, batchSize)
	for off := 0; off < r.rows; off += batchSize {
		if err := x.checkEvery(off/batchSize, 64); err != nil {
			return nil, err
		}
		n := min(batchSize, r.rows-off)
		r.readBatch(b, vs, off, n)
		for i, ev := range evs {
			v := ev.eval(b, b.sel)
			words := t.keys[i][off : off+n]
			if encs[i].encode(v, b.sel, words, nulls) {
				for j := 0; j < n; j++ {
					if nulls[j] {
						t.keyNull[off+j] = true
						t.hasNullKey = true
					}
				}
			}
		}
	}
	t.next = make([]int32, r.rows)
	if (hj.Strategy == planner.Bitmap || hj.Strategy == planner.BucketedBitmap) && len(keys) == 1 && rawKey(keys[0].Type()) {
		if ok, err := x.buildBitmap(hj, t); ok || err != nil {
			return t, err
		}
		t.direct, t.heads = false, nil
		clear(t.next)
		t.unique = true
	}
	if hj.Strategy == planner.DirectArray && len(keys) == 1 && rawKey(keys[0].Type()) {
		if t.buildDirect() {
			return t, nil
		}
	}
	t.buildHash()
	return t, nil
}

// rawKey reports whether a key's words are its values, which the bitmap
// and direct-array probes read straight from the probe column. Strings
// and wide DECIMALs are interned (their words are ids: a bitmap over ids
// probed with the values read an empty i64 and panicked, as in
// ((6) & 1023) IN (SELECT -3 ...), whose keys are DECIMAL(20,0)), and a
// float's words are its bits.
func rawKey(t columnar.Type) bool {
	return t.ID != columnar.String && t.Physical() != columnar.PhysFloat64 && !t.IsWide()
}

// buildDirect indexes by key - min; false if the keys span too wide a range.
func (t *joinTable) buildDirect() bool {
	k := t.keys[0]
	lo, hi, any := int64(0), int64(0), false
	for r := 0; r < t.rows; r++ {
		if t.keyNull[r] {
			continue
		}
		if !any || k[r] < lo {
			lo = k[r]
		}
		if !any || k[r] > hi {
			hi = k[r]
		}
		any = true
	}
	span := uint64(hi-lo) + 1
	if !any {
		span = 1
	}
	if span > maxDirectSlots || span > uint64(max(4*t.rows, 1<<20)) {
		return false
	}
	t.direct, t.min = true, lo
	t.heads = make([]int32, span)
	for r := t.rows - 1; r >= 0; r-- {
		if t.keyNull[r] {
			continue
		}
		s := k[r] - lo
		t.next[r] = t.heads[s]
		if t.next[r] != 0 {
			t.unique = false
		}
		t.heads[s] = int32(r + 1)
	}
	return true
}

func (t *joinTable) hashRow(r int) uint64 {
	h := uint64(0x243F6A8885A308D3)
	for _, k := range t.keys {
		h = hashWords(h, k[r])
	}
	return h
}

func (t *joinTable) buildHash() {
	nb := 1
	for nb < 2*t.rows {
		nb <<= 1
	}
	nb = max(nb, 2)
	t.shift = uint(64 - bits.TrailingZeros(uint(nb)))
	t.heads = make([]int32, nb)
	for r := t.rows - 1; r >= 0; r-- {
		if t.keyNull[r] {
			continue
		}
		s := t.hashRow(r) >> t.shift
		t.next[r] = t.heads[s]
		if t.unique {
			for o := t.next[r]; o != 0; o = t.next[o-1] {
				if t.sameKey(r, int(o-1)) {
					t.unique = false
					break
				}
			}
		}
		t.heads[s] = int32(r + 1)
	}
}

func (t *joinTable) sameKey(a, b int) bool {
	for _, k := range t.keys {
		if k[a] != k[b] {
			return false
		}
	}
	return true
}

// first returns the first build row (+1) whose key equals the probe words
// pk[i][p], or 0.
func (t *joinTable) first(pk [][]int64, p int32) int32 {
	if t.direct {
		s := uint64(pk[0][p] - t.min)
		if s >= uint64(len(t.heads)) {
			return 0
		}
		return t.heads[s]
	}
	h := uint64(0x243F6A8885A308D3)
	for _, k := range pk {
		h = hashWords(h, k[p])
	}
	return t.scan(t.heads[h>>t.shift], pk, p)
}

// nextMatch returns the build row (+1) after r (+1) with the same key, or 0.
func (t *joinTable) nextMatch(r int32, pk [][]int64, p int32) int32 {
	if t.direct {
		return t.next[r-1]
	}
	return t.scan(t.next[r-1], pk, p)
}

func (t *joinTable) scan(r int32, pk [][]int64, p int32) int32 {
	for ; r != 0; r = t.next[r-1] {
		eq := true
		for i, k := range t.keys {
			if k[r-1] != pk[i][p] {
				eq = false
				break
			}
		}
		if eq {
			return r
		}
	}
	return 0
}
