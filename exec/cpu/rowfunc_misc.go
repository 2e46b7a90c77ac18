package cpu

import (
	crand "crypto/rand"
	"fmt"
	"math"

	"gpusql/sql"
)

// INTERVAL, PERIOD_ADD, PERIOD_DIFF, GET_FORMAT and RANDOM_BYTES
// (sql/functions_misc.go).

func init() {
	for name, body := range miscBodies {
		stringBodies[name] = body
	}
	nullSafeRowFuncs["interval"] = true
}

var miscBodies = map[string]func(f *rowFunc, a []val) val{
	"interval": func(f *rowFunc, a []val) val {
		if a[0].null {
			return iv(-1)
		}
		for i, x := range a[1:] {
			if x.f > a[0].f { // a NULL ni reads as 0 (x.f is 0)
				return iv(int64(i))
			}
		}
		return iv(int64(len(a) - 1))
	},
	"period_add": func(f *rowFunc, a []val) val {
		if a[0].i == 0 {
			return iv(0) // MySQL: PERIOD_ADD(0, n) is 0
		}
		return iv(monthToPeriod(periodToMonth(a[0].i, "period_add") + a[1].i))
	},
	"period_diff": func(f *rowFunc, a []val) val {
		return iv(periodToMonth(a[0].i, "period_diff") - periodToMonth(a[1].i, "period_diff"))
	},
	"get_format": func(f *rowFunc, a []val) val {
		if s, ok := sql.GetFormat(a[0].s, a[1].s); ok {
			return sv(s)
		}
		return nullVal
	},
	"format_bytes": func(f *rowFunc, a []val) val {
		return sv(formatScaled(a[0].f, "%4d %s", []scaledUnit{{1 << 60, "EiB"}, {1 << 50, "PiB"},
			{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "bytes"}}))
	},
	"format_pico_time": func(f *rowFunc, a []val) val {
		const ns, us, ms, s = 1e3, 1e6, 1e9, 1e12
		return sv(formatScaled(a[0].f, "%3d %s", []scaledUnit{{86400 * s, "d"}, {3600 * s, "h"},
			{60 * s, "min"}, {s, "s"}, {ms, "ms"}, {us, "us"}, {ns, "ns"}, {1, "ps"}}))
	},
	"random_bytes": func(f *rowFunc, a []val) val {
		if a[0].i < 1 || a[0].i > 1024 {
			raise(fmt.Errorf("length value is out of range in 'random_bytes'"))
		}
		b := make([]byte, a[0].i)
		_, _ = crand.Read(b)
		return sv(string(b))
	},
}

// scaledUnit is a unit of FORMAT_BYTES or FORMAT_PICO_TIME and its size.
type scaledUnit struct {
	size float64
	name string
}

// formatScaled writes x in the first (largest) unit its magnitude reaches
// as MySQL's Item_func_pfs_format_bytes / _pico_time do: the base unit
// (the last) as an integer with intFormat, the others with two decimals,
// in exponent form from 100000 units on.
func formatScaled(x float64, intFormat string, units []scaledUnit) string {
	u := units[len(units)-1]
	for _, v := range units {
		if math.Abs(x) >= v.size {
			u = v
			break
		}
	}
	if u.size == 1 {
		return fmt.Sprintf(intFormat, int64(x), u.name)
	}
	v := x / u.size
	if math.Abs(v) >= 100000 {
		return fmt.Sprintf("%4.2e %s", v, u.name)
	}
	return fmt.Sprintf("%4.2f %s", v, u.name)
}

// periodToMonth is MySQL's convert_period_to_month: a YYMM or YYYYMM period
// (YY < 70 is 20YY, else 19YY) as months since year 0; 0 stays 0. A month
// outside 1..12 or a negative period is MySQL 8's ER_WRONG_ARGUMENTS.
func periodToMonth(p int64, fn string) int64 {
	if p < 0 || (p != 0 && (p%100 == 0 || p%100 > 12)) {
		raise(fmt.Errorf("Incorrect arguments to %s", fn))
	}
	if p == 0 {
		return 0
	}
	y := p / 100
	switch {
	case y < 70:
		y += 2000
	case y < 100:
		y += 1900
	}
	return y*12 + p%100 - 1
}

// monthToPeriod is convert_month_to_period: months since year 0 as YYYYMM.
func monthToPeriod(m int64) int64 {
	if m <= 0 {
		return 0
	}
	y := m / 12
	if y < 100 {
		if y < 70 {
			y += 2000
		} else {
			y += 1900
		}
	}
	return y*100 + m%12 + 1
}
