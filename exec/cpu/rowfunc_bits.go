package cpu

func init() {
	for name, body := range bitBodies {
		stringBodies[name] = body
	}
}

// bitBodies are MySQL's bit operators over 64-bit unsigned values (see
// sql/bit_operators.go).
var bitBodies = map[string]func(f *rowFunc, a []val) val{
	"bitand":     func(f *rowFunc, a []val) val { return unsignedResult(f, uint64(a[0].i)&uint64(a[1].i)) },
	"bitor":      func(f *rowFunc, a []val) val { return unsignedResult(f, uint64(a[0].i)|uint64(a[1].i)) },
	"bitxor":     func(f *rowFunc, a []val) val { return unsignedResult(f, uint64(a[0].i)^uint64(a[1].i)) },
	"bitneg":     func(f *rowFunc, a []val) val { return unsignedResult(f, ^uint64(a[0].i)) },
	"shiftleft":  func(f *rowFunc, a []val) val { return unsignedResult(f, shift(uint64(a[0].i), a[1].i, true)) },
	"shiftright": func(f *rowFunc, a []val) val { return unsignedResult(f, shift(uint64(a[0].i), a[1].i, false)) },
}

// shift shifts x by the count n read as unsigned: 64 or more (and a
// negative count, a huge unsigned one) gives 0, as in MySQL.
func shift(x uint64, n int64, left bool) uint64 {
	if uint64(n) >= 64 {
		return 0
	}
	if left {
		return x << uint(n)
	}
	return x >> uint(n)
}

// unsignedResult returns x as BIGINT UNSIGNED: the int64 slot holds its
// bits.
func unsignedResult(_ *rowFunc, x uint64) val { return iv(int64(x)) }
