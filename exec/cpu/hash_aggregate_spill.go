package cpu

import (
	"errors"
	"hash/maphash"
	"io"
	"math"
	"sync"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Hash aggregation (and DISTINCT) past the memory limit: the aggregation
// that failed is given up and its input run again, each row written to
// one of aggFanOut partition files by a hash of its group key, so that
// every group's rows are in one file. Each file is then aggregated on its
// own, block by block, with the same sink and every aggregate function
// (the files hold input rows, not partial states, so COUNT(DISTINCT),
// GROUP_CONCAT, JSON_ARRAYAGG and the rest need nothing of their own). A
// partition still too large is partitioned again with a new hash seed; one
// that does not split (a single group past the limit) stops with the
// memory limit error. The groups come out partition by partition: a hash
// aggregation promises no order.

// aggFanOut is the partitions per pass: each costs one open file and no
// buffer (a batch's rows for a partition are written as one block). A
// variable for the tests of re-partitioning.
var aggFanOut = 32

// aggMaxDepth bounds re-partitioning: 32^4 partitions are a million.
const aggMaxDepth = 4

// spillAggregate says whether an aggregation that failed with err can
// spill: it passed the memory limit and has group keys to partition by.
func spillAggregate(err error, groups []sql.Expr) bool {
	var limit *exec.MemoryLimitError
	return errors.As(err, &limit) && len(groups) > 0
}

// aggSpill is one spilled aggregation.
type aggSpill struct {
	x      *executor
	n      planner.Node
	groups []sql.Expr
	aggs   []sql.AggExpr
	types  []columnar.Type
	cause  error // the memory limit error that made it spill
	// files and wrote count the partition files and their bytes.
	files, wrote int64
}

func (x *executor) aggregateSpilled(n planner.Node, input planner.Node, groups []sql.Expr, aggs []sql.AggExpr, cause error) (*rel, error) {
	sp := &aggSpill{x: x, n: n, groups: groups, aggs: aggs, types: typesOf(input.Schema()), cause: cause}
	for _, g := range groups {
		if !spillableTypes([]columnar.Type{g.Type()}) {
			return nil, cause
		}
	}
	if !spillableTypes(sp.types) {
		return nil, cause
	}
	p := sp.newPartitioner(0)
	defer p.drop()
	if err := x.runPipeline(input, p, n); err != nil {
		return nil, err
	}
	var outs []*rel
	for _, part := range p.parts {
		r, err := sp.aggregatePart(part, 1)
		part.f.Remove()
		if err != nil {
			for _, o := range outs {
				x.free(o)
			}
			return nil, err
		}
		outs = append(outs, r...)
	}
	if x.stats != nil {
		x.stats.AddSpill(n.Props().ID, sp.files, sp.wrote)
	}
	return sp.concat(outs)
}

// aggregatePart aggregates one partition file, partitioning it again when
// it does not fit.
func (sp *aggSpill) aggregatePart(part *partFile, depth int) ([]*rel, error) {
	if part.f == nil {
		return nil, nil
	}
	s, err := sp.x.newAggSink(sp.n, sp.groups, sp.aggs, planner.AggHash, nil)
	if err != nil {
		return nil, err
	}
	err = sp.x.runBlocks(part.f, sp.types, s, s.forgetBlock)
	if err == nil {
		return []*rel{s.result}, nil
	}
	s.releaseStates()
	if !spillAggregate(err, sp.groups) || depth >= aggMaxDepth {
		return nil, err
	}
	p := sp.newPartitioner(uint64(depth))
	defer p.drop()
	if err := sp.x.runBlocks(part.f, sp.types, p, nil); err != nil {
		return nil, err
	}
	var outs []*rel
	for _, sub := range p.parts {
		if sub.rows == part.rows {
			return nil, err // one group (or one hash) holds every row
		}
	}
	for _, sub := range p.parts {
		r, err := sp.aggregatePart(sub, depth+1)
		sub.f.Remove()
		if err != nil {
			for _, o := range outs {
				sp.x.free(o)
			}
			return nil, err
		}
		outs = append(outs, r...)
	}
	return outs, nil
}

// concat puts the partitions' groups into one result.
func (sp *aggSpill) concat(outs []*rel) (*rel, error) {
	if len(outs) == 1 {
		return outs[0], nil
	}
	types := typesOf(sp.n.Schema())
	var chunks []*chunk
	for i, o := range outs {
		ch := relChunk(o)
		ch.seq = i
		chunks = append(chunks, ch)
	}
	out := concatChunks(chunks, types)
	for _, o := range outs {
		sp.x.free(o)
	}
	if err := sp.x.own(sp.n, out); err != nil {
		return nil, err
	}
	return out, nil
}

// runBlocks pushes the blocks of a spill file, in order, through one
// worker of sf, then finishes it; after calls after each block (nil:
// none).
func (x *executor) runBlocks(f *exec.SpillFile, types []columnar.Type, sf sinkFactory, after func([]*vec)) error {
	rd, err := openSpillReader(f, types)
	if err != nil {
		return err
	}
	defer rd.close()
	sink := sf.local(0)
	for m := 0; ; m++ {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		cols, n, err := rd.readBlock()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		sel := identSel
		if n > len(sel) {
			sel = identityPerm(n)
		}
		if err := sink.push(&batch{n: n, sel: sel[:n], cols: cols, morsel: m}); err != nil {
			return err
		}
		if after != nil {
			after(cols)
		}
	}
	return sf.finish()
}

// forgetBlock drops the interners' mappings of a spilled block's
// dictionaries: each block has its own, used once.
func (s *aggSink) forgetBlock(cols []*vec) {
	for _, in := range s.interners {
		if in == nil {
			continue
		}
		in.mu.Lock()
		for _, v := range cols {
			if v != nil && v.dict != nil {
				delete(in.dicts, v.dict)
			}
		}
		in.mu.Unlock()
	}
}

// partFile is one partition's file.
type partFile struct {
	mu   sync.Mutex
	f    *exec.SpillFile
	rows int64
}

// partitioner is a sink writing each row to the partition of its group
// key's hash.
type partitioner struct {
	sp    *aggSpill
	seed  uint64
	parts []*partFile
}

func (sp *aggSpill) newPartitioner(seed uint64) *partitioner {
	p := &partitioner{sp: sp, seed: seed, parts: make([]*partFile, aggFanOut)}
	for i := range p.parts {
		p.parts[i] = &partFile{}
	}
	return p
}

// drop removes the partition files not yet removed.
func (p *partitioner) drop() {
	for _, part := range p.parts {
		part.f.Remove()
	}
}

func (p *partitioner) finish() error {
	for _, part := range p.parts {
		if part.f != nil {
			p.sp.wrote += part.f.Size()
			p.sp.files++
		}
	}
	return nil
}

type partLocal struct {
	p      *partitioner
	keys   []evaluator
	err    error
	hashes []uint64
	sels   [][]int32
	cols   []*vec
	buf    []byte
}

func (p *partitioner) local(w int) operator {
	l := &partLocal{p: p, sels: make([][]int32, len(p.parts)), cols: make([]*vec, len(p.sp.types))}
	cp := &compiler{x: p.sp.x}
	for _, g := range p.sp.groups {
		ev, err := cp.compile(g)
		if err != nil {
			l.err = err
		}
		l.keys = append(l.keys, ev)
	}
	return l
}

func (l *partLocal) push(b *batch) error {
	if l.err != nil {
		return l.err
	}
	if b.weight != nil {
		return l.p.sp.cause // weighted rows (a counted join) are not spilled
	}
	l.hash(b)
	for i := range l.sels {
		l.sels[i] = l.sels[i][:0]
	}
	for k, p := range b.sel {
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
	}
	h := l.hashes[:len(b.sel)]
	for k := range h {
		h[k] = 0x243F6A8885A308D3 ^ (l.p.seed * 0x9E3779B97F4A7C15)
	}
	for _, ev := range l.keys {
		v := ev.eval(b, b.sel)
		for k, p := range b.sel {
			h[k] = hashWords(h[k], spillKeyWord(v, p))
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

// write appends the rows sel of b to part as one block.
func (l *partLocal) write(part *partFile, b *batch, sel []int32) error {
	sp := l.p.sp
	for c := range l.cols {
		l.cols[c] = nil
		if c < len(b.cols) && b.cols[c] != nil {
			l.cols[c] = gatherVec(b.cols[c], sel)
		}
	}
	l.buf = encodeSpillBlock(l.buf[:0], sp.types, l.cols, len(sel))
	part.mu.Lock()
	defer part.mu.Unlock()
	if part.f == nil {
		f, err := sp.x.spill.Create(planner.OpName(sp.n))
		if err != nil {
			return err
		}
		part.f = f
	}
	part.rows += int64(len(sel))
	_, err := part.f.Write(l.buf)
	return err
}
