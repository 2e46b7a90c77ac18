package ssbgen

import "strconv"

// Customer and supplier share dbgen's address, city and phone rules.

// appendAddress appends dbgen's random address: 6 to 24 characters of
// alphaNum (its V_STR with average length 15, as the reference sample shows).
func appendAddress(dst []byte, r *rng) []byte {
	n := r.between(6, 24)
	for range n {
		dst = append(dst, alphaNum[r.intn(len(alphaNum))])
	}
	return dst
}

// appendCity appends the nation's name cut or space-padded to 9 characters
// and a digit 0..9: "UNITED KI1", "PERU     7".
func appendCity(dst []byte, nationName string, digit int) []byte {
	const width = 9
	name := nationName[:min(len(nationName), width)]
	dst = append(dst, name...)
	for range width - len(name) {
		dst = append(dst, ' ')
	}
	return append(dst, byte('0'+digit))
}

// appendPhone appends "CC-DDD-DDD-DDDD" where CC is 10 + the nation index
// and the groups are parts.
func appendPhone(dst []byte, nationIdx int, parts [3]int) []byte {
	dst = strconv.AppendInt(dst, int64(10+nationIdx), 10)
	dst = append(dst, '-')
	dst = strconv.AppendInt(dst, int64(parts[0]), 10)
	dst = append(dst, '-')
	dst = strconv.AppendInt(dst, int64(parts[1]), 10)
	dst = append(dst, '-')
	return strconv.AppendInt(dst, int64(parts[2]), 10)
}

// appendKeyName appends prefix and key zero-padded to 9 digits
// ("Customer#000000001").
func appendKeyName(dst []byte, prefix string, key int64) []byte {
	dst = append(dst, prefix...)
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], key, 10)
	for range 9 - len(d) {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// geo is a customer's or supplier's drawn location: a nation (an index
// into nations), a random address, a city digit and the phone number's
// three groups. The text and the in-memory generators both take their
// values from drawGeo.
type geo struct {
	nation, city int
	address      []byte
	phone        [3]int
	buf          [24]byte // address's storage
}

// drawGeo draws a location, in dbgen's order: nation, address, city,
// phone.
func drawGeo(g *geo, r *rng) {
	g.nation = r.intn(len(nations))
	g.address = appendAddress(g.buf[:0], r)
	g.city = r.intn(10)
	g.phone[0] = r.between(100, 999)
	g.phone[1] = r.between(100, 999)
	g.phone[2] = r.between(1000, 9999)
}

// appendGeo appends address, city, nation, region and phone to five
// consecutive string columns starting at c[0].
func appendGeo(c []column, r *rng) {
	var g geo
	drawGeo(&g, r)
	n := g.nation
	c[0].data = append(c[0].data, g.address...)
	c[0].end()
	c[1].data = appendCity(c[1].data, nations[n].name, g.city)
	c[1].end()
	c[2].str(nations[n].name)
	c[3].str(regions[nations[n].region])
	c[4].data = appendPhone(c[4].data, n, g.phone)
	c[4].end()
}
