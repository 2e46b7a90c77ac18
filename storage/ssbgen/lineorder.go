package ssbgen

var lineorderSpecs = []colSpec{
	{"lo_orderkey", kindInt64}, {"lo_linenumber", kindInt32}, {"lo_custkey", kindInt32},
	{"lo_partkey", kindInt32}, {"lo_suppkey", kindInt32}, {"lo_orderdate", kindInt32},
	{"lo_orderpriority", kindString}, {"lo_shippriority", kindString},
	{"lo_quantity", kindInt32}, {"lo_extendedprice", kindInt64},
	{"lo_ordtotalprice", kindInt64}, {"lo_discount", kindInt32},
	{"lo_revenue", kindInt64}, {"lo_supplycost", kindInt64}, {"lo_tax", kindInt32},
	{"lo_commitdate", kindInt32}, {"lo_shipmode", kindString},
}

// sparseKey is dbgen's mk_sparse: of every 32 order keys only the first 8
// are used (1..7, 32..39, 64..71, ...), so keys increase but leave gaps.
func sparseKey(i int64) int64 { return (i>>3)<<5 | i&7 }

// retailPrice is dbgen's part price in cents, a function of the key alone:
// lo_extendedprice = lo_quantity × retailPrice(lo_partkey).
func retailPrice(partkey int64) int64 {
	return 90000 + (partkey/10)%20001 + 100*(partkey%1000)
}

// custKey is dbgen's order customer: a uniform key in 1..customers, moved
// off multiples of 3 (CUST_MORTALITY: a third of the customers place no
// orders, which Q3's joins see). A multiple of 3 becomes the next key, or
// the previous one at the end of the range, so keys 3k+1 get twice the
// orders of keys 3k+2, as in dbgen.
func custKey(r *rng, customers int64) int64 {
	k := 1 + int64(r.intn(int(customers)))
	for delta := int64(1); k%3 == 0; delta = -delta {
		k = min(k+delta, customers)
	}
	return k
}

type orderLine struct {
	part, supp, qty, disc, tax, commit, mode int
	ext, rev                                 int64
}

// order is one order's draws: its customer, date (days after 1992-01-01),
// priority (an index into priorities), total and lines. Both the text and
// the in-memory generators take their values from drawOrder, so they agree
// value for value.
type order struct {
	key, cust, total int64
	day, prio, n     int
	lines            [7]orderLine
}

// drawOrder draws order i (an order index). The integer arithmetic is
// dbgen's, truncating as it does:
//
//	revenue    = ext×(100−discount)/100
//	ordtotal   = Σ revenue×(100+tax)/100
//	supplycost = 6×price/10
//
// lo_ordtotalprice needs all of an order's lines before the first is
// written.
func drawOrder(o *order, seed uint64, sz *sizes, i int64) {
	o.n = lineCount(i)
	r := newRNG(seed, streamLineorder, i)
	if sz.custKeys != nil {
		o.cust = sz.custKeys.draw(&r)
	} else {
		o.cust = custKey(&r, sz.customers)
	}
	o.day = r.intn(orderDays)
	o.prio = r.intn(len(priorities))
	o.total = 0
	for l := range o.lines[:o.n] {
		ln := &o.lines[l]
		if sz.partKeys != nil {
			ln.part = int(sz.partKeys.draw(&r))
		} else {
			ln.part = 1 + r.intn(int(sz.parts))
		}
		ln.supp = 1 + r.intn(int(sz.suppliers))
		ln.qty = r.between(1, 50)
		ln.disc = r.between(0, 10)
		ln.tax = r.between(0, 8)
		ln.commit = o.day + r.between(30, 90)
		ln.mode = r.intn(len(shipModes))
		ln.ext = int64(ln.qty) * retailPrice(int64(ln.part))
		ln.rev = ln.ext * int64(100-ln.disc) / 100
		o.total += ln.rev * int64(100+ln.tax) / 100
	}
	o.key = sparseKey(i)
}

// supplyCost is lo_supplycost: 6×price/10 of the line's part.
func supplyCost(part int) int64 { return 6 * retailPrice(int64(part)) / 10 }

// fillLineorder appends the lines of orders first..last (order indexes,
// inclusive) to a batch.
func fillLineorder(bt *batch, seed uint64, sz sizes, first, last int64) {
	c := bt.cols
	var o order
	for i := first; i <= last; i++ {
		drawOrder(&o, seed, &sz, i)
		for l := range o.lines[:o.n] {
			ln := &o.lines[l]
			c[0].int(o.key)
			c[1].int(int64(l + 1))
			c[2].int(o.cust)
			c[3].int(int64(ln.part))
			c[4].int(int64(ln.supp))
			c[5].int(int64(dateKeys[o.day]))
			c[6].str(priorities[o.prio])
			c[7].str("0")
			c[8].int(int64(ln.qty))
			c[9].int(ln.ext)
			c[10].int(o.total)
			c[11].int(int64(ln.disc))
			c[12].int(ln.rev)
			c[13].int(supplyCost(ln.part))
			c[14].int(int64(ln.tax))
			c[15].int(int64(dateKeys[ln.commit]))
			c[16].str(shipModes[ln.mode])
		}
		bt.rows += o.n
	}
}
