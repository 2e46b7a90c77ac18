package cpu

import "math"

// SIN, COS, TAN and COT as MySQL computes them: with the C library's
// correctly reduced arguments. Go's math.Sin reduces x by π/4 in three
// parts of about 30 bits each, which loses the last bits of results
// near a multiple of π: math.Sin(math.Pi) is 1.2246467991473515e-16
// where glibc (and so MySQL, "Mathematical Functions": SIN(PI()) is
// 1.2246467991473532e-16) gives 1.2246467991473532e-16. Here x is
// reduced by π/2 held to 160 bits in three doubles, each step a fused
// multiply-add, and Go's kernels evaluate the remainder, within π/4 of
// 0, where they need no reduction of their own.

// halfPi1 + halfPi2 + halfPi3 is π/2 to about 160 bits.
const (
	halfPi1 = 0x1.921fb54442d18p+0
	halfPi2 = 0x1.1a62633145c07p-54
	halfPi3 = -0x1.f1976b7ed8fbcp-110
)

// maxReduced bounds the x reduced here; past it the quotient's bits no
// longer fit the first part's product exactly, and Go's own reduction
// (Payne-Hanek past 2^29) takes over.
const maxReduced = 1 << 28

// reduceHalfPi returns r and q with x = q·π/2 + r, |r| <= π/4, q mod 4.
func reduceHalfPi(x float64) (r float64, q int) {
	k := math.RoundToEven(x / halfPi1)
	r = math.FMA(-k, halfPi1, x)
	r = math.FMA(-k, halfPi2, r)
	r = math.FMA(-k, halfPi3, r)
	return r, int(int64(k) & 3)
}

func sinC(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > maxReduced {
		return math.Sin(x)
	}
	r, q := reduceHalfPi(x)
	switch q {
	case 0:
		return math.Sin(r)
	case 1:
		return math.Cos(r)
	case 2:
		return -math.Sin(r)
	}
	return -math.Cos(r)
}

func cosC(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > maxReduced {
		return math.Cos(x)
	}
	r, q := reduceHalfPi(x)
	switch q {
	case 0:
		return math.Cos(r)
	case 1:
		return -math.Sin(r)
	case 2:
		return -math.Cos(r)
	}
	return math.Sin(r)
}

func tanC(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > maxReduced {
		return math.Tan(x)
	}
	r, q := reduceHalfPi(x)
	if q&1 == 0 {
		return math.Tan(r)
	}
	return -1 / math.Tan(r)
}
