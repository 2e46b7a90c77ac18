package planner

import (
	"fmt"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// GPUStarAgg is one aggregate the star kernel computes per group: Fn over
// A Op B (fact table columns), or over Expr, an expression over the fact
// table's columns that the expression VM computes into a column before
// the pipeline runs (A and B are then -1).
type GPUStarAgg struct {
	Fn      GPUAggFn
	Op      GPUAggOp
	A, B    int
	IsFloat bool
	Expr    sql.Expr
}

// GPUAggFn is a star kernel aggregate function (values as in
// kernels/common.cuh).
type GPUAggFn int32

const (
	GPUCountStar GPUAggFn = iota
	GPUCount
	GPUSum
	GPUMin
	GPUMax
)

// GPUAggOp is the operation the kernel applies to an aggregate's two fact
// columns (values as in kernels/common.cuh).
type GPUAggOp int32

const (
	GPUOpA GPUAggOp = iota
	GPUOpMul
	GPUOpSub
	GPUOpAdd
)

// GPUStarOutput says how output aggregate i is made from kernel aggregates.
type GPUStarOutput struct {
	Agg  sql.AggExpr
	Slot int // kernel aggregate of the value (the sum for AVG)
	// CountSlot is the kernel aggregate counting non-NULL arguments; -1:
	// the group's row count.
	CountSlot int
}

// factOperand resolves an aggregate operand to a fact column.
func (q *GPUStar) factOperand(e sql.Expr) (int, bool) {
	r, ok := ColRefUnder(e)
	if !ok {
		return 0, false
	}
	b, ok := ResolveScanColumn(q.Aggregate.Input, r.Index)
	if !ok || b.Scan != q.Fact {
		return 0, false
	}
	return b.Col, true
}

func (q *GPUStar) addAgg(a GPUStarAgg) int {
	for i, x := range q.Aggs {
		if x == a {
			return i
		}
	}
	q.Aggs = append(q.Aggs, a)
	return len(q.Aggs) - 1
}

// matchAggs maps the aggregate's functions onto kernel aggregates, shared
// where two outputs need the same one (SUM and AVG of a column share the
// sum; NULL counts are shared).
func (q *GPUStar) matchAggs() error {
	for _, ae := range q.Aggregate.Aggs {
		out, err := q.matchAgg(ae)
		if err != nil {
			return notStar(q.Aggregate, fmt.Sprintf("aggregate %s: %s", aggString(ae), err))
		}
		q.Outputs = append(q.Outputs, out)
	}
	return nil
}

func (q *GPUStar) matchAgg(ae sql.AggExpr) (GPUStarOutput, error) {
	if ae.Distinct {
		return GPUStarOutput{}, fmt.Errorf("DISTINCT")
	}
	if ae.Func == sql.AggCountStar {
		return GPUStarOutput{Agg: ae, Slot: q.addAgg(GPUStarAgg{Fn: GPUCountStar, A: -1, B: -1}), CountSlot: -1}, nil
	}
	sa := GPUStarAgg{A: -1, B: -1, Op: GPUOpA}
	arg := ae.Arg
	if c, ok := q.factOperand(arg); ok {
		sa.A = c
	} else if ca, cb, op, ok := q.simpleBinary(arg); ok {
		sa.A, sa.B, sa.Op = ca, cb, op
	} else {
		if arg.Type().ID == columnar.String {
			return GPUStarOutput{}, fmt.Errorf("computed string argument")
		}
		if cols, ok := ScanColumnsOf(arg, q.Aggregate.Input); !ok || !onlyScan(cols, q.Fact) {
			return GPUStarOutput{}, fmt.Errorf("argument reads columns outside the fact table")
		}
		sa.Expr = arg
	}
	sa.IsFloat = arg.Type().ID == columnar.Float64
	if arg.Type().ID == columnar.String && ae.Func != sql.AggMin && ae.Func != sql.AggMax && ae.Func != sql.AggCount {
		return GPUStarOutput{}, fmt.Errorf("string argument")
	}
	nullable := q.nullable(sa.A) || sa.B >= 0 && q.nullable(sa.B) || sa.Expr != nil
	out := GPUStarOutput{Agg: ae, CountSlot: -1}
	cnt := GPUStarAgg{Fn: GPUCount, A: sa.A, B: sa.B, Op: sa.Op, Expr: sa.Expr}
	switch ae.Func {
	case sql.AggCount:
		out.Slot = q.addAgg(cnt)
	case sql.AggSum, sql.AggAvg:
		sa.Fn = GPUSum
		out.Slot = q.addAgg(sa)
		if nullable || ae.Func == sql.AggAvg {
			out.CountSlot = q.addAgg(cnt)
		}
	case sql.AggMin, sql.AggMax:
		sa.Fn = GPUMin
		if ae.Func == sql.AggMax {
			sa.Fn = GPUMax
		}
		out.Slot = q.addAgg(sa)
		if nullable {
			out.CountSlot = q.addAgg(cnt)
		}
	default:
		return GPUStarOutput{}, fmt.Errorf("function")
	}
	return out, nil
}

func onlyScan(cols []ScanColumn, s *TableScan) bool {
	for _, c := range cols {
		if c.Scan != s {
			return false
		}
	}
	return true
}

// simpleBinary matches a+b, a-b, a*b of two fact columns, which the
// pipeline kernels compute themselves.
func (q *GPUStar) simpleBinary(arg sql.Expr) (ca, cb int, op GPUAggOp, ok bool) {
	bin, ok := arg.(*sql.Binary)
	if !ok || (bin.Op != sql.OpAdd && bin.Op != sql.OpSub && bin.Op != sql.OpMul) {
		return 0, 0, 0, false
	}
	ca, okA := q.factOperand(bin.L)
	cb, okB := q.factOperand(bin.R)
	if !okA || !okB {
		return 0, 0, 0, false
	}
	if bin.T.ID == columnar.Decimal && bin.Op != sql.OpMul && bin.L.Type().Scale != bin.R.Type().Scale {
		return 0, 0, 0, false
	}
	return ca, cb, map[sql.BinOp]GPUAggOp{sql.OpAdd: GPUOpAdd, sql.OpSub: GPUOpSub, sql.OpMul: GPUOpMul}[bin.Op], true
}

func (q *GPUStar) nullable(c int) bool { return c >= 0 && q.Fact.Table.Columns[c].Valid != nil }
