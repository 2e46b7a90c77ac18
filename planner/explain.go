package planner

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"gpusql/sql"
)

// OpStats is what EXPLAIN ANALYZE adds to a plan: per operator (keyed by
// Props.ID) the rows it produced and the time spent in it.
type OpStats struct {
	mu    sync.Mutex
	Ops   map[int]*OpStat
	Total time.Duration
}

// OpStat is one operator's measurements. For operators fused into a
// pipeline, Time is the time spent in the operator itself (its consumers
// excluded), summed over worker goroutines.
type OpStat struct {
	Rows    int64
	Time    time.Duration
	Batches int64
	// SpillRuns and SpillBytes are the files (sorted runs, partitions) and
	// bytes the operator wrote to disk past the memory limit.
	SpillRuns, SpillBytes int64
}

// NewOpStats returns empty statistics.
func NewOpStats() *OpStats { return &OpStats{Ops: map[int]*OpStat{}} }

// Add accumulates rows, time and batches into operator id (safe for
// concurrent use).
func (s *OpStats) Add(id int, rows int64, d time.Duration, batches int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.Ops[id]
	if o == nil {
		o = &OpStat{}
		s.Ops[id] = o
	}
	o.Rows += rows
	o.Time += d
	o.Batches += batches
}

// Snapshot copies the statistics gathered so far; Restore puts such a
// copy back (an operator that gives up an attempt past the memory limit
// and runs its input again counts the input's rows once).
func (s *OpStats) Snapshot() map[int]OpStat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int]OpStat, len(s.Ops))
	for id, o := range s.Ops {
		out[id] = *o
	}
	return out
}

// Restore replaces the statistics by a Snapshot.
func (s *OpStats) Restore(snap map[int]OpStat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Ops = make(map[int]*OpStat, len(snap))
	for id, o := range snap {
		o := o
		s.Ops[id] = &o
	}
}

// AddSpill records files and bytes operator id spilled to disk.
func (s *OpStats) AddSpill(id int, files, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.Ops[id]
	if o == nil {
		o = &OpStat{}
		s.Ops[id] = o
	}
	o.SpillRuns += files
	o.SpillBytes += bytes
}

// Explain renders the plan as a tree: each operator with its choices and
// estimated rows, then the pipelines.
func (p *Physical) Explain() string { return explain(p, nil) }

// ExplainAnalyze renders the plan with the actual rows and times of a run.
func ExplainAnalyze(p *Physical, stats *OpStats) string { return explain(p, stats) }

func explain(p *Physical, stats *OpStats) string {
	var sb strings.Builder
	var visit func(n Node, prefix, childPrefix string)
	visit = func(n Node, prefix, childPrefix string) {
		sb.WriteString(prefix)
		sb.WriteString(describe(n))
		pr := n.Props()
		fmt.Fprintf(&sb, "  (est %s rows", fmtRows(pr.EstRows))
		if stats != nil {
			if o := stats.Ops[pr.ID]; o != nil {
				fmt.Fprintf(&sb, ", actual %d rows, %s", o.Rows, fmtDur(o.Time))
				if o.SpillRuns > 0 {
					fmt.Fprintf(&sb, ", spilled %d runs, %.1f MiB", o.SpillRuns, float64(o.SpillBytes)/(1<<20))
				}
			} else {
				sb.WriteString(", not run")
			}
		}
		sb.WriteString(")\n")
		kids := n.Children()
		for _, sq := range nodeSubqueries(n) {
			sb.WriteString(childPrefix + "│ " + sq.Label + ":\n")
			visit(sq.Root, childPrefix+"│   ", childPrefix+"│   ")
		}
		for i, c := range kids {
			if i == len(kids)-1 {
				visit(c, childPrefix+"└─ ", childPrefix+"   ")
			} else {
				visit(c, childPrefix+"├─ ", childPrefix+"│  ")
			}
		}
	}
	visit(p.Root, "", "")
	sb.WriteString("Pipelines:\n")
	for _, pl := range p.Pipelines {
		fmt.Fprintf(&sb, "  P%d: %s", pl.ID, opName(pl.Source))
		for _, op := range pl.Ops {
			if BuildInput(op) != nil {
				fmt.Fprintf(&sb, " → probe %s", opName(op))
			} else {
				fmt.Fprintf(&sb, " → %s", opName(op))
			}
		}
		switch pl.SinkRole {
		case "build":
			fmt.Fprintf(&sb, " → build %s", opName(pl.Sink))
		case "input":
			fmt.Fprintf(&sb, " → %s", opName(pl.Sink))
		default:
			sb.WriteString(" → result")
		}
		if len(pl.Deps) > 0 {
			ds := make([]string, len(pl.Deps))
			for i, d := range pl.Deps {
				ds[i] = fmt.Sprintf("P%d", d)
			}
			fmt.Fprintf(&sb, "  (after %s)", strings.Join(ds, ", "))
		}
		if _, ok := pl.Star(); ok {
			sb.WriteString("  [star]")
		}
		sb.WriteString("\n")
	}
	if p.CPUOnly != "" {
		fmt.Fprintf(&sb, "Executor: CPU only (%s)\n", p.CPUOnly)
	} else if p.GPU != nil {
		explainGPU(&sb, p.GPU)
	}
	if stats != nil {
		fmt.Fprintf(&sb, "Total: %s\n", fmtDur(stats.Total))
	}
	return sb.String()
}

func opName(n Node) string {
	return fmt.Sprintf("%s#%d", kindName(n), n.Props().ID)
}

// OpName is n's name as EXPLAIN shows it ("HashJoin#3"): how errors about
// an operator (the memory limit) name it.
func OpName(n Node) string { return opName(n) }

func kindName(n Node) string {
	switch n.(type) {
	case *TableScan:
		return "TableScan"
	case *Filter:
		return "Filter"
	case *Projection:
		return "Projection"
	case *HashJoin:
		return "HashJoin"
	case *SortMergeJoin:
		return "SortMergeJoin"
	case *NestedLoopJoin:
		return "NestedLoopJoin"
	case *EpsilonJoin:
		return "EpsilonJoin"
	case *RangeJoinCount:
		return "RangeJoinCount"
	case *HashAggregate:
		return "HashAggregate"
	case *Sort:
		return "Sort"
	case *TopN:
		return "TopN"
	case *Limit:
		return "Limit"
	case *Distinct:
		return "Distinct"
	case *SetOp:
		return "SetOp"
	case *Values:
		return "Values"
	case *Window:
		return "Window"
	}
	return fmt.Sprintf("%T", n)
}

// describe is one operator's line: name, id and choices.
func describe(n Node) string {
	head := opName(n)
	switch n := n.(type) {
	case *TableScan:
		names := make([]string, len(n.Out))
		for i, c := range n.Out {
			names[i] = c.Name
		}
		return fmt.Sprintf("%s %s [%s]", head, n.Table.Name, strings.Join(names, ", "))
	case *Filter:
		return fmt.Sprintf("%s %s", head, exprString(n.Cond))
	case *Projection:
		// Columns nothing reads (a join region's reordering keeps every
		// column in place) are left out.
		var used []sql.Expr
		for i, e := range n.Exprs {
			if n.Needed == nil || i >= len(n.Needed) || n.Needed[i] {
				used = append(used, e)
			}
		}
		s := fmt.Sprintf("%s [%s]", head, exprList(used))
		if k := len(n.Exprs) - len(used); k > 0 {
			s += fmt.Sprintf(" (+%d unused)", k)
		}
		return s
	case *HashJoin:
		s := fmt.Sprintf("%s %s build=%s %s", head, joinKindName(n.Kind, n.NullAware), n.BuildSide, n.Strategy)
		switch n.Strategy {
		case DirectArray, Bitmap:
			s += fmt.Sprintf("[%d..%d]", n.KeyMin, n.KeyMax)
		case BucketedBitmap:
			s += fmt.Sprintf("[%d..%d]/2^%d", n.KeyMin, n.KeyMax, n.BucketBits)
		}
		if n.TwoPass {
			s += " two-pass"
		}
		if n.Fallback != "" {
			s += " (bitmap not applicable: " + n.Fallback + ")"
		}
		if n.UniqueBuild {
			s += " unique"
		}
		s += " on " + keyPairs(n.LeftKeys, n.RightKeys, n.Left.Schema(), n.Right.Schema())
		if n.Residual != nil {
			s += " residual " + exprString(n.Residual)
		}
		if n.Kind != sql.JoinSemi && n.Kind != sql.JoinAnti {
			bs := n.Build().Schema()
			var names []string
			for _, c := range n.Payload() {
				names = append(names, bs[c].Name)
			}
			s += " payload=[" + strings.Join(names, ", ") + "]"
		}
		return s
	case *SortMergeJoin:
		return describeSortMergeJoin(head, n)
	case *NestedLoopJoin:
		s := fmt.Sprintf("%s %s", head, joinKindName(n.Kind, n.NullAware))
		if n.Cond != nil {
			s += " on " + exprString(n.Cond)
		}
		return s
	case *RangeJoinCount:
		return describeRangeJoinCount(head, n)
	case *EpsilonJoin:
		return describeEpsilonJoin(head, n)
	case *HashAggregate:
		s := fmt.Sprintf("%s %s", head, n.Strategy)
		if n.Strategy == AggDense && len(n.DenseKeys) > 0 {
			sizes := make([]string, len(n.DenseKeys))
			for i, k := range n.DenseKeys {
				sizes[i] = fmt.Sprint(k.Size)
			}
			s += fmt.Sprintf("(%s=%d slots)", strings.Join(sizes, "×"), n.DenseSlots())
		}
		if len(n.GroupBy) > 0 {
			s += " keys=[" + exprList(n.GroupBy) + "]"
		}
		aggs := make([]string, len(n.Aggs))
		for i, a := range n.Aggs {
			aggs[i] = aggString(a)
		}
		return s + " aggs=[" + strings.Join(aggs, ", ") + "]"
	case *Sort:
		return fmt.Sprintf("%s [%s]", head, sortKeysString(n.Keys))
	case *TopN:
		return fmt.Sprintf("%s [%s] offset=%d count=%d", head, sortKeysString(n.Keys), n.Offset, n.Count)
	case *Limit:
		return fmt.Sprintf("%s offset=%d count=%d", head, n.Offset, n.Count)
	case *SetOp:
		k := map[sql.SetOpKind]string{sql.SetUnion: "UNION", sql.SetIntersect: "INTERSECT", sql.SetExcept: "EXCEPT"}[n.Kind]
		if n.All {
			k += " ALL"
		}
		return head + " " + k
	case *Values:
		return fmt.Sprintf("%s %d rows", head, len(n.Rows))
	case *Window:
		return describeWindow(head, n)
	}
	return head
}

func joinKindName(k sql.JoinKind, nullAware bool) string {
	s := map[sql.JoinKind]string{sql.JoinInner: "Inner", sql.JoinLeft: "Left", sql.JoinSemi: "Semi",
		sql.JoinAnti: "Anti", sql.JoinCross: "Cross"}[k]
	if nullAware {
		s += "(null-aware)"
	}
	return s
}

func keyPairs(lk, rk []sql.Expr, ls, rs sql.Schema) string {
	parts := make([]string, len(lk))
	for i := range lk {
		parts[i] = exprString(lk[i]) + " = " + exprString(rk[i])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func exprList(list []sql.Expr) string {
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = exprString(e)
	}
	return strings.Join(parts, ", ")
}

func sortKeysString(keys []sql.SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = exprString(k.Expr)
		if k.Desc {
			parts[i] += " DESC"
		} else {
			parts[i] += " ASC"
		}
	}
	return strings.Join(parts, ", ")
}

func aggString(a sql.AggExpr) string {
	name := sql.AggName(a.Func)
	if a.Func == sql.AggCountStar {
		return "count(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	s := name + "(" + d + exprString(a.Arg)
	for i, k := range a.Order {
		if i == 0 {
			s += " ORDER BY "
		} else {
			s += ", "
		}
		s += exprString(k.Expr)
		if k.Desc {
			s += " DESC"
		}
	}
	if a.Func == sql.AggGroupConcat {
		s += fmt.Sprintf(" SEPARATOR %q", a.Sep)
	}
	return s + ")"
}

func fmtRows(r float64) string {
	if r >= 1e6 {
		return fmt.Sprintf("%.3gM", r/1e6)
	}
	if r >= 1e4 {
		return fmt.Sprintf("%.3gK", r/1e3)
	}
	return fmt.Sprintf("%d", int64(math.Round(r)))
}

func fmtDur(d time.Duration) string {
	return fmt.Sprintf("%.3fms", float64(d)/1e6)
}

// ExplainNode renders the subtree rooted at n (without pipelines).
func ExplainNode(n Node) string {
	s := explain(&Physical{Root: n}, nil)
	if i := strings.Index(s, "Pipelines:"); i >= 0 {
		s = s[:i]
	}
	return s
}
