package planner

import (
	"fmt"

	"gpusql/sql"
)

// Plan turns a bound query into a physical plan: logical rewrites (constant
// folding, predicate pushdown, equi-join extraction, column pruning), then
// join ordering and algorithm choice from statistics, TopN, and the cut into
// pipelines.
func Plan(q *sql.Query, opts Options) (*Physical, error) {
	switch opts.Join {
	case "", "hash", "merge", "bitmap", "twopass":
	default:
		return nil, fmt.Errorf("planner: join strategy %q: want \"\", \"hash\", \"merge\", \"bitmap\" or \"twopass\"", opts.Join)
	}
	switch opts.GroupBy {
	case "", "dense", "hash":
	default:
		return nil, fmt.Errorf("planner: group-by strategy %q: want \"\", \"dense\" or \"hash\"", opts.GroupBy)
	}
	b := newBuilder(opts)
	root, err := b.planQuery(q.Plan)
	if err != nil {
		return nil, err
	}
	p := &Physical{Root: root, Names: q.Names, Options: opts}
	id := 0
	for _, n := range p.Nodes() {
		id++
		n.Props().ID = id
	}
	p.Pipelines = Pipelines(p.Root)
	placeEpsilonJoins(p)
	p.CPUOnly = cpuOnlyReason(p)
	if opts.GPU != nil {
		p.GPU = PlanGPU(p, opts.GPU)
	}
	return p, nil
}

// planQuery runs the rewrites and builds the physical tree of one query
// block (the main query or a scalar subquery).
func (b *builder) planQuery(lp sql.Plan) (n Node, err error) {
	if err := checkPlan(lp); err != nil {
		return nil, err
	}
	defer func() {
		// Malformed plans (a binder bug) surface as errors, not crashes.
		if r := recover(); r != nil {
			err = fmt.Errorf("planner: %v", r)
		}
	}()
	lp = mapPlanExprs(lp, foldConstants)
	lp = pushDownFilters(lp)
	lp = splitCorrelatedNotIn(lp)
	lp = extractEquiJoins(lp)
	lp = pruneColumns(lp)
	n, err = b.build(lp)
	if err != nil {
		return nil, err
	}
	markNeeded(n, allTrue(len(n.Schema())))
	return n, nil
}
