package engine

import (
	"context"
	"fmt"
	"strings"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// query plans and runs a SELECT on the database's executor and says which
// executor ran it.
func (db *DB) query(ctx context.Context, q *sql.Query) (*exec.Result, string, error) {
	return db.queryOn(ctx, q, db.executor)
}

// queryOn runs q on executor ("cpu" or "gpu"; auto has been resolved).
func (db *DB) queryOn(ctx context.Context, q *sql.Query, executor string) (*exec.Result, string, error) {
	if err := db.materializeCTEs(ctx, q); err != nil {
		return nil, "", err
	}
	p, err := db.plan(q)
	if err != nil {
		return nil, "", err
	}
	return db.run(ctx, p, executor, ordered(q.Plan))
}

func (db *DB) plan(q *sql.Query) (*planner.Physical, error) {
	return db.planWith(q, db.cat.Remap)
}

// planWith is plan with the GPU planner's remap lookup given.
func (db *DB) planWith(q *sql.Query, remaps planner.RemapLookup) (*planner.Physical, error) {
	p, err := planner.Plan(q, planner.Options{Join: db.joinAlgorithm(), GroupBy: db.opts.GroupBy, Epsilon: db.epsilonOptions(), GPU: db.planProfile(), Remaps: remaps})
	if err == nil && len(q.Recursive) > 0 && p.CPUOnly == "" {
		// The recursive tables are computed by the engine between plans
		// and read as host tables the GPU column cache does not know.
		p.CPUOnly = "WITH RECURSIVE " + q.Recursive[0].Name + " is computed on the CPU"
	}
	return p, err
}

// run executes a physical plan on executor ("cpu" or "gpu") and returns the
// executor that produced the result. Under executor auto a plan the GPU
// executor does not support runs on the CPU; an explicit "gpu" reports it.
// With Check the plan runs on both and the statement fails when they
// disagree (rows must also come in the same order when the query orders
// them); plans the GPU does not support are then run on the CPU alone.
func (db *DB) run(ctx context.Context, p *planner.Physical, executor string, inOrder bool) (*exec.Result, string, error) {
	if err := verifyScans(p); err != nil {
		return nil, "", err
	}
	ctx, done := db.queryMemory(ctx)
	defer done()
	if db.opts.Check {
		want, err := cpu.Run(ctx, p)
		if err != nil {
			return nil, "", err
		}
		got, err := runOn(ctx, p, "gpu")
		if gpuUnsupported(err) {
			return named(want, p), "cpu", nil
		}
		if err != nil {
			return nil, "", err
		}
		if err := CompareResults(got, want, inOrder); err != nil {
			return nil, "", fmt.Errorf("check failed: the GPU and CPU executors disagree: %w", err)
		}
		return named(got, p), "gpu", nil
	}
	res, err := runOn(ctx, p, executor)
	if executor == "gpu" && db.opts.Executor == "auto" && gpuUnsupported(err) {
		executor = "cpu"
		res, err = runOn(ctx, p, executor)
	}
	if err != nil {
		return nil, "", err
	}
	return named(res, p), executor, nil
}

func runOn(ctx context.Context, p *planner.Physical, executor string) (*exec.Result, error) {
	if executor == "gpu" {
		if err := gpuStatus(); err != nil {
			return nil, err
		}
		return gpuRunner(ctx, p)
	}
	return cpu.Run(ctx, p)
}

// named gives the result the query's column names (aliases).
func named(res *exec.Result, p *planner.Physical) *exec.Result {
	if len(p.Names) == len(res.Columns) {
		res.Names = p.Names
	}
	return res
}

// ordered reports whether a query's rows come in a defined order: its plan
// is a Sort under any Project and Limit nodes.
func ordered(p sql.Plan) bool {
	for {
		switch n := p.(type) {
		case *sql.Sort:
			return true
		case *sql.Project:
			p = n.Input
		case *sql.Limit:
			p = n.Input
		default:
			return false
		}
	}
}

// explain shows the physical plan; with ANALYZE it runs the query and adds
// what the run measured: on the GPU (the database's executor) per kernel
// times, bytes and rates (gpu_profile.go); on the CPU executor per
// operator rows and times.
func (db *DB) explain(ctx context.Context, s *sql.Explain) (*StatementResult, error) {
	if s.Analyze {
		if err := db.materializeCTEs(ctx, s.Query); err != nil {
			return nil, err
		}
	}
	p, err := db.plan(s.Query)
	if err != nil {
		return nil, err
	}
	text := p.Explain()
	executor := ""
	if s.Analyze && db.executor == "gpu" && !db.opts.Check {
		gpuText, ok, err := db.explainAnalyzeGPU(ctx, p)
		if err != nil {
			return nil, err
		}
		if ok {
			text, executor = gpuText, "gpu"
		}
	}
	if s.Analyze && executor == "" {
		ctx, done := db.queryMemory(ctx)
		defer done()
		_, stats, err := cpu.RunAnalyze(ctx, p)
		if err != nil {
			return nil, err
		}
		text = planner.ExplainAnalyze(p, stats)
		executor = "cpu"
	}
	text = strings.TrimRight(text, "\n")
	return &StatementResult{
		Kind:     KindRows,
		Result:   stringsResult("plan", strings.Split(text, "\n")),
		Explain:  text,
		Executor: executor,
	}, nil
}

// Prepared is a planned query that can run many times (the bench command
// times it on each executor).
type Prepared struct {
	Physical *planner.Physical
	Query    *sql.Query
}

// Prepare binds and plans one SELECT.
func (db *DB) Prepare(text string) (*Prepared, error) {
	return db.prepareWith(text, db.cat.Remap)
}

// prepareWith is Prepare with the GPU planner's remap lookup given.
func (db *DB) prepareWith(text string, remaps planner.RemapLookup) (*Prepared, error) {
	stmts, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("prepare wants one statement, got %d", len(stmts))
	}
	stmt, err := sql.BindSession(db.cat, db.session, stmts[0])
	if err != nil {
		return nil, err
	}
	q, ok := stmt.(*sql.Query)
	if !ok {
		return nil, fmt.Errorf("prepare wants a query, got %T", stmt)
	}
	p, err := db.planWith(q, remaps)
	if err != nil {
		return nil, err
	}
	return &Prepared{Physical: p, Query: q}, nil
}

// Run executes a prepared query on executor "cpu" or "gpu" (the database's
// Check option applies).
func (db *DB) Run(ctx context.Context, p *Prepared, executor string) (*exec.Result, error) {
	if executor != "cpu" && executor != "gpu" {
		return nil, fmt.Errorf("unknown executor %q (want cpu or gpu)", executor)
	}
	res, _, err := db.run(ctx, p.Physical, executor, ordered(p.Query.Plan))
	return res, cancelledErr(ctx, err)
}

func cancelledErr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return cancelled(ctx.Err())
	}
	return err
}

// Ordered reports whether the query defines the order of its rows.
func (p *Prepared) Ordered() bool { return ordered(p.Query.Plan) }

// ScannedBytes is the size of the base-table columns the plan reads: for
// each column a scan keeps after pruning, rows × value width. Dividing it by
// a run's time gives the effective scan bandwidth.
// LinkBytes is what the GPU plan reads across the host link on every run:
// its streamed columns in their wire width and its zero-copy columns in
// their host width (0 when every column is resident, or without a GPU
// plan).
func (p *Prepared) LinkBytes() int64 {
	g := p.Physical.GPU
	if g == nil {
		return 0
	}
	var n int64
	for _, c := range g.Columns {
		switch c.Place {
		case planner.PlaceStreamed:
			n += int64(c.WireWidth) * int64(c.Col.Len)
		case planner.PlaceZeroCopy:
			n += c.HostBytes
		}
	}
	return n
}

// FetchBytes is what the GPU plan estimates its kernels fetch from device
// memory: a star's fact columns for the rows alive when the kernel reads
// them (late materialization, planner/gpu_fact_reads.go) and its other
// columns whole; 0 for plans that are not a star.
func (p *Prepared) FetchBytes() int64 {
	g := p.Physical.GPU
	if g == nil || g.Star == nil {
		return 0
	}
	n := g.Star.FactReadBytes
	for _, c := range g.Columns {
		if !c.Fact {
			n += c.Bytes
		}
	}
	return n
}

func (p *Prepared) ScannedBytes() int64 {
	var n int64
	for _, node := range p.Physical.Nodes() {
		scan, ok := node.(*planner.TableScan)
		if !ok {
			continue
		}
		for _, c := range scan.Columns {
			w := int64(4)
			if scan.Table.Fields[c].Type.Physical() != columnar.PhysInt32 {
				w = 8
			}
			n += int64(scan.Table.Rows) * w
		}
	}
	return n
}

// verifyScans runs the deferred checksum of every column the plan scans
// (columns mapped from a database file are verified on first use, so a
// damaged file is the query's error, never a wrong answer).
func verifyScans(p *planner.Physical) error {
	for _, node := range p.Nodes() {
		if scan, ok := node.(*planner.TableScan); ok {
			for _, c := range scan.Columns {
				if err := scan.Table.Columns[c].Verify(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
