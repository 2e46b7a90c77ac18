package cpu

import (
	"sync"

	"gpusql/internal/decimal"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// TopN is the sink of its input's pipeline. Each worker keeps candidate rows
// (with their evaluated sort keys as extra columns); whenever it holds more
// than a few times offset+count rows it sorts them and keeps only the first
// offset+count, and afterwards drops incoming rows whose first key is
// already worse than the worst row kept (a threshold test per row, no copy).
// Memory stays O(offset+count) per worker whatever the input size. The
// workers' survivors are merged, sorted, and cut at offset.

func (x *executor) runTopN(n *planner.TopN) (*rel, error) {
	k := int(n.Offset + n.Count)
	s := &topNSink{x: x, n: n, k: k, types: typesOf(n.Input.Schema())}
	for _, key := range n.Keys {
		s.keyTypes = append(s.keyTypes, key.Expr.Type())
	}
	if k == 0 {
		return &rel{types: s.types, cols: emptyCols(s.types)}, nil
	}
	if err := x.runPipeline(n.Input, s, n); err != nil {
		return nil, err
	}
	return s.result, nil
}

type topNSink struct {
	x        *executor
	n        *planner.TopN
	k        int
	types    []columnar.Type
	keyTypes []columnar.Type
	mu       sync.Mutex
	locals   []*topNLocal
	result   *rel
}

type topNLocal struct {
	s      *topNSink
	keys   []evaluator
	err    error
	chunks []*chunk
	rows   int
	seq    int
	// mem is the bytes reserved for chunks (a huge LIMIT keeps many).
	mem int64
	// Threshold on the first key after a prune: rows strictly worse are
	// dropped on arrival.
	thrSet  bool
	thrNull bool
	thrI    int64
	thrF    float64
	thrW    decimal.Num // wide DECIMAL keys
	sel     []int32
	ob      batch
}

func (s *topNSink) local(w int) operator {
	l := &topNLocal{s: s}
	cp := &compiler{x: s.x}
	for _, k := range s.n.Keys {
		ev, err := cp.compile(k.Expr)
		if err != nil {
			l.err = err
		}
		l.keys = append(l.keys, ev)
	}
	s.mu.Lock()
	s.locals = append(s.locals, l)
	s.mu.Unlock()
	return l
}

func (l *topNLocal) push(b *batch) error {
	if l.err != nil {
		return l.err
	}
	nk := len(l.keys)
	kv := make([]*vec, nk)
	for i, ev := range l.keys {
		kv[i] = ev.eval(b, b.sel)
	}
	sel := b.sel
	if l.thrSet {
		sel = l.passThreshold(kv[0], sel)
		if len(sel) == 0 {
			return nil
		}
	}
	ob := &l.ob
	ob.n, ob.sel, ob.morsel = b.n, sel, b.morsel
	ob.cols = append(append(ob.cols[:0], b.cols...), kv...)
	ch := compact(ob, append(append([]columnar.Type{}, l.s.types...), l.s.keyTypes...))
	n := chunkBytes(ch)
	if err := l.s.x.reserve(l.s.n, n); err != nil {
		return err
	}
	l.mem += n
	ch.seq = l.seq
	l.seq++
	l.chunks = append(l.chunks, ch)
	l.rows += ch.rows
	if l.rows > 4*l.s.k+batchSize {
		l.prune()
	}
	return nil
}

// passThreshold keeps the rows whose first key is not worse than the
// threshold.
func (l *topNLocal) passThreshold(v *vec, sel []int32) []int32 {
	desc := l.s.n.Keys[0].Desc
	out := growSel(l.sel, len(sel))
	l.sel = out
	k := 0
	for _, p := range sel {
		var keep bool
		switch {
		case v.isNull(p):
			// NULLs sort first ascending, last descending.
			keep = !desc || l.thrNull
		case l.thrNull:
			keep = desc
		case v.f64 != nil:
			keep = (!desc && v.f64[p] <= l.thrF) || (desc && v.f64[p] >= l.thrF)
		case v.w != nil:
			c := decimal.Cmp(v.w[p], l.thrW)
			keep = (!desc && c <= 0) || (desc && c >= 0)
		default:
			x := orderedInt64(l.s.keyTypes[0], v.int64At(p))
			keep = (!desc && x <= l.thrI) || (desc && x >= l.thrI)
		}
		out[k] = p
		k += b2n(keep)
	}
	return out[:k]
}

// prune keeps the worker's best k rows and sets the threshold.
func (l *topNLocal) prune() {
	s := l.s
	all := append(append([]columnar.Type{}, s.types...), s.keyTypes...)
	r := concatChunks(l.chunks, all)
	perm := s.order(r)
	if len(perm) > s.k {
		perm = perm[:s.k]
	}
	r = gatherRel(r, perm)
	l.chunks = []*chunk{relChunk(r)}
	l.rows = r.rows
	kept := chunkBytes(l.chunks[0])
	l.s.x.release(l.mem - kept)
	l.mem = kept
	// Strings and vectors have no one-word threshold: their rows are all
	// kept until the next prune.
	if r.rows == s.k && s.keyTypes[0].ID != columnar.String && s.keyTypes[0].ID != columnar.Vector {
		c := r.cols[len(s.types)]
		last := r.rows - 1
		l.thrSet, l.thrNull = true, c.IsNull(last)
		switch {
		case c.F64 != nil:
			l.thrF = c.F64[last]
		case c.W != nil:
			l.thrW = c.W[last]
		default:
			l.thrI = orderedInt64(c.Type, c.Int64At(last))
		}
	}
}

// order sorts a rel whose last len(keyTypes) columns are the sort keys
// (ties keep input order).
func (s *topNSink) order(r *rel) []int32 {
	keys := &sortKeyCols{cols: r.cols[len(s.types):]}
	for _, k := range s.n.Keys {
		keys.desc = append(keys.desc, k.Desc)
	}
	perm := make([]int32, r.rows)
	for i := range perm {
		perm[i] = int32(i)
	}
	_ = s.x.sortPerm(perm, keys.compare) // a cancelled sort raises; runRel reports it
	return perm
}

func (s *topNSink) finish() error {
	var chunks []*chunk
	for _, l := range s.locals {
		chunks = append(chunks, l.chunks...)
	}
	all := append(append([]columnar.Type{}, s.types...), s.keyTypes...)
	r := concatChunks(chunks, all)
	perm := s.order(r)
	lo := min(int(s.n.Offset), len(perm))
	hi := min(lo+int(s.n.Count), len(perm))
	out := gatherRel(r, perm[lo:hi])
	out.types = s.types
	out.cols = out.cols[:len(s.types)]
	for _, l := range s.locals {
		s.x.release(l.mem)
		l.mem = 0
	}
	s.result = out
	return s.x.own(s.n, out)
}

// relChunk views a rel as one chunk.
func relChunk(r *rel) *chunk {
	ch := &chunk{rows: r.rows, cols: make([]*vec, len(r.cols))}
	for i, c := range r.cols {
		if c != nil {
			ch.cols[i] = colVec(c)
		}
	}
	return ch
}
