package engine

import (
	"context"
	"fmt"
	"strings"

	"gpusql/exec"
	"gpusql/exec/cpu"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// materializeCTEs computes the WITH RECURSIVE tables a query reads, in
// order, on the CPU executor (see sql.RecursiveCTE): the anchor's rows,
// then rounds of the step over the previous round's rows until a round
// adds none. More than @@cte_max_recursion_depth rounds is MySQL's error.
func (db *DB) materializeCTEs(ctx context.Context, q *sql.Query) error {
	for _, rc := range q.Recursive {
		if err := db.materializeCTE(ctx, rc); err != nil {
			return fmt.Errorf("WITH RECURSIVE %s: %w", rc.Name, err)
		}
	}
	return nil
}

func (db *DB) materializeCTE(ctx context.Context, rc *sql.RecursiveCTE) error {
	fields := rc.Result.Fields
	targets := make([]int, len(fields))
	for i := range targets {
		targets[i] = i
	}
	var seen map[string]bool
	if rc.Distinct {
		seen = map[string]bool{}
	}
	res, err := db.runCPU(ctx, rc.Anchor)
	if err != nil {
		return err
	}
	res = newRows(res, seen)
	lim := newCTELimit(rc)
	kept, done := lim.take(res)
	acc, err := appendResult(columnar.NewEmptyTable(rc.Name, fields), targets, kept)
	if err != nil {
		return err
	}
	for round := 1; res.Rows > 0 && !done; round++ {
		if int64(round) > rc.MaxDepth {
			return sql.Errorf(sql.ErCTEMaxRecursionDepth, "Recursive query aborted after %d iterations. Try increasing @@cte_max_recursion_depth to a larger value.", round)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		work, err := appendResult(columnar.NewEmptyTable(rc.Name, fields), targets, res)
		if err != nil {
			return err
		}
		fill(rc.Work, work)
		if res, err = db.runCPU(ctx, rc.Step); err != nil {
			return err
		}
		res = newRows(res, seen)
		kept, done = lim.take(res)
		if acc, err = appendResult(acc, targets, kept); err != nil {
			return err
		}
	}
	fill(rc.Result, acc)
	return nil
}

// fill makes the binder's placeholder table t hold src's rows (the
// scans bound to t read it when they run).
func fill(t, src *columnar.Table) {
	t.Columns, t.Rows, t.Stats = src.Columns, src.Rows, src.Stats
}

// runCPU plans and runs a query on the CPU executor.
func (db *DB) runCPU(ctx context.Context, q *sql.Query) (*exec.Result, error) {
	p, err := db.plan(q)
	if err != nil {
		return nil, err
	}
	ctx, done := db.queryMemory(ctx)
	defer done()
	return cpu.Run(ctx, p)
}

// newRows drops from res the rows seen holds and records the others
// (seen nil: UNION ALL, every row is new). NULLs compare equal here, as
// UNION DISTINCT treats them.
func newRows(res *exec.Result, seen map[string]bool) *exec.Result {
	if seen == nil {
		return res
	}
	var keep []int
	var sb strings.Builder
	for r := 0; r < res.Rows; r++ {
		sb.Reset()
		for _, c := range res.Columns {
			if c.IsNull(r) {
				sb.WriteString("\x01N")
			} else {
				sb.WriteString("\x01V" + exec.FormatValue(c, r))
			}
		}
		if k := sb.String(); !seen[k] {
			seen[k] = true
			keep = append(keep, r)
		}
	}
	if len(keep) == res.Rows {
		return res
	}
	out := &exec.Result{Names: res.Names, Rows: len(keep)}
	for _, c := range res.Columns {
		out.Columns = append(out.Columns, gatherRows(c, keep))
	}
	return out
}

// gatherRows is c's rows at the given positions.
func gatherRows(c *columnar.Column, rows []int) *columnar.Column {
	if c.Type.ID == columnar.Vector {
		return columnar.GatherVectors(c, rows)
	}
	out := columnar.NewColumn(c.Type, len(rows), c.HasNulls())
	out.Dict = c.Dict
	for i, r := range rows {
		switch {
		case out.I32 != nil:
			out.I32[i] = c.I32[r]
		case out.I64 != nil:
			out.I64[i] = c.I64[r]
		case out.W != nil:
			out.W[i] = c.W[r]
		default:
			out.F64[i] = c.F64[r]
		}
		if c.HasNulls() && !c.IsNull(r) {
			out.SetValid(i)
		}
	}
	return out
}
