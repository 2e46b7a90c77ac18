package cpu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Run executes a physical plan and returns its rows.
func Run(ctx context.Context, p *planner.Physical) (*exec.Result, error) {
	res, _, err := run(ctx, p, false)
	return res, err
}

// RunAnalyze executes a plan and also returns per-operator rows and times
// (for EXPLAIN ANALYZE).
func RunAnalyze(ctx context.Context, p *planner.Physical) (*exec.Result, *planner.OpStats, error) {
	return run(ctx, p, true)
}

func run(ctx context.Context, p *planner.Physical, analyze bool) (res *exec.Result, st *planner.OpStats, err error) {
	x := newExecutor(ctx)
	// Spill files are removed however the query ends (the recover below
	// runs first, then this).
	x.spill = exec.NewSpill(exec.SpillOptionsFrom(ctx))
	defer x.spill.Close()
	if planner.AssignsUserVariables(p) {
		x.workers = 1 // rows in order: @n := @n + 1 numbers them as MySQL does
	}
	x.runsOnce = planner.CallsVolatile(p)
	if analyze {
		x.stats = planner.NewOpStats()
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := recovered(r); ok {
				res, st, err = nil, nil, e
				return
			}
			if debugPanics {
				panic(r)
			}
			err = fmt.Errorf("cpu executor: internal error: %v", r)
		}
	}()
	defer x.releaseEpsilonDevices()
	start := time.Now()
	r, err := x.materialize(p.Root)
	if err != nil {
		return nil, nil, err
	}
	if x.stats != nil {
		x.stats.Total = time.Since(start)
	}
	names := p.Names
	if len(names) != len(r.cols) {
		names = make([]string, len(r.cols))
		for i, c := range p.Root.Schema() {
			names[i] = c.Name
		}
	}
	return &exec.Result{Names: names, Columns: r.cols, Rows: r.rows}, x.stats, nil
}

// executor runs one plan.
type executor struct {
	ctx     context.Context
	mem     *exec.Memory
	workers int
	stats   *planner.OpStats
	mu      sync.Mutex
	subq    map[*planner.Subquery]*sql.Const
	frames  []time.Duration
	tables  map[*planner.HashJoin]*joinTable
	loops   map[*planner.NestedLoopJoin]*rel
	epsilon map[*planner.EpsilonJoin]*epsilonIndex // made on first use
	// params are the values of the sql.Param leaves of a nested
	// subquery's plan (this executor runs one evaluation of it); nested
	// caches the results of the nested subqueries this plan holds.
	params map[int]*sql.Const
	// warn collects the statement's warnings (sql/warnings.go; nil: none).
	warn   *sql.Warnings
	nested map[*planner.NestedSubquery]*nestedCache
	rands  map[*sql.Func]*randSeq // RAND(N)'s sequences, made on first use
	// spill is the query's temporary-file space (operators past the
	// memory limit write there; see sort_spill.go, hash_aggregate_spill.go).
	spill *exec.Spill
	// streamSource is the blocking join a pipeline is materializing as
	// its source: past the memory limit it is not rerun as a collected
	// hash join, the pipeline streams it (pipelineSource).
	streamSource planner.Node
	// runsOnce: the plan calls volatile functions (RAND, GET_LOCK, user
	// variable assignments), so no input may run a second time
	// (aggregations and joins past the memory limit that would run theirs
	// again to spill stop with the error instead).
	runsOnce bool
}

// newExecutor uses as many workers as Go runs threads (GOMAXPROCS: the
// CPUs by default, fewer where a container or `bench join` limits them).
func newExecutor(ctx context.Context) *executor {
	return &executor{ctx: ctx, mem: exec.MemoryFrom(ctx), warn: sql.WarningsFrom(ctx), workers: runtime.GOMAXPROCS(0),
		subq: map[*planner.Subquery]*sql.Const{}, tables: map[*planner.HashJoin]*joinTable{},
		loops:  map[*planner.NestedLoopJoin]*rel{},
		nested: map[*planner.NestedSubquery]*nestedCache{}}
}

// checkEvery returns the context's error on every k-th call (i counting
// the calls): long loops outside pipelines (building a hash table,
// evaluating sort keys, merging aggregates) call it per batch, so that
// Ctrl-C and deadlines stop them within milliseconds at little cost.
func (x *executor) checkEvery(i, k int) error {
	if i%k != 0 {
		return nil
	}
	return x.ctx.Err()
}

// debugPanics lets internal errors crash with a stack trace
// (GPUSQL_DEBUG_PANICS=1) instead of becoming errors.
var debugPanics = os.Getenv("GPUSQL_DEBUG_PANICS") != ""

// errStop ends a pipeline early without error (a LIMIT has its rows).
var errStop = errors.New("stop")

func typesOf(s sql.Schema) []columnar.Type {
	out := make([]columnar.Type, len(s))
	for i, c := range s {
		out[i] = c.Type
	}
	return out
}

// materialize computes a node's whole result.
func (x *executor) materialize(n planner.Node) (*rel, error) { return x.materializeFor(n, nil) }

// materializeFor computes n's result for consumer (the HashJoin whose build
// side n is, or nil): streaming operators and scans run as a pipeline
// collecting into a rel.
func (x *executor) materializeFor(n planner.Node, consumer planner.Node) (*rel, error) {
	if err := x.ctx.Err(); err != nil {
		return nil, err
	}
	start := x.enter()
	var r *rel
	var err error
	// rerun: a blocking join ran again as a hash join pipeline, which
	// counted its rows.
	rerun := false
	switch n := n.(type) {
	case *planner.HashAggregate:
		r, err = x.runAggregate(n)
	case *planner.Sort:
		r, err = x.runSort(n)
	case *planner.TopN:
		r, err = x.runTopN(n)
	case *planner.Limit:
		r, err = x.runLimit(n)
	case *planner.Distinct:
		r, err = x.runDistinct(n)
	case *planner.SetOp:
		r, err = x.runSetOp(n)
	case *planner.SortMergeJoin:
		restore := x.attemptMark()
		r, err = x.runSortMergeJoin(n)
		if isMemoryLimit(err) && !x.runsOnce && x.streamSource != planner.Node(n) {
			restore()
			r, err = x.joinByHash(asHashJoin(n), err)
			rerun = true
		}
	case *planner.HashJoin:
		if n.TwoPass { // a blocking join, not a streaming probe
			restore := x.attemptMark()
			r, err = x.runTwoPassJoin(n)
			if isMemoryLimit(err) && !x.runsOnce && x.streamSource != planner.Node(n) {
				restore()
				hj := *n
				hj.TwoPass = false
				r, err = x.joinByHash(&hj, err)
				rerun = true
			}
		} else {
			r, err = x.collect(n, -1, consumer)
		}
	case *planner.RangeJoinCount:
		r, err = x.runRangeJoinCount(n)
	case *planner.Values:
		r, err = x.runValues(n)
	case *planner.Window:
		r, err = x.runWindow(n)
	case *planner.TableScan:
		r = scanRel(n)
	default:
		r, err = x.collect(n, -1, consumer)
	}
	own := x.leave(start)
	if err != nil {
		return nil, err
	}
	if x.stats != nil && !rerun {
		switch n.(type) {
		case *planner.TableScan:
			x.stats.Add(n.Props().ID, int64(r.rows), own, 0)
		case *planner.Filter, *planner.Projection, *planner.HashJoin, *planner.NestedLoopJoin:
		case *planner.SetOp:
			if planner.UnionAll(n) == nil {
				x.stats.Add(n.Props().ID, int64(r.rows), own, 1)
			}
		default:
			x.stats.Add(n.Props().ID, int64(r.rows), own, 1)
		}
	}
	return r, nil
}

// enter starts timing an operator; leave returns its own time (its wall
// time minus that of the operators and pipelines it ran inside) and
// charges the whole wall time to the enclosing operator's children.
func (x *executor) enter() time.Time {
	x.frames = append(x.frames, 0)
	return time.Now()
}

func (x *executor) leave(start time.Time) time.Duration {
	el := time.Since(start)
	child := x.frames[len(x.frames)-1]
	x.frames = x.frames[:len(x.frames)-1]
	if len(x.frames) > 0 {
		x.frames[len(x.frames)-1] += el
	}
	return el - child
}

// subquery runs a scalar subquery once and returns its value.
func (x *executor) subquery(s *planner.Subquery) (*sql.Const, error) {
	x.mu.Lock()
	k, ok := x.subq[s]
	x.mu.Unlock()
	if ok {
		return k, nil
	}
	r, err := x.materialize(s.Root)
	if err != nil {
		return nil, err
	}
	if k, err = scalarValue(r, s.T); err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.subq[s] = k
	x.mu.Unlock()
	return k, nil
}
