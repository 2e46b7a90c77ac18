package planner

import (
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// TableScan reads columns Columns (indexes into Table.Fields) of a table
// snapshot. Column pruning leaves only the columns something above reads; a
// scan of no columns still produces Table.Rows rows (COUNT(*)).
type TableScan struct {
	NodeProps
	Table   *columnar.Table
	Alias   string
	Columns []int
	Out     sql.Schema
}

func (n *TableScan) Schema() sql.Schema { return n.Out }
func (n *TableScan) Children() []Node   { return nil }
