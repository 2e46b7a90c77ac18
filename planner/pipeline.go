package planner

import "gpusql/sql"

// Pipeline is a source, a chain of streaming operators and a sink. The rows
// of a pipeline never wait between its operators: the CPU executor pushes
// each morsel of the source through the whole chain on one core, and the GPU
// executor runs the whole chain as one fused kernel (a star join pipelined
// into its group-by: scan lineorder, test its filters, probe every dimension
// table, aggregate, in one pass; Kaldewey et al.).
//
// Source is a TableScan or Values, or an operator whose result another
// pipeline materializes (anything that is neither streaming nor a scan,
// but a UNION ALL: the pipelines of its inputs pass it, see UnionAll).
// Ops are the streaming operators in the order rows pass them: Filter,
// Projection, HashJoin (this pipeline streams its probe input; the build
// input is the sink of another pipeline) and NestedLoopJoin (it streams its
// left input; the right one is materialized by another pipeline, the
// "build", and each left batch is paired with all of it). Sink consumes the
// rows: the HashJoin or NestedLoopJoin whose build side this is (SinkRole
// "build"), a HashAggregate, Sort, TopN, Limit, Distinct, SetOp or
// SortMergeJoin ("input"), or nil for the pipeline producing the query
// result ("result").
//
// A nested-loop join streams so that a cross or theta join under an
// aggregate, a TopN or a LIMIT never holds its pairs: they flow a batch at
// a time into the sink, in memory bounded by the two inputs.
type Pipeline struct {
	ID     int
	Source Node
	Ops    []Node
	Sink   Node
	// SinkRole is "build", "input" or "result".
	SinkRole string
	// Deps are the pipelines that must finish first: those building the
	// hash tables this one probes and the one materializing its source.
	Deps []int
}

// UnionAll is n as a UNION ALL, which streams its inputs (nil: n is
// something else): a pipeline whose source it is runs once per input,
// through the union, into its sink.
func UnionAll(n Node) *SetOp {
	if u, ok := n.(*SetOp); ok && u.Kind == sql.SetUnion && u.All {
		return u
	}
	return nil
}

// Streaming reports whether n passes rows through in a pipeline (as opposed
// to being a source or a sink).
func Streaming(n Node) bool {
	switch n := n.(type) {
	case *Filter, *Projection, *NestedLoopJoin, *EpsilonJoin:
		return true
	case *HashJoin:
		return !n.TwoPass
	}
	return false
}

// StreamInput returns the input a streaming operator's rows come from (the
// probe side of a HashJoin).
func StreamInput(n Node) Node {
	switch n := n.(type) {
	case *Filter:
		return n.Input
	case *Projection:
		return n.Input
	case *HashJoin:
		return n.Probe()
	case *NestedLoopJoin:
		return n.Left
	case *EpsilonJoin:
		return n.Left
	}
	return nil
}

// BuildInput returns the input a streaming join materializes before its
// pipeline runs (the build side of a HashJoin, the right input of a
// NestedLoopJoin), or nil.
func BuildInput(n Node) Node {
	switch n := n.(type) {
	case *HashJoin:
		return n.Build()
	case *NestedLoopJoin:
		return n.Right
	case *EpsilonJoin:
		return n.Right
	}
	return nil
}

// Pipelines cuts the plan rooted at root into pipelines, dependencies first.
// Scalar subqueries are planned separately and run before.
func Pipelines(root Node) []*Pipeline {
	pc := &pipeCutter{}
	pc.cut(root, nil, "result")
	return pc.out
}

type pipeCutter struct {
	out []*Pipeline
	// byNode remembers the pipeline that materializes a node.
	byNode map[Node]int
}

// cut builds the pipeline that ends in sink, whose topmost streaming operator
// (or source) is top, after the pipelines it depends on. It returns its id.
func (pc *pipeCutter) cut(top Node, sink Node, role string) int {
	return pc.cutUnder(top, nil, sink, role, nil)
}

// cutUnder cuts the pipeline of top continued by the streaming operators
// above (those over a UNION ALL that top is an input of), after the
// pipelines deps. A UNION ALL as the source streams: each of its inputs is
// a pipeline passing the union and the operators over it into the one
// sink, the right input's after the left's (UnionAll).
func (pc *pipeCutter) cutUnder(top Node, above []Node, sink Node, role string, deps []int) int {
	if pc.byNode == nil {
		pc.byNode = map[Node]int{}
	}
	ops := append([]Node{}, above...)
	n := top
	for Streaming(n) {
		ops = append([]Node{n}, ops...)
		n = StreamInput(n)
	}
	if u := UnionAll(n); u != nil {
		ops = append([]Node{u}, ops...)
		left := pc.cutUnder(u.Left, ops, sink, role, deps)
		return pc.cutUnder(u.Right, ops, sink, role, []int{left})
	}
	p := &Pipeline{Source: n, Ops: ops, Sink: sink, SinkRole: role, Deps: deps}
	for _, op := range ops {
		if b := BuildInput(op); b != nil {
			if id, ok := pc.byNode[op]; ok {
				p.Deps = append(p.Deps, id) // built for another input of a UNION ALL
			} else {
				p.Deps = append(p.Deps, pc.cut(b, op, "build"))
			}
		}
	}
	if !isLeafSource(n) {
		if id, ok := pc.byNode[n]; ok {
			p.Deps = append(p.Deps, id)
		} else {
			for _, c := range n.Children() {
				p.Deps = append(p.Deps, pc.cut(c, n, "input"))
			}
		}
	}
	p.ID = len(pc.out) + 1
	pc.out = append(pc.out, p)
	if sink != nil {
		pc.byNode[sink] = p.ID
	}
	return p.ID
}

func isLeafSource(n Node) bool {
	switch n.(type) {
	case *TableScan, *Values:
		return true
	}
	return false
}

// StarPipeline is the shape the GPU runs as one fused kernel: a fact-table
// scan, its filters, a chain of inner hash-join probes each against a
// (filtered) dimension whose unique keys are indexed by a direct array or a
// hash table, and a HashAggregate sink. Filters and projections between the
// probes are listed in Ops in order, as in the pipeline.
type StarPipeline struct {
	Pipeline  *Pipeline
	Fact      *TableScan
	Probes    []*HashJoin
	Aggregate *HashAggregate
}

// Star returns p as a StarPipeline when it has that shape.
func (p *Pipeline) Star() (*StarPipeline, bool) {
	fact, ok := p.Source.(*TableScan)
	agg, ok2 := p.Sink.(*HashAggregate)
	if !ok || !ok2 || p.SinkRole != "input" {
		return nil, false
	}
	s := &StarPipeline{Pipeline: p, Fact: fact, Aggregate: agg}
	for _, op := range p.Ops {
		switch op.(type) {
		case *NestedLoopJoin, *SetOp: // a UNION ALL's input is no star
			return nil, false
		}
		if hj, ok := op.(*HashJoin); ok {
			if hj.Kind != sql.JoinInner || hj.BuildSide != BuildRight {
				return nil, false
			}
			s.Probes = append(s.Probes, hj)
		}
	}
	return s, len(s.Probes) > 0
}
