package ssbgen

var customerSpecs = []colSpec{
	{"c_custkey", kindInt32}, {"c_name", kindString}, {"c_address", kindString},
	{"c_city", kindString}, {"c_nation", kindString}, {"c_region", kindString},
	{"c_phone", kindString}, {"c_mktsegment", kindString},
}

// fillCustomer generates customers first..last (keys, inclusive).
func fillCustomer(bt *batch, seed uint64, first, last int64) {
	c := bt.cols
	for k := first; k <= last; k++ {
		r := newRNG(seed, streamCustomer, k)
		c[0].int(k)
		c[1].data = appendKeyName(c[1].data, "Customer#", k)
		c[1].end()
		appendGeo(c[2:7], &r)
		c[7].str(segments[r.intn(len(segments))])
	}
	bt.rows += int(last - first + 1)
}
