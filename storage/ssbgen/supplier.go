package ssbgen

var supplierSpecs = []colSpec{
	{"s_suppkey", kindInt32}, {"s_name", kindString}, {"s_address", kindString},
	{"s_city", kindString}, {"s_nation", kindString}, {"s_region", kindString},
	{"s_phone", kindString},
}

// fillSupplier generates suppliers first..last (keys, inclusive).
func fillSupplier(bt *batch, seed uint64, first, last int64) {
	c := bt.cols
	for k := first; k <= last; k++ {
		r := newRNG(seed, streamSupplier, k)
		c[0].int(k)
		c[1].data = appendKeyName(c[1].data, "Supplier#", k)
		c[1].end()
		appendGeo(c[2:7], &r)
	}
	bt.rows += int(last - first + 1)
}
