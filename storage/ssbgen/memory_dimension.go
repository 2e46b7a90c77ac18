package ssbgen

import (
	"slices"
	"strings"
	"sync"

	"gpusql/storage/columnar"
)

// columnSource says how a dimension's string column is filled in memory.
type columnSource struct {
	// vocab: the generator draws an index into it, and the code is
	// written directly (domain.go).
	vocab *domain
	// keyPrefix: the column is prefix + the row's key padded to 9 digits
	// ("Customer#000000001"), so its dictionary is known.
	keyPrefix string
	// Otherwise the column is free text (addresses, phones), collected
	// as strings and dictionary-encoded when all rows are drawn.
}

// dimension is a dimension table being generated in memory: its columns
// allocated at their final size, row k−1 holding key k.
type dimension struct {
	name    string
	rows    int
	fields  []columnar.Field
	cols    []*columnar.Column
	sources map[int]columnSource // by column index, string columns only
	free    map[int][]string     // free-text columns' rows
	mu      sync.Mutex
	used    map[int]codeSet // vocabulary columns' codes seen so far
}

func newDimension(name string, specs []colSpec, rows int64, sources map[int]columnSource, alloc columnar.Allocator) *dimension {
	d := &dimension{name: name, rows: int(rows), fields: fieldsOf(specs), sources: sources,
		free: map[int][]string{}, used: map[int]codeSet{}}
	d.cols = make([]*columnar.Column, len(specs))
	for c, f := range d.fields {
		d.cols[c] = columnar.NewColumnIn(alloc, f.Type, d.rows, false)
		if f.Type.ID != columnar.String {
			continue
		}
		switch src := sources[c]; {
		case src.vocab != nil:
			d.used[c] = src.vocab.newSet()
		case src.keyPrefix == "":
			d.free[c] = make([]string, d.rows)
		}
	}
	return d
}

// rowBlock writes one block of rows; it collects the block's codes and
// hands them to the dimension once, at the end.
type rowBlock struct {
	d    *dimension
	used map[int]codeSet
}

func (d *dimension) block() *rowBlock {
	b := &rowBlock{d: d, used: map[int]codeSet{}}
	// Other blocks' done() write d.used while this one starts.
	d.mu.Lock()
	defer d.mu.Unlock()
	for c := range d.used {
		b.used[c] = d.sources[c].vocab.newSet()
	}
	return b
}

func (b *rowBlock) done() {
	b.d.mu.Lock()
	defer b.d.mu.Unlock()
	for c, s := range b.used {
		b.d.used[c] = union([]codeSet{b.d.used[c], s})
	}
}

func (b *rowBlock) int(c, row int, v int64) {
	if col := b.d.cols[c]; col.I32 != nil {
		col.I32[row] = int32(v)
	} else {
		col.I64[row] = v
	}
}

// code writes the code of vocabulary word i.
func (b *rowBlock) code(c, row, i int) {
	code := b.d.sources[c].vocab.code[i]
	b.d.cols[c].I32[row] = code
	b.used[c].add(code)
}

func (b *rowBlock) text(c, row int, s []byte) { b.d.free[c][row] = string(s) }

// table finishes the string columns' dictionaries and the statistics.
func (d *dimension) table(workers int) *columnar.Table {
	parallelFor(len(d.cols), workers, func(_, c int) {
		col := d.cols[c]
		switch src := d.sources[c]; {
		case d.fields[c].Type.ID != columnar.String:
		case src.vocab != nil:
			src.vocab.finish(col, d.used[c], 1)
		case src.keyPrefix != "":
			encodeKeyNames(col, src.keyPrefix)
		default:
			encodeFree(col, d.free[c])
		}
	})
	return newTable(d.name, d.fields, d.cols, d.rows)
}

// fill generates the dimension's rows in blocks of dimBlock keys on
// workers goroutines; fill(b, first, last) writes keys first..last.
func (d *dimension) fill(workers int, fill func(b *rowBlock, first, last int64)) {
	blocks := (d.rows + dimBlock - 1) / dimBlock
	parallelFor(blocks, workers, func(_, i int) {
		b := d.block()
		first := int64(i)*dimBlock + 1
		fill(b, first, min(first+dimBlock-1, int64(d.rows)))
		b.done()
	})
}

// encodeKeyNames fills a column whose row r is prefix + key r+1 padded to
// 9 digits: those strings are distinct and, below a billion keys, sorted,
// so the dictionary is the rows in order and row r's code is r.
func encodeKeyNames(col *columnar.Column, prefix string) {
	names := make([]string, col.Len)
	var buf []byte
	for r := range names {
		buf = appendKeyName(buf[:0], prefix, int64(r+1))
		names[r] = string(buf)
	}
	if !slices.IsSorted(names) {
		encodeFree(col, names)
		return
	}
	for r := range col.I32 {
		col.I32[r] = int32(r)
	}
	col.Dict = &columnar.Dictionary{Values: names}
}

// encodeFree dictionary-encodes strs (one per row) into col as the
// loaders do: the dictionary is the distinct strings sorted, a row's code
// its string's rank. Rows are sorted by string and runs of equal strings
// share a code.
func encodeFree(col *columnar.Column, strs []string) {
	order := make([]int32, len(strs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(strs[a], strs[b]) })
	var dict []string
	for i, r := range order {
		if i == 0 || strs[r] != strs[order[i-1]] {
			dict = append(dict, strs[r])
		}
		col.I32[r] = int32(len(dict) - 1)
	}
	col.Dict = &columnar.Dictionary{Values: dict}
}

// dimensionTables generates date, customer, supplier and part.
func dimensionTables(sz *sizes, opts TableOptions) []*columnar.Table {
	return []*columnar.Table{dateTable(opts), customerTable(sz, opts), supplierTable(sz, opts), partTable(sz, opts)}
}

func customerTable(sz *sizes, opts TableOptions) *columnar.Table {
	d := newDimension("customer", customerSpecs, sz.customers, map[int]columnSource{
		1: {keyPrefix: "Customer#"}, 3: {vocab: &cityDomain}, 4: {vocab: &nationDomain},
		5: {vocab: &regionDomain}, 7: {vocab: &segmentDomain},
	}, opts.Alloc)
	d.fill(opts.Workers, func(b *rowBlock, first, last int64) {
		var g geo
		var phone []byte
		for k := first; k <= last; k++ {
			r := newRNG(opts.Seed, streamCustomer, k)
			row := int(k - 1)
			drawGeo(&g, &r)
			b.int(0, row, k)
			b.text(2, row, g.address)
			b.code(3, row, g.nation*10+g.city)
			b.code(4, row, g.nation)
			b.code(5, row, nations[g.nation].region)
			phone = appendPhone(phone[:0], g.nation, g.phone)
			b.text(6, row, phone)
			b.code(7, row, r.intn(len(segments)))
		}
	})
	return d.table(opts.Workers)
}

func supplierTable(sz *sizes, opts TableOptions) *columnar.Table {
	d := newDimension("supplier", supplierSpecs, sz.suppliers, map[int]columnSource{
		1: {keyPrefix: "Supplier#"}, 3: {vocab: &cityDomain}, 4: {vocab: &nationDomain},
		5: {vocab: &regionDomain},
	}, opts.Alloc)
	d.fill(opts.Workers, func(b *rowBlock, first, last int64) {
		var g geo
		var phone []byte
		for k := first; k <= last; k++ {
			r := newRNG(opts.Seed, streamSupplier, k)
			row := int(k - 1)
			drawGeo(&g, &r)
			b.int(0, row, k)
			b.text(2, row, g.address)
			b.code(3, row, g.nation*10+g.city)
			b.code(4, row, g.nation)
			b.code(5, row, nations[g.nation].region)
			phone = appendPhone(phone[:0], g.nation, g.phone)
			b.text(6, row, phone)
		}
	})
	return d.table(opts.Workers)
}

func partTable(sz *sizes, opts TableOptions) *columnar.Table {
	d := newDimension("part", partSpecs, sz.parts, map[int]columnSource{
		1: {vocab: &partNameDomain}, 2: {vocab: &mfgrDomain}, 3: {vocab: &categoryDomain},
		4: {vocab: &brandDomain}, 5: {vocab: &colorDomain}, 6: {vocab: &typeDomain},
		8: {vocab: &containerDomain},
	}, opts.Alloc)
	d.fill(opts.Workers, func(b *rowBlock, first, last int64) {
		var p partDraw
		for k := first; k <= last; k++ {
			r := newRNG(opts.Seed, streamPart, k)
			row := int(k - 1)
			drawPart(&p, &r)
			cat := (p.mfgr-1)*5 + p.cat - 1
			b.int(0, row, k)
			b.code(1, row, p.nameColors[0]*len(colors)+p.nameColors[1])
			b.code(2, row, p.mfgr-1)
			b.code(3, row, cat)
			b.code(4, row, cat*40+p.brand-1)
			b.code(5, row, p.color)
			b.code(6, row, (p.typ[0]*len(typeSyllable2)+p.typ[1])*len(typeSyllable3)+p.typ[2])
			b.int(7, row, int64(p.size))
			b.code(8, row, p.container[0]*len(containerSyllable2)+p.container[1])
		}
	})
	return d.table(opts.Workers)
}

// dateTable is the 2,556-row calendar, made by the text path's fillDate
// and encoded as free text.
func dateTable(opts TableOptions) *columnar.Table {
	bt := newBatch(dateSpecs)
	fillDate(bt)
	d := newDimension("date", dateSpecs, int64(bt.rows), nil, opts.Alloc)
	for c, s := range dateSpecs {
		for r := range bt.rows {
			if s.kind == kindString {
				d.free[c][r] = string(bt.strAt(c, r))
			} else {
				d.cols[c].I32[r] = int32(bt.cols[c].ints[r])
			}
		}
	}
	return d.table(opts.Workers)
}
