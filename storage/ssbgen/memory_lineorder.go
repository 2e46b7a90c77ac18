package ssbgen

import "gpusql/storage/columnar"

// lineorderVectors are lineorder's column vectors in lineorderSpecs'
// order, named; string columns hold dictionary codes.
type lineorderVectors struct {
	orderkey, extendedprice, ordtotalprice, revenue, supplycost []int64
	linenumber, custkey, partkey, suppkey, orderdate            []int32
	orderpriority, shippriority, quantity, discount, tax        []int32
	commitdate, shipmode                                        []int32
}

// codesUsed records which dictionary codes a worker wrote (domain.finish):
// lineorder's vocabularies have under 64 words, so a word each, kept by
// each worker on its own cache line.
type codesUsed struct {
	priority, shipMode uint64
	_                  [48]byte // keep workers' words on separate cache lines
}

// lineorderTable generates lineorder into vectors allocated once at their
// final size. Orders are cut into blocks of orderBlock; a first parallel
// pass counts each block's lines (lineCount is a hash of the order index,
// no draws), a prefix sum gives each block its first row, and the workers
// then fill blocks at those rows, so no row is copied after it is drawn.
func lineorderTable(sz *sizes, opts TableOptions) *columnar.Table {
	blocks := int((sz.orders + orderBlock - 1) / orderBlock)
	firstRow := make([]int, blocks+1)
	parallelFor(blocks, opts.Workers, func(_, b int) {
		first, last := blockOrders(b, sz.orders)
		n := 0
		for i := first; i <= last; i++ {
			n += lineCount(i)
		}
		firstRow[b+1] = n
	})
	for b := range blocks {
		firstRow[b+1] += firstRow[b]
	}
	rows := firstRow[blocks]

	fields := fieldsOf(lineorderSpecs)
	// Allocators zero what they hand out (the pinned one after pinning
	// it): a column per worker spreads that first touch over the cores.
	cols := make([]*columnar.Column, len(fields))
	parallelFor(len(fields), opts.Workers, func(_, c int) {
		cols[c] = columnar.NewColumnIn(opts.Alloc, fields[c].Type, rows, false)
	})
	v := &lineorderVectors{
		orderkey: cols[0].I64, linenumber: cols[1].I32, custkey: cols[2].I32, partkey: cols[3].I32,
		suppkey: cols[4].I32, orderdate: cols[5].I32, orderpriority: cols[6].I32, shippriority: cols[7].I32,
		quantity: cols[8].I32, extendedprice: cols[9].I64, ordtotalprice: cols[10].I64, discount: cols[11].I32,
		revenue: cols[12].I64, supplycost: cols[13].I64, tax: cols[14].I32, commitdate: cols[15].I32,
		shipmode: cols[16].I32,
	}
	used := make([]codesUsed, opts.Workers)
	parallelFor(blocks, opts.Workers, func(w, b int) {
		first, last := blockOrders(b, sz.orders)
		v.fill(first, last, firstRow[b], opts.Seed, sz, &used[w])
	})
	var all codesUsed
	for _, u := range used {
		all.priority |= u.priority
		all.shipMode |= u.shipMode
	}
	priorityDomain.finish(cols[6], codeSet{all.priority}, opts.Workers)
	shipPriorityDomain.finish(cols[7], codeSet{1}, opts.Workers) // every row's is "0"
	shipModeDomain.finish(cols[16], codeSet{all.shipMode}, opts.Workers)
	return newTable("lineorder", fields, cols, rows)
}

// blockOrders is the range of order indexes (1-based, inclusive) of
// block b.
func blockOrders(b int, orders int64) (first, last int64) {
	first = int64(b)*orderBlock + 1
	return first, min(first+orderBlock-1, orders)
}

// fill writes the lines of orders first..last from row on, the values
// fillLineorder appends as text.
func (v *lineorderVectors) fill(first, last int64, row int, seed uint64, sz *sizes, used *codesUsed) {
	var o order
	for i := first; i <= last; i++ {
		drawOrder(&o, seed, sz, i)
		prio := priorityDomain.code[o.prio]
		used.priority |= 1 << prio
		orderdate := dateKeys[o.day]
		for l := range o.lines[:o.n] {
			ln := &o.lines[l]
			mode := shipModeDomain.code[ln.mode]
			used.shipMode |= 1 << mode
			v.orderkey[row] = o.key
			v.linenumber[row] = int32(l + 1)
			v.custkey[row] = int32(o.cust)
			v.partkey[row] = int32(ln.part)
			v.suppkey[row] = int32(ln.supp)
			v.orderdate[row] = orderdate
			v.orderpriority[row] = prio
			v.shippriority[row] = 0
			v.quantity[row] = int32(ln.qty)
			v.extendedprice[row] = ln.ext
			v.ordtotalprice[row] = o.total
			v.discount[row] = int32(ln.disc)
			v.revenue[row] = ln.rev
			v.supplycost[row] = supplyCost(ln.part)
			v.tax[row] = int32(ln.tax)
			v.commitdate[row] = dateKeys[ln.commit]
			v.shipmode[row] = mode
			row++
		}
	}
}
