package cpu

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// A hash join whose build side passes the memory limit runs as a grace
// hash join (Kitsuregawa et al., "Application of hash to data base machine
// and its architecture", 1983): the build input is run into aggFanOut
// partition files by a hash of its keys, the probe side of the pipeline
// (its source and the operators before the join) into as many by the
// probe keys, and then partition by partition the build rows are loaded
// into an ordinary join table and the probe rows stream through the join
// and the rest of the pipeline into its sink. Equal keys meet in the same
// partition, so inner, left outer, semi and anti joins (residuals
// included) answer as one table would: every row a join keeps or pads is
// decided by the build rows of its own partition. NOT IN (a NULL-aware
// anti join) also depends on the whole subquery: when it is empty every
// probe row passes, when it holds a NULL none does, and otherwise a probe
// row with a NULL key is dropped before partitioning, so that each
// partition's table can answer alone. A partition whose build rows still
// do not fit is partitioned again with a new seed; one that does not split
// (a single key past the limit) stops with the memory limit error.
// The workers take the partitions in turn, each joining into its own
// instance of the rest of the pipeline; a partition whose table finds the
// memory held by the others' is joined alone after them.

// graceJoinable says whether join hj, whose table failed with err, can
// run as a grace hash join.
func graceJoinable(hj *planner.HashJoin, err error) bool {
	var limit *exec.MemoryLimitError
	if !errors.As(err, &limit) || hj.TwoPass || len(hj.BuildKeys()) == 0 {
		return false
	}
	return spillableTypes(typesOf(hj.Build().Schema())) && spillableTypes(typesOf(hj.Probe().Schema()))
}

// graceJoin is one join run by partitions.
type graceJoin struct {
	x  *executor
	hj *planner.HashJoin
	// part is hj for one partition's table: a hash table, whatever the
	// plan chose (a direct array or bitmap spans the key domain of the
	// whole build side, not the partition's rows).
	part        planner.HashJoin
	cause       error
	buildTypes  []columnar.Type
	probeTypes  []columnar.Type
	count       spillCount
	morsel      atomic.Int64 // blocks pushed so far
	dropNullKey bool
	mu          sync.Mutex // compiling (tables, probes) one worker at a time
}

// graceWorker is one worker's end of the pipeline: the operators after
// the join, ending in its instance of the sink.
type graceWorker struct {
	after operator
	// timer times the join stage; timers are it and the stages after it
	// (EXPLAIN ANALYZE only).
	timer  *timedOp
	timers []*timedOp
}

// errJoinAlone marks a partition whose table did not fit while other
// partitions held memory: it is joined again alone.
var errJoinAlone = errors.New("grace join partition left for a lone pass")

// runGraceJoin runs the pipeline src → ops → sf with ops[i] as a grace
// hash join.
func (x *executor) runGraceJoin(src *rel, ops []planner.Node, i int, sf sinkFactory, skip []bool, cause error) error {
	hj := ops[i].(*planner.HashJoin)
	g := &graceJoin{x: x, hj: hj, part: *hj, cause: cause,
		buildTypes: typesOf(hj.Build().Schema()), probeTypes: typesOf(hj.Probe().Schema())}
	g.part.Strategy = planner.HashTable
	if x.stats != nil {
		defer func() { x.stats.AddSpill(hj.Props().ID, g.count.files, g.count.wrote) }()
	}
	build := g.partitioner(hj.BuildKeys(), nil, 0)
	defer build.drop()
	if err := x.runPipeline(hj.Build(), build, hj); err != nil {
		return err
	}
	if hj.NullAware && hj.Kind == sql.JoinAnti {
		switch {
		case build.rows() == 0: // NOT IN (empty): every row passes
			return x.runWithout(src, ops, i, sf, skip)
		case build.nullKeys.Load(): // NOT IN (..., NULL, ...): no row passes
			return sf.finish()
		}
		g.dropNullKey = true
	}
	probe := g.partitioner(hj.ProbeKeys(), hj.BuildKeys(), 0)
	defer probe.drop()
	var timers [][]*timedOp
	before := func(w int, sink operator) (operator, error) {
		head, ts, err := x.timedChain(ops[:i], sink)
		timers = append(timers, ts)
		return head, err
	}
	busy, err := x.runRel(src, before, probe, skip)
	if err != nil {
		return err
	}
	if err := probe.finish(); err != nil {
		return err
	}
	if x.stats != nil {
		x.recordPipeline(planner.StreamInput(ops[0]), ops[:i], timers, busy)
	}
	timers, busy, err = g.joinParts(build, probe, ops[i+1:], sf)
	if err != nil {
		return err
	}
	if x.stats != nil {
		x.recordPipeline(hj, ops[i:], timers, busy)
	}
	return sf.finish()
}

// joinParts joins the partitions into the operators after the join and
// the sink, up to x.workers partitions at once. A partition whose table
// finds the memory taken waits for a lone pass after the others (where it
// is partitioned again if it still does not fit). It returns each
// worker's stage timers and busy time.
func (g *graceJoin) joinParts(build, probe *partitioner, after []planner.Node, sf sinkFactory) ([][]*timedOp, []time.Duration, error) {
	n := len(build.parts)
	gws := make([]*graceWorker, max(1, min(g.x.workers, n)))
	timers := make([][]*timedOp, len(gws))
	for w := range gws {
		head, ts, err := g.x.timedChain(after, sf.local(w))
		if err != nil {
			return nil, nil, err
		}
		gws[w] = &graceWorker{after: head}
		if g.x.stats != nil {
			gws[w].timer = &timedOp{}
			gws[w].timers = append([]*timedOp{gws[w].timer}, ts...)
			timers[w] = gws[w].timers
		}
	}
	retry := make([]bool, n)
	busy := make([]time.Duration, len(gws))
	errs := make([]error, len(gws))
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w, gw := range gws {
		wg.Add(1)
		go func(w int, gw *graceWorker) {
			defer wg.Done()
			start := time.Now()
			defer func() {
				busy[w] = time.Since(start)
				if r := recover(); r != nil {
					errs[w] = recoveredError(r)
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				err := g.joinPart(build.parts[i], probe.parts[i], 1, gw, false)
				switch {
				case errors.Is(err, errJoinAlone):
					retry[i] = true
				case err != nil:
					errs[w] = err
					stop.Store(true)
					return
				}
			}
		}(w, gw)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	for p := range build.parts {
		if retry[p] {
			if err := g.joinPart(build.parts[p], probe.parts[p], 1, gws[0], true); err != nil {
				return nil, nil, err
			}
		}
		build.parts[p].f.Remove()
		probe.parts[p].f.Remove()
	}
	return timers, busy, nil
}

// runWithout runs the pipeline with ops[i] left out (a NOT IN whose
// subquery is empty passes every row).
func (x *executor) runWithout(src *rel, ops []planner.Node, i int, sf sinkFactory, skip []bool) error {
	rest := append(append([]planner.Node{}, ops[:i]...), ops[i+1:]...)
	chain := func(w int, sink operator) (operator, error) { return x.chainOps(rest, sink) }
	if _, err := x.runRel(src, chain, sf, skip); err != nil {
		return err
	}
	return sf.finish()
}

// chainOps instantiates the streaming operators ops in front of sink.
func (x *executor) chainOps(ops []planner.Node, sink operator) (operator, error) {
	next := sink
	for k := len(ops) - 1; k >= 0; k-- {
		op, err := x.newOperator(ops[k], next)
		if err != nil {
			return nil, err
		}
		next = op
	}
	return next, nil
}

// partitioner partitions one side by keys (cast to the build keys'
// domains where as is given, as the probe does).
func (g *graceJoin) partitioner(keys, as []sql.Expr, seed uint64) *partitioner {
	types := g.buildTypes
	if as != nil {
		types = g.probeTypes
	}
	compile := func(cp *compiler) ([]evaluator, error) {
		var evs []evaluator
		for k, e := range keys {
			ev, err := cp.compile(e)
			if err != nil {
				return nil, err
			}
			if as != nil && keyDomain(e.Type()) != keyDomain(as[k].Type()) {
				ev = castTo(ev, e.Type(), as[k].Type())
			}
			evs = append(evs, ev)
		}
		return evs, nil
	}
	p := newPartitioner(g.x, g.hj, types, compile, seed, &g.count)
	p.dropNullKeys = as != nil && g.dropNullKey
	return p
}

// joinPart joins one partition: its build rows into a table, its probe
// rows through the join into gw. Alone, a table that does not fit is
// partitioned again; otherwise it returns errJoinAlone.
func (g *graceJoin) joinPart(build, probe *partFile, depth int, gw *graceWorker, alone bool) error {
	if probe.f == nil {
		return nil // no probe row: nothing to keep or pad
	}
	t, held, err := g.loadTable(build)
	if err != nil {
		switch {
		case !isMemoryLimit(err):
			return err
		case !alone:
			return errJoinAlone
		case depth >= aggMaxDepth:
			return err
		}
		return g.repartition(build, probe, depth, gw)
	}
	defer g.x.release(held)
	g.mu.Lock()
	op, err := newHashJoinOp(&compiler{x: g.x}, &g.part, t, gw.after)
	g.mu.Unlock()
	if err != nil {
		return err
	}
	forget := func(cols []*vec) {
		for _, in := range t.interners {
			if in != nil {
				in.forget(cols)
			}
		}
	}
	var stage operator = op
	if gw.timer != nil {
		gw.timer.inner = op
		stage = gw.timer
	}
	return g.pushBlocks(probe.f, stage, forget)
}

// loadTable reads a build partition and builds its table; held is what
// both are charged.
func (g *graceJoin) loadTable(build *partFile) (*joinTable, int64, error) {
	x := g.x
	r := &rel{types: g.buildTypes, cols: emptyCols(g.buildTypes)}
	if build.f != nil {
		var err error
		if r, err = x.readRel(build.f, g.buildTypes, g.hj); err != nil {
			return nil, 0, err
		}
	}
	tb := joinTableBytes(g.hj, r.rows)
	if err := x.reserve(g.hj, tb); err != nil {
		x.free(r)
		return nil, 0, err
	}
	g.mu.Lock()
	t, err := x.buildJoinTable(&g.part, r)
	g.mu.Unlock()
	if err != nil {
		x.release(tb)
		x.free(r)
		return nil, 0, err
	}
	held := tb + r.mem
	r.mem = 0
	return t, held, nil
}

// readRel reads a whole spill file into a rel charged to owner.
func (x *executor) readRel(f *exec.SpillFile, types []columnar.Type, owner planner.Node) (*rel, error) {
	rd, err := openSpillReader(f, types)
	if err != nil {
		return nil, err
	}
	defer rd.close()
	var chunks []*chunk
	var held int64
	defer func() { x.release(held) }()
	for {
		cols, n, err := rd.readBlock()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		ch := &chunk{seq: len(chunks), rows: n, cols: cols}
		b := chunkBytes(ch)
		if err := x.reserve(owner, b); err != nil {
			return nil, err
		}
		held += b
		chunks = append(chunks, ch)
	}
	r := concatChunks(chunks, types)
	return r, x.own(owner, r)
}

// pushBlocks pushes a probe partition's blocks through op.
func (g *graceJoin) pushBlocks(f *exec.SpillFile, op operator, after func([]*vec)) error {
	rd, err := openSpillReader(f, g.probeTypes)
	if err != nil {
		return err
	}
	defer rd.close()
	for {
		if err := g.x.ctx.Err(); err != nil {
			return err
		}
		cols, n, err := rd.readBlock()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		m := int(g.morsel.Add(1))
		if err := op.push(&batch{n: n, sel: identSel[:n], cols: cols, morsel: m}); err != nil {
			return err
		}
		after(cols)
	}
}

// repartition splits a partition whose build rows do not fit with a new
// seed and joins the pieces.
func (g *graceJoin) repartition(build, probe *partFile, depth int, gw *graceWorker) error {
	x := g.x
	bp := g.partitioner(g.hj.BuildKeys(), nil, uint64(depth))
	defer bp.drop()
	if err := x.runBlocks(build.f, g.buildTypes, bp, nil); err != nil {
		return err
	}
	if !bp.splits() {
		return g.cause // one key holds every build row
	}
	pp := g.partitioner(g.hj.ProbeKeys(), g.hj.BuildKeys(), uint64(depth))
	defer pp.drop()
	if err := x.runBlocks(probe.f, g.probeTypes, pp, nil); err != nil {
		return err
	}
	for p := range bp.parts {
		err := g.joinPart(bp.parts[p], pp.parts[p], depth+1, gw, true)
		bp.parts[p].f.Remove()
		pp.parts[p].f.Remove()
		if err != nil {
			return err
		}
	}
	return nil
}
