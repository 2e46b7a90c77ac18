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

// appendPhone appends "CC-DDD-DDD-DDDD" where CC is 10 + the nation index.
func appendPhone(dst []byte, nationIdx int, r *rng) []byte {
	dst = strconv.AppendInt(dst, int64(10+nationIdx), 10)
	dst = append(dst, '-')
	dst = strconv.AppendInt(dst, int64(r.between(100, 999)), 10)
	dst = append(dst, '-')
	dst = strconv.AppendInt(dst, int64(r.between(100, 999)), 10)
	dst = append(dst, '-')
	return strconv.AppendInt(dst, int64(r.between(1000, 9999)), 10)
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

// appendGeo appends address, city, nation, region and phone to five
// consecutive string columns starting at c[0].
func appendGeo(c []column, r *rng) {
	n := r.intn(len(nations))
	c[0].data = appendAddress(c[0].data, r)
	c[0].end()
	c[1].data = appendCity(c[1].data, nations[n].name, r.intn(10))
	c[1].end()
	c[2].str(nations[n].name)
	c[3].str(regions[nations[n].region])
	c[4].data = appendPhone(c[4].data, n, r)
	c[4].end()
}
