package planner

import "gpusql/sql"

// AggStrategy is how HashAggregate finds a row's group.
type AggStrategy uint8

const (
	// AggHash: an open-addressing hash table on the group keys.
	AggHash AggStrategy = iota
	// AggDense: every key is a dictionary code or an integer of a small known
	// range, so the group's slot is the mixed-radix number of the keys'
	// offsets (key - DenseKey.Min, with slot Size-1 for NULL) and the
	// aggregates live in a plain array: no hashing, no key comparison, and on
	// the GPU the array fits in shared memory when small.
	AggDense
)

func (s AggStrategy) String() string {
	if s == AggDense {
		return "Dense"
	}
	return "Hash"
}

// DenseKey is one group key's domain under AggDense: values Min..Min+Size-2
// and NULL at offset Size-1.
type DenseKey struct {
	Min  int64
	Size int64
}

// HashAggregate groups its input by GroupBy and computes Aggs; output: the
// group columns, then the aggregates. Without GroupBy it returns exactly one
// row, even on empty input. The executors aggregate per worker and merge.
type HashAggregate struct {
	NodeProps
	Input    Node
	GroupBy  []sql.Expr
	Aggs     []sql.AggExpr
	Strategy AggStrategy
	// DenseKeys has one entry per GroupBy key under AggDense; slot =
	// Σ offset(key i) × Π_{j>i} Size_j (the last key varies fastest).
	DenseKeys []DenseKey
	Out       sql.Schema
}

func (n *HashAggregate) Schema() sql.Schema { return n.Out }
func (n *HashAggregate) Children() []Node   { return []Node{n.Input} }

// DenseSlots is the number of slots of the dense array (1 without keys).
func (n *HashAggregate) DenseSlots() int64 {
	s := int64(1)
	for _, k := range n.DenseKeys {
		s *= k.Size
	}
	return s
}
