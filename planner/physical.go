// Package planner turns a bound logical plan (package sql) into a physical
// plan that both executors run: it rewrites the plan (constant folding,
// predicate pushdown, equi-join extraction, column pruning, TopN), estimates
// cardinalities from table statistics, orders joins by dynamic programming
// over connected subgraphs, picks each operator's algorithm (hash or
// sort-merge join, direct-array or hash-table build, dense or hash
// aggregation) and cuts the plan into pipelines. For a GPU it then plans
// the GPU's part (gpu_plan.go) for a device profile (gpu_profile.go): the
// fused star pipeline with each join's build structure and probe order,
// the group table's layout, where the tail above the GPU's part runs and
// where each column lives; exec/gpu executes that plan, and EXPLAIN shows
// it, on any machine.
//
// The operator names are the ones exec/cpu, exec/gpu and kernels use, so one
// concept can be followed through every layer by its name.
package planner

import (
	"gpusql/sql"
)

// Node is an operator of the physical plan. Column references in a node's
// expressions are positions in its input's schema (for joins: left columns,
// then right columns), exactly as in the logical plan.
type Node interface {
	Schema() sql.Schema
	Children() []Node
	// Props holds what the planner knows about the node: its id (the key of
	// OpStats) and its estimated output rows.
	Props() *NodeProps
}

// NodeProps are the planner's annotations shared by every node.
type NodeProps struct {
	// ID numbers the nodes of a plan from 1 in pre-order; EXPLAIN ANALYZE
	// and OpStats key on it.
	ID int
	// EstRows is the estimated number of output rows.
	EstRows float64
	// Cost is the estimated cost of the subtree (sum of intermediate sizes
	// plus build costs), in row units.
	Cost float64
}

// Props returns p itself so that embedding NodeProps implements Node.Props.
func (p *NodeProps) Props() *NodeProps { return p }

// Physical is a planned query: the operator tree, its result column names and
// its pipelines.
type Physical struct {
	Root  Node
	Names []string
	// Pipelines lists the plan's pipelines in an order in which they can run
	// (every pipeline after those it depends on); the last one produces the
	// result. Scalar subqueries (Subquery expressions) are separate trees,
	// run before the operator holding them; Pipelines(sq.Root) cuts them.
	Pipelines []*Pipeline
	// Options are the options the plan was made with.
	Options Options
	// CPUOnly, when set, says why the plan runs on the CPU executor only
	// (an operator or expression the GPU executor does not implement,
	// e.g. a nested subquery): the GPU executor refuses it and the engine
	// runs it on the CPU, as EXPLAIN shows.
	CPUOnly string
	// GPU is the GPU planning pass's result (gpu_plan.go): set when the
	// plan was made for a GPU (Options.GPU), nil otherwise.
	GPU *GPUPlan
}

// Options steer algorithm choices, chiefly so tests can run every query under
// every strategy and compare the results.
type Options struct {
	// Join is "" (cost-based), "hash", "merge", "bitmap" or "twopass": the
	// algorithm of every equi-join ("bitmap" where a bitmap can index the
	// build side, bucketed when the key domain is large, the others saying
	// in EXPLAIN why they fall back; "twopass" a hash join the CPU runs by
	// two-pass bucketing).
	Join string
	// GroupBy is "" (cost-based), "dense" (wherever the keys allow it) or
	// "hash".
	GroupBy string
	// Epsilon switches the ε-similarity join and its optimizations.
	Epsilon EpsilonOptions
	// GPU, when set, makes the planner plan the GPU's part for this
	// device profile too (Physical.GPU), so EXPLAIN shows it.
	GPU *GPUProfile
	// Remaps finds the remapped twins of fact columns, which the GPU plan
	// may read dimension payloads by (gpu_payload.go); nil: none.
	Remaps RemapLookup
}

// Walk calls fn on n and its descendants in pre-order (children in order).
// Scalar subqueries inside expressions are not visited; see Subqueries.
func Walk(n Node, fn func(Node)) {
	fn(n)
	for _, c := range n.Children() {
		Walk(c, fn)
	}
}

// Nodes returns every node of the plan, scalar subquery plans included, in
// pre-order.
func (p *Physical) Nodes() []Node {
	var out []Node
	var visit func(Node)
	visit = func(n Node) {
		out = append(out, n)
		for _, sq := range nodeSubqueries(n) {
			visit(sq.Root)
		}
		for _, c := range n.Children() {
			visit(c)
		}
	}
	visit(p.Root)
	return out
}
