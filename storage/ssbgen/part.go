package ssbgen

import "strconv"

var partSpecs = []colSpec{
	{"p_partkey", kindInt32}, {"p_name", kindString}, {"p_mfgr", kindString},
	{"p_category", kindString}, {"p_brand1", kindString}, {"p_color", kindString},
	{"p_type", kindString}, {"p_size", kindInt32}, {"p_container", kindString},
}

// partDraw is a part's drawn attributes, as indexes into the value lists:
// p_name's two colors, p_color, the manufacturer m, category c and brand
// b (1-based, as printed), p_type's and p_container's syllables and the
// size. The text and the in-memory generators both take their values
// from drawPart.
type partDraw struct {
	nameColors  [2]int
	color       int
	mfgr, cat   int
	brand, size int
	typ         [3]int
	container   [2]int
}

// drawPart draws part k's attributes. The hierarchy is dbgen's:
// manufacturer m in 1..5, category mc with c in 1..5, brand mcb with b in
// 1..40 printed without padding (MFGR#1121, MFGR#439), so 25 categories
// and 1,000 brands, each as likely as its siblings.
func drawPart(p *partDraw, r *rng) {
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
	p.color, p.nameColors = a, [2]int{b, d}
	p.mfgr = r.between(1, 5)
	p.cat = r.between(1, 5)
	p.brand = r.between(1, 40)
	p.typ[0] = r.intn(len(typeSyllable1))
	p.typ[1] = r.intn(len(typeSyllable2))
	p.typ[2] = r.intn(len(typeSyllable3))
	p.size = r.between(1, 50)
	p.container[0] = r.intn(len(containerSyllable1))
	p.container[1] = r.intn(len(containerSyllable2))
}

// Part strings from drawn indexes, shared by the text generator and the
// vocabularies of the in-memory one.
func appendPartName(dst []byte, b, d int) []byte {
	return append(append(append(dst, colors[b]...), ' '), colors[d]...)
}

func appendCategory(dst []byte, m, c int) []byte {
	return strconv.AppendInt(append(dst, "MFGR#"...), int64(m*10+c), 10)
}

func appendBrand(dst []byte, m, c, b int) []byte {
	return strconv.AppendInt(appendCategory(dst, m, c), int64(b), 10)
}

func appendType(dst []byte, t [3]int) []byte {
	dst = append(append(dst, typeSyllable1[t[0]]...), ' ')
	dst = append(append(dst, typeSyllable2[t[1]]...), ' ')
	return append(dst, typeSyllable3[t[2]]...)
}

func appendContainer(dst []byte, c [2]int) []byte {
	return append(append(append(dst, containerSyllable1[c[0]]...), ' '), containerSyllable2[c[1]]...)
}

// fillPart generates parts first..last (keys, inclusive).
func fillPart(bt *batch, seed uint64, first, last int64) {
	c := bt.cols
	var p partDraw
	for k := first; k <= last; k++ {
		r := newRNG(seed, streamPart, k)
		drawPart(&p, &r)
		c[0].int(k)
		c[1].data = appendPartName(c[1].data, p.nameColors[0], p.nameColors[1])
		c[1].end()
		c[2].data = strconv.AppendInt(append(c[2].data, "MFGR#"...), int64(p.mfgr), 10)
		c[2].end()
		c[3].data = appendCategory(c[3].data, p.mfgr, p.cat)
		c[3].end()
		c[4].data = appendBrand(c[4].data, p.mfgr, p.cat, p.brand)
		c[4].end()
		c[5].str(colors[p.color])
		c[6].data = appendType(c[6].data, p.typ)
		c[6].end()
		c[7].int(int64(p.size))
		c[8].data = appendContainer(c[8].data, p.container)
		c[8].end()
	}
	bt.rows += int(last - first + 1)
}
