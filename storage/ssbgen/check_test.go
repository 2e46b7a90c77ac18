package ssbgen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The checkers below state dbgen's rules for one row of each table. The
// tests run them over dbgen's own sample rows, which shows the rules are
// dbgen's, and over the generated rows, which shows the generator follows
// them.

func atoi(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1 << 62
	}
	return n
}

func inRange(name, s string, lo, hi int64) error {
	if n := atoi(s); n < lo || n > hi {
		return fmt.Errorf("%s %q not in %d..%d", name, s, lo, hi)
	}
	return nil
}

func oneOf(name, s string, list []string) error {
	if !slices.Contains(list, s) {
		return fmt.Errorf("%s %q not one of %v", name, s, list)
	}
	return nil
}

func nationIndex(name string) int {
	for i, n := range nations {
		if n.name == name {
			return i
		}
	}
	return -1
}

// checkGeo checks address, city, nation, region and phone (f[0..4]).
func checkGeo(f []string) error {
	addr, city, nat, reg, phone := f[0], f[1], f[2], f[3], f[4]
	if len(addr) < 6 || len(addr) > 24 || strings.Trim(addr, alphaNum) != "" {
		return fmt.Errorf("address %q is not 6..24 characters of dbgen's alphabet", addr)
	}
	n := nationIndex(nat)
	if n < 0 {
		return fmt.Errorf("nation %q unknown", nat)
	}
	if reg != regions[nations[n].region] {
		return fmt.Errorf("nation %s in region %s", nat, reg)
	}
	pfx := fmt.Sprintf("%-9.9s", nat)
	if len(city) != 10 || city[:9] != pfx || city[9] < '0' || city[9] > '9' {
		return fmt.Errorf("city %q is not %q and a digit", city, pfx)
	}
	p := strings.Split(phone, "-")
	if len(p) != 4 || atoi(p[0]) != int64(10+n) || len(p[1]) != 3 || len(p[2]) != 3 || len(p[3]) != 4 ||
		inRange("phone", p[1], 100, 999) != nil || inRange("phone", p[2], 100, 999) != nil ||
		inRange("phone", p[3], 1000, 9999) != nil {
		return fmt.Errorf("phone %q is not %d-DDD-DDD-DDDD", phone, 10+n)
	}
	return nil
}

func checkCustomer(f []string, sz sizes) error {
	if err := inRange("c_custkey", f[0], 1, sz.customers); err != nil {
		return err
	}
	if want := fmt.Sprintf("Customer#%09d", atoi(f[0])); f[1] != want {
		return fmt.Errorf("c_name %q, want %q", f[1], want)
	}
	if err := checkGeo(f[2:7]); err != nil {
		return err
	}
	return oneOf("c_mktsegment", f[7], segments[:])
}

func checkSupplier(f []string, sz sizes) error {
	if err := inRange("s_suppkey", f[0], 1, sz.suppliers); err != nil {
		return err
	}
	if want := fmt.Sprintf("Supplier#%09d", atoi(f[0])); f[1] != want {
		return fmt.Errorf("s_name %q, want %q", f[1], want)
	}
	return checkGeo(f[2:7])
}

func checkPart(f []string, sz sizes) error {
	if err := inRange("p_partkey", f[0], 1, sz.parts); err != nil {
		return err
	}
	name := strings.Split(f[1], " ")
	if len(name) != 2 || name[0] == name[1] || oneOf("p_name", name[0], colors[:]) != nil ||
		oneOf("p_name", name[1], colors[:]) != nil {
		return fmt.Errorf("p_name %q is not two distinct colors", f[1])
	}
	mfgr, cat, brand := f[2], f[3], f[4]
	if len(mfgr) != 6 || !strings.HasPrefix(mfgr, "MFGR#") || inRange("p_mfgr", mfgr[5:], 1, 5) != nil {
		return fmt.Errorf("p_mfgr %q", mfgr)
	}
	if len(cat) != 7 || cat[:6] != mfgr || inRange("p_category", cat[6:], 1, 5) != nil {
		return fmt.Errorf("p_category %q under %q", cat, mfgr)
	}
	if !strings.HasPrefix(brand, cat) || inRange("p_brand1", brand[7:], 1, 40) != nil ||
		brand[7] == '0' {
		return fmt.Errorf("p_brand1 %q under %q", brand, cat)
	}
	if err := oneOf("p_color", f[5], colors[:]); err != nil {
		return err
	}
	if f[5] == name[0] || f[5] == name[1] {
		return fmt.Errorf("p_color %q is a word of p_name %q; dbgen draws three distinct colors", f[5], f[1])
	}
	ty := strings.Split(f[6], " ")
	if len(ty) != 3 || oneOf("", ty[0], typeSyllable1[:]) != nil ||
		oneOf("", ty[1], typeSyllable2[:]) != nil || oneOf("", ty[2], typeSyllable3[:]) != nil {
		return fmt.Errorf("p_type %q", f[6])
	}
	if err := inRange("p_size", f[7], 1, 50); err != nil {
		return err
	}
	co := strings.Split(f[8], " ")
	if len(co) != 2 || oneOf("", co[0], containerSyllable1[:]) != nil ||
		oneOf("", co[1], containerSyllable2[:]) != nil {
		return fmt.Errorf("p_container %q", f[8])
	}
	return nil
}

func parseDateKey(s string) (time.Time, error) { return time.Parse("20060102", s) }

// checkLine checks one lineorder row on its own; checkOrders checks what
// spans the lines of an order.
func checkLine(f []string, sz sizes) error {
	for _, c := range []struct {
		name   string
		i      int
		lo, hi int64
	}{
		{"lo_linenumber", 1, 1, 7}, {"lo_custkey", 2, 1, sz.customers},
		{"lo_partkey", 3, 1, sz.parts}, {"lo_suppkey", 4, 1, sz.suppliers},
		{"lo_quantity", 8, 1, 50}, {"lo_discount", 11, 0, 10}, {"lo_tax", 14, 0, 8},
	} {
		if err := inRange(c.name, f[c.i], c.lo, c.hi); err != nil {
			return err
		}
	}
	if atoi(f[2])%3 == 0 {
		return fmt.Errorf("lo_custkey %s is a multiple of 3; dbgen gives those no orders", f[2])
	}
	od, err := parseDateKey(f[5])
	if err != nil || f[5] < "19920101" || f[5] > "19980802" {
		return fmt.Errorf("lo_orderdate %q not in 1992-01-01..1998-08-02", f[5])
	}
	cd, err := parseDateKey(f[15])
	if days := cd.Sub(od).Hours() / 24; err != nil || days < 30 || days > 90 {
		return fmt.Errorf("lo_commitdate %s is not 30..90 days after %s", f[15], f[5])
	}
	if err := oneOf("lo_orderpriority", f[6], priorities[:]); err != nil {
		return err
	}
	if f[7] != "0" {
		return fmt.Errorf("lo_shippriority %q", f[7])
	}
	price := retailPrice(atoi(f[3]))
	qty, ext, disc := atoi(f[8]), atoi(f[9]), atoi(f[11])
	if ext != qty*price {
		return fmt.Errorf("lo_extendedprice %d, want %d×%d", ext, qty, price)
	}
	if rev := atoi(f[12]); rev != ext*(100-disc)/100 {
		return fmt.Errorf("lo_revenue %d, want %d×(100-%d)/100", rev, ext, disc)
	}
	if cost := atoi(f[13]); cost != 6*price/10 {
		return fmt.Errorf("lo_supplycost %d, want 6×%d/10", cost, price)
	}
	return oneOf("lo_shipmode", f[16], shipModes[:])
}

// checkOrders checks the lines of whole orders: keys follow dbgen's sparse
// sequence, lines are numbered 1..n, the order's fields agree on every line
// and lo_ordtotalprice is the sum of the lines' taxed revenue. A sample may
// skip orders and stop in the middle of its last one; generated output must
// hold every order.
func checkOrders(rows [][]string, sample bool) error {
	var idx int64 // order index, for the sparse key
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && rows[end][0] == rows[start][0] {
			end++
		}
		if sample && end == len(rows) {
			break
		}
		idx++
		key := atoi(rows[start][0])
		for sample && sparseKey(idx) < key {
			idx++
		}
		if key != sparseKey(idx) {
			return fmt.Errorf("lo_orderkey %d, want %d (order %d)", key, sparseKey(idx), idx)
		}
		var total int64
		for l, f := range rows[start:end] {
			if atoi(f[1]) != int64(l+1) {
				return fmt.Errorf("order %d: line %s at position %d", key, f[1], l+1)
			}
			for _, c := range []int{2, 5, 6, 10} {
				if f[c] != rows[start][c] {
					return fmt.Errorf("order %d: column %d differs between lines", key, c)
				}
			}
			total += atoi(f[12]) * (100 + atoi(f[14])) / 100
		}
		if got := atoi(rows[start][10]); got != total {
			return fmt.Errorf("order %d: lo_ordtotalprice %d, want %d", key, got, total)
		}
		if !sample && end-start != lineCount(idx) {
			return fmt.Errorf("order %d has %d lines, lineCount says %d", key, end-start, lineCount(idx))
		}
		start = end
	}
	return nil
}
