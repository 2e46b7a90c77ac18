//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// An in-memory SSB-shaped database (same key domains, value lists and
// selectivities as dbgen's, not its bytes) so the GPU tests and benchmarks
// run without the loaders or files. Dimension strings are dictionary codes
// of sorted dictionaries, as the loaders make them.

type synthDB map[string]*columnar.Table

var regions = []string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}
var nations = []string{ // five per region, in region order
	"ALGERIA", "ETHIOPIA", "KENYA", "MOROCCO", "MOZAMBIQUE",
	"ARGENTINA", "BRAZIL", "CANADA", "PERU", "UNITED STATES",
	"CHINA", "INDIA", "INDONESIA", "JAPAN", "VIETNAM",
	"FRANCE", "GERMANY", "ROMANIA", "RUSSIA", "UNITED KINGDOM",
	"EGYPT", "IRAN", "IRAQ", "JORDAN", "SAUDI ARABIA"}

func cityName(nation, k int) string {
	n := nations[nation]
	if len(n) > 9 {
		n = n[:9]
	}
	return fmt.Sprintf("%-9s%d", n, k)
}

type colSpec struct {
	name string
	t    columnar.Type
}

// tableBuilder fills columns row-parallel; strings go through a dictionary.
func newTable(alloc columnar.Allocator, name string, n int, specs []colSpec) *columnar.Table {
	t := &columnar.Table{Name: name, Rows: n}
	for _, s := range specs {
		t.Fields = append(t.Fields, columnar.Field{Name: s.name, Type: s.t, Nullable: true})
		t.Columns = append(t.Columns, columnar.NewColumnIn(alloc, s.t, n, false))
	}
	t.Stats = make([][]columnar.ChunkStats, len(specs))
	return t
}

func parallelRows(n int, fn func(lo, hi int, r *rand.Rand)) {
	w := max(1, min(runtime.NumCPU(), n/4096))
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			fn(k*n/w, (k+1)*n/w, rand.New(rand.NewPCG(uint64(k)+1, 42)))
		}(k)
	}
	wg.Wait()
}

func setDict(t *columnar.Table, col string, vals []string, codeOf []int) {
	c := t.Columns[t.ColumnIndex(col)]
	c.Dict = columnar.BuildDictionary(vals)
	remap := make([]int32, len(vals))
	for i, v := range vals {
		code, _ := c.Dict.Lookup(v)
		remap[i] = code
	}
	for i := range c.I32 {
		c.I32[i] = remap[codeOf[i]]
	}
}

// genSSB builds the five SSB tables at scale factor sf.
func genSSB(sf float64, alloc columnar.Allocator) synthDB {
	db := synthDB{}
	// date: 1992-01-01 .. 1998-12-31
	var days []time.Time
	for d := time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 1999; d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	dt := newTable(alloc, "date", len(days), []colSpec{{"d_datekey", columnar.TInt32}, {"d_year", columnar.TInt32},
		{"d_yearmonthnum", columnar.TInt32}, {"d_weeknuminyear", columnar.TInt32}, {"d_yearmonth", columnar.TString}})
	var ym []string
	ymIdx := make([]int, len(days))
	for i, d := range days {
		dt.Columns[0].I32[i] = int32(d.Year()*10000 + int(d.Month())*100 + d.Day())
		dt.Columns[1].I32[i] = int32(d.Year())
		dt.Columns[2].I32[i] = int32(d.Year()*100 + int(d.Month()))
		dt.Columns[3].I32[i] = int32((d.YearDay()-1)/7 + 1)
		s := d.Format("Jan2006")
		if len(ym) == 0 || ym[len(ym)-1] != s {
			ym = append(ym, s)
		}
		ymIdx[i] = len(ym) - 1
	}
	setDict(dt, "d_yearmonth", ym, ymIdx)
	db["date"] = dt

	geo := func(name, prefix string, n int) *columnar.Table {
		t := newTable(alloc, name, n, []colSpec{{prefix + "key", columnar.TInt32}, {prefix + "city", columnar.TString},
			{prefix + "nation", columnar.TString}, {prefix + "region", columnar.TString}})
		r := rand.New(rand.NewPCG(uint64(n), 7))
		var cities []string
		for nat := range nations {
			for k := 0; k < 10; k++ {
				cities = append(cities, cityName(nat, k))
			}
		}
		ci, ni, ri := make([]int, n), make([]int, n), make([]int, n)
		for i := 0; i < n; i++ {
			t.Columns[0].I32[i] = int32(i + 1)
			nat := r.IntN(25)
			ci[i], ni[i], ri[i] = nat*10+r.IntN(10), nat, nat/5
		}
		setDict(t, prefix+"city", cities, ci)
		setDict(t, prefix+"nation", nations, ni)
		setDict(t, prefix+"region", regions, ri)
		return t
	}
	nc := max(int(30000*sf), 1)
	ns := max(int(2000*sf), 1)
	db["customer"] = geo("customer", "c_cust", nc)
	db["supplier"] = geo("supplier", "s_supp", ns)
	// rename the geo columns to SSB's
	for _, t := range []*columnar.Table{db["customer"], db["supplier"]} {
		p := t.Fields[0].Name[:2]
		t.Fields[1].Name, t.Fields[2].Name, t.Fields[3].Name = p+"city", p+"nation", p+"region"
	}

	np := 200000
	if sf >= 1 {
		np = int(200000 * (1 + int(log2(sf))))
	} else {
		np = max(int(200000*sf), 1)
	}
	pt := newTable(alloc, "part", np, []colSpec{{"p_partkey", columnar.TInt32}, {"p_mfgr", columnar.TString},
		{"p_category", columnar.TString}, {"p_brand1", columnar.TString}})
	var mf, cat, br []string
	for m := 1; m <= 5; m++ {
		mf = append(mf, fmt.Sprintf("MFGR#%d", m))
		for c := 1; c <= 5; c++ {
			cat = append(cat, fmt.Sprintf("MFGR#%d%d", m, c))
			for b := 1; b <= 40; b++ {
				br = append(br, fmt.Sprintf("MFGR#%d%d%02d", m, c, b))
			}
		}
	}
	mi, cI, bi := make([]int, np), make([]int, np), make([]int, np)
	r := rand.New(rand.NewPCG(3, 9))
	for i := 0; i < np; i++ {
		pt.Columns[0].I32[i] = int32(i + 1)
		m, c, b := r.IntN(5), r.IntN(5), r.IntN(40)
		mi[i], cI[i], bi[i] = m, m*5+c, (m*5+c)*40+b
	}
	setDict(pt, "p_mfgr", mf, mi)
	setDict(pt, "p_category", cat, cI)
	setDict(pt, "p_brand1", br, bi)
	db["part"] = pt

	nl := max(int(6000000*sf), 1)
	lo := newTable(alloc, "lineorder", nl, []colSpec{{"lo_orderdate", columnar.TInt32}, {"lo_custkey", columnar.TInt32},
		{"lo_partkey", columnar.TInt32}, {"lo_suppkey", columnar.TInt32}, {"lo_quantity", columnar.TInt32},
		{"lo_discount", columnar.TInt32}, {"lo_extendedprice", columnar.TInt64}, {"lo_revenue", columnar.TInt64},
		{"lo_supplycost", columnar.TInt64}})
	dk := dt.Columns[0].I32
	parallelRows(nl, func(a, b int, r *rand.Rand) {
		c := lo.Columns
		for i := a; i < b; i++ {
			c[0].I32[i] = dk[r.IntN(len(dk))]
			c[1].I32[i] = int32(r.IntN(nc) + 1)
			c[2].I32[i] = int32(r.IntN(np) + 1)
			c[3].I32[i] = int32(r.IntN(ns) + 1)
			q := int64(r.IntN(50) + 1)
			disc := int64(r.IntN(11))
			price := int64(90000 + r.IntN(110000))
			c[4].I32[i] = int32(q)
			c[5].I32[i] = int32(disc)
			c[6].I64[i] = q * price
			c[7].I64[i] = q * price * (100 - disc) / 100
			c[8].I64[i] = 6 * price / 10
		}
	})
	db["lineorder"] = lo
	return db
}

func log2(x float64) float64 {
	n := 0.0
	for x >= 2 {
		x /= 2
		n++
	}
	return n
}

// schemaOf is the scan schema of the named columns of t.
func schemaOf(t *columnar.Table, alias string, idx []int) sql.Schema {
	var s sql.Schema
	for _, i := range idx {
		f := t.Fields[i]
		s = append(s, sql.Column{Name: f.Name, Table: alias, Type: f.Type, Nullable: f.Nullable, Dict: t.Columns[i].Dict})
	}
	return s
}
