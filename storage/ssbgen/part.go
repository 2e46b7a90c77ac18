package ssbgen

import "strconv"

var partSpecs = []colSpec{
	{"p_partkey", kindInt32}, {"p_name", kindString}, {"p_mfgr", kindString},
	{"p_category", kindString}, {"p_brand1", kindString}, {"p_color", kindString},
	{"p_type", kindString}, {"p_size", kindInt32}, {"p_container", kindString},
}

// fillPart generates parts first..last (keys, inclusive). The hierarchy is
// dbgen's: manufacturer m in 1..5, category mc with c in 1..5, brand mcb
// with b in 1..40 printed without padding (MFGR#1121, MFGR#439), so 25
// categories and 1,000 brands, each as likely as its siblings.
func fillPart(bt *batch, seed uint64, first, last int64) {
	c := bt.cols
	for k := first; k <= last; k++ {
		r := newRNG(seed, streamPart, k)
		c[0].int(k)

		// dbgen draws three distinct colors (agg_str, P_NAME_SCL 3) and
		// splits off the first as p_color, so p_color is never a word of
		// p_name.
		a := r.intn(len(colors))
		b := r.intn(len(colors) - 1)
		if b >= a {
			b++
		}
		lo, hi := min(a, b), max(a, b)
		d := r.intn(len(colors) - 2)
		if d >= lo {
			d++
		}
		if d >= hi {
			d++
		}
		c[1].data = append(c[1].data, colors[b]...)
		c[1].data = append(c[1].data, ' ')
		c[1].data = append(c[1].data, colors[d]...)
		c[1].end()

		m := r.between(1, 5)
		cat := r.between(1, 5)
		brand := r.between(1, 40)
		c[2].data = append(c[2].data, "MFGR#"...)
		c[2].data = strconv.AppendInt(c[2].data, int64(m), 10)
		c[2].end()
		c[3].data = append(c[3].data, "MFGR#"...)
		c[3].data = strconv.AppendInt(c[3].data, int64(m*10+cat), 10)
		c[3].end()
		c[4].data = append(c[4].data, "MFGR#"...)
		c[4].data = strconv.AppendInt(c[4].data, int64(m*10+cat), 10)
		c[4].data = strconv.AppendInt(c[4].data, int64(brand), 10)
		c[4].end()

		c[5].str(colors[a])

		c[6].data = append(c[6].data, typeSyllable1[r.intn(len(typeSyllable1))]...)
		c[6].data = append(c[6].data, ' ')
		c[6].data = append(c[6].data, typeSyllable2[r.intn(len(typeSyllable2))]...)
		c[6].data = append(c[6].data, ' ')
		c[6].data = append(c[6].data, typeSyllable3[r.intn(len(typeSyllable3))]...)
		c[6].end()

		c[7].int(int64(r.between(1, 50)))

		c[8].data = append(c[8].data, containerSyllable1[r.intn(len(containerSyllable1))]...)
		c[8].data = append(c[8].data, ' ')
		c[8].data = append(c[8].data, containerSyllable2[r.intn(len(containerSyllable2))]...)
		c[8].end()
	}
	bt.rows += int(last - first + 1)
}
