package ssbgen

import "math"

// Base row counts at scale factor 1, as in ssb-dbgen.
const (
	customersPerSF = 30_000
	suppliersPerSF = 2_000
	partsPerSF     = 200_000
	ordersPerSF    = 1_500_000
)

// scaled is base×sf rounded down, at least 1. The epsilon keeps products
// such as 0.07×1,500,000 = 104999.99999999999 from losing a row.
func scaled(base int64, sf float64) int64 {
	return max(1, int64(math.Floor(float64(base)*sf+1e-6)))
}

// partCount follows ssb-dbgen: part grows with the logarithm of the scale
// factor, 200,000×(1+floor(log2 SF)), and linearly below SF 1.
func partCount(sf float64) int64 {
	if sf < 1 {
		return scaled(partsPerSF, sf)
	}
	return partsPerSF * (1 + int64(math.Floor(math.Log2(sf)+1e-9)))
}

// sizes are the row counts of the dimensions and the number of orders at a
// scale factor; they fix the key domains of lineorder's foreign keys.
type sizes struct {
	customers, suppliers, parts, orders int64
	// custKeys and partKeys draw skewed keys (Options.Skew); nil: uniform.
	custKeys, partKeys *zipfKeys
}

func sizesFor(sf float64) sizes {
	return sizes{
		customers: scaled(customersPerSF, sf),
		suppliers: scaled(suppliersPerSF, sf),
		parts:     partCount(sf),
		orders:    scaled(ordersPerSF, sf),
	}
}
