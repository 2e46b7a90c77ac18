package planner

import (
	"fmt"

	"gpusql/storage/columnar"
)

// CPUTailPlan is the explicit split of a plan whose tail the GPU plan hands
// to the CPU executor (TailOn == TailCPU): the tail operators, root first,
// copied over a scan of the GPU body's result (rows rows, one column per
// body output column). names are the query's column names.
func (g *GPUPlan) CPUTailPlan(rows int, cols []*columnar.Column, names []string) (*Physical, error) {
	if g.TailOn != TailCPU {
		return nil, fmt.Errorf("planner: the GPU plan hands no tail to the CPU executor")
	}
	schema := g.Body.Schema()
	t := &columnar.Table{Name: "gpu_result", Rows: rows, Columns: cols, Stats: make([][]columnar.ChunkStats, len(cols))}
	scan := &TableScan{Table: t, Out: schema}
	for i, c := range schema {
		t.Fields = append(t.Fields, columnar.Field{Name: c.Name, Type: c.Type, Nullable: true})
		scan.Columns = append(scan.Columns, i)
	}
	var child Node = scan
	for i := len(g.Tail) - 1; i >= 0; i-- {
		n, err := withInput(g.Tail[i], child)
		if err != nil {
			return nil, err
		}
		child = n
	}
	return &Physical{Root: child, Names: names}, nil
}

// withInput is a copy of tail operator n reading from child.
func withInput(n Node, child Node) (Node, error) {
	switch x := n.(type) {
	case *Projection:
		c := *x
		c.Input = child
		return &c, nil
	case *Sort:
		c := *x
		c.Input = child
		return &c, nil
	case *TopN:
		c := *x
		c.Input = child
		return &c, nil
	case *Limit:
		c := *x
		c.Input = child
		return &c, nil
	case *Filter:
		c := *x
		c.Input = child
		return &c, nil
	}
	return nil, fmt.Errorf("planner: %s cannot run in a CPU tail", opName(n))
}
