package cpu

import (
	"bufio"
	"fmt"
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// Partitioning for spilled hash operators: rows are written to one of
// aggFanOut files by a hash of their key, equal for keys the hash tables
// take as equal (keyEncoder's words: integers widened, doubles with -0
// and NaN folded; strings by their text, as each block has its own
// dictionary). A seed gives each level of re-partitioning its own split.

// partFile is one partition's file.
type partFile struct {
	mu   sync.Mutex
	f    *exec.SpillFile
	w    *bufio.Writer // nil: blocks are written straight to f
	rows int64
}

// partitioner is a sink writing each row to the partition of its key's
// hash (aggFanOut partitions), so that rows with equal keys share a file.
type partitioner struct {
	x     *executor
	owner planner.Node // charged and named
	types []columnar.Type
	keys  func(cp *compiler) ([]evaluator, error)
	seed  uint64
	// dropNullKeys leaves out rows with a NULL key (a NOT IN's probe side,
	// where they can match nothing once the subquery has rows).
	dropNullKeys bool
	parts        []*partFile
	count        *spillCount
	// nullKeys is set once a row with a NULL key was seen.
	nullKeys atomic.Bool
	// bufBytes is each partition's write buffer (0: none: a write per
	// block, a batch's rows of one partition), reserved is what the
	// buffers are charged.
	bufBytes int
	reserved int64
}

// spillCount counts the files an operator spilled and their bytes.
type spillCount struct{ files, wrote int64 }

func newPartitioner(x *executor, owner planner.Node, types []columnar.Type,
	keys func(cp *compiler) ([]evaluator, error), seed uint64, count *spillCount) *partitioner {
	p := &partitioner{x: x, owner: owner, types: types, keys: keys, seed: seed, count: count,
		parts: make([]*partFile, aggFanOut)}
	for i := range p.parts {
		p.parts[i] = &partFile{}
	}
	// Buffers, where a quarter of the free memory holds them: a block is
	// a batch's rows of one partition (4096 / fan-out rows), and writing
	// each with its own system call took a third of a spilled join.
	per := min(int64(spillBufBytes), x.mem.Free()/int64(4*len(p.parts)))
	if all := per * int64(len(p.parts)); per >= 2<<10 && x.reserve(owner, all) == nil {
		p.bufBytes, p.reserved = int(per), all
	}
	return p
}

// rows is the rows written to every partition.
func (p *partitioner) rows() int64 {
	var n int64
	for _, part := range p.parts {
		n += part.rows
	}
	return n
}

// splits says whether the rows went to more than one partition.
func (p *partitioner) splits() bool {
	total := p.rows()
	for _, part := range p.parts {
		if part.rows == total {
			return false
		}
	}
	return true
}

// drop removes the partition files not yet removed.
func (p *partitioner) drop() {
	for _, part := range p.parts {
		part.f.Remove()
		part.w = nil
	}
	p.releaseBuffers()
}

func (p *partitioner) releaseBuffers() {
	p.x.release(p.reserved)
	p.reserved = 0
}

// finish flushes the partitions' buffers: the files are complete.
func (p *partitioner) finish() error {
	defer p.releaseBuffers()
	for _, part := range p.parts {
		if part.w != nil {
			if err := part.w.Flush(); err != nil {
				return err
			}
			part.w = nil
		}
		if part.f != nil {
			p.count.wrote += part.f.Size()
			p.count.files++
		}
	}
	return nil
}

type partLocal struct {
	p       *partitioner
	keys    []evaluator
	err     error
	hashes  []uint64
	nullKey []bool
	sels    [][]int32
	cols    []*vec
	buf     []byte
}

func (p *partitioner) local(w int) operator {
	l := &partLocal{p: p, sels: make([][]int32, len(p.parts)), cols: make([]*vec, len(p.types))}
	l.keys, l.err = p.keys(&compiler{x: p.x})
	return l
}

func (l *partLocal) push(b *batch) error {
	if l.err != nil {
		return l.err
	}
	if b.weight != nil {
		// Weighted rows (a join counted on the GPU) carry what a block
		// does not keep.
		return fmt.Errorf("%s: cannot spill weighted rows", planner.OpName(l.p.owner))
	}
	l.hash(b)
	for i := range l.sels {
		l.sels[i] = l.sels[i][:0]
	}
	for k, p := range b.sel {
		if l.p.dropNullKeys && l.nullKey[k] {
			continue
		}
		part := (l.hashes[k] >> 32) * uint64(len(l.sels)) >> 32
		l.sels[part] = append(l.sels[part], p)
	}
	for i, sel := range l.sels {
		if len(sel) > 0 {
			if err := l.write(l.p.parts[i], b, sel); err != nil {
				return err
			}
		}
	}
	return nil
}

// hash computes each selected row's hash of its group key, equal for keys
// the group table takes as equal (keyEncoder's words; strings by text).
func (l *partLocal) hash(b *batch) {
	if cap(l.hashes) < len(b.sel) {
		l.hashes = make([]uint64, len(b.sel))
		l.nullKey = make([]bool, len(b.sel))
	}
	h, nk := l.hashes[:len(b.sel)], l.nullKey[:len(b.sel)]
	for k := range h {
		h[k] = 0x243F6A8885A308D3 ^ (l.p.seed * 0x9E3779B97F4A7C15)
		nk[k] = false
	}
	for _, ev := range l.keys {
		v := ev.eval(b, b.sel)
		for k, p := range b.sel {
			h[k] = hashWords(h[k], spillKeyWord(v, p))
			nk[k] = nk[k] || v.isNull(p)
		}
	}
	for _, null := range nk {
		if null {
			l.p.nullKeys.Store(true)
			break
		}
	}
	for k := range h {
		h[k] = hashWords(h[k], int64(l.p.seed))
	}
}

var spillHashSeed = maphash.MakeSeed()

// spillKeyWord is position p of v as a word for hashing.
func spillKeyWord(v *vec, p int32) int64 {
	switch {
	case v.isNull(p):
		return 0x5bd1e995
	case v.t.ID == columnar.String:
		return int64(maphash.String(spillHashSeed, v.dict.Values[v.i32[p]]))
	case v.i32 != nil:
		return int64(v.i32[p])
	case v.i64 != nil:
		return v.i64[p]
	case v.f64 != nil:
		return floatKey(v.f64[p])
	}
	return int64(math.MaxInt64)
}

// write appends the rows sel of b to part, in blocks of at most a batch
// (the operators reading them back size their buffers by batchSize).
func (l *partLocal) write(part *partFile, b *batch, sel []int32) error {
	for len(sel) > batchSize {
		if err := l.write(part, b, sel[:batchSize]); err != nil {
			return err
		}
		sel = sel[batchSize:]
	}
	lp := l.p
	for c := range l.cols {
		l.cols[c] = nil
		if c < len(b.cols) && b.cols[c] != nil {
			l.cols[c] = gatherVec(b.cols[c], sel)
		}
	}
	l.buf = encodeSpillBlock(l.buf[:0], lp.types, l.cols, len(sel))
	part.mu.Lock()
	defer part.mu.Unlock()
	if part.f == nil {
		f, err := lp.x.spill.Create(planner.OpName(lp.owner))
		if err != nil {
			return err
		}
		part.f = f
	}
	part.rows += int64(len(sel))
	if lp.bufBytes > 0 && part.w == nil {
		part.w = bufio.NewWriterSize(part.f, lp.bufBytes)
	}
	var err error
	if part.w != nil {
		_, err = part.w.Write(l.buf)
	} else {
		_, err = part.f.Write(l.buf)
	}
	return err
}
