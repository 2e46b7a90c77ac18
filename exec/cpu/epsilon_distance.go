package cpu

import "math"

// EpsilonTest decides whether two points are within ε, exactly as
// kernels/epsilon_join.cu does, so that both executors return the same
// pairs. The predicate is defined in float32 as stored, summed in the
// original dimension order:
//
//	L2: Σ fl(fl(a_d-b_d)²) ≤ fl(ε·ε)      L1: Σ |fl(a_d-b_d)| ≤ ε
//
// (< for a strict comparison), each sum added left to right in float32
// without fused multiply-adds. Under REORDER the points are stored with
// dimensions permuted, and summing in another order rounds differently;
// both sums of the same n non-negative terms lie within (n-1)·2^-24 of
// the exact sum, so a stored-order sum clearly below the limit (Lo) or
// above it (Hi) decides, and only sums in between are summed again in the
// original order. SHORTC stops a sum once its partial passes Hi: adding
// non-negative floats never decreases a sum.
type EpsilonTest struct {
	Metric EpsilonMetric
	Strict bool
	ShortC bool
	Limit  float32 // ε² (L2) or ε (L1)
	Lo, Hi float32 // certain accept below Lo, certain reject above Hi
	Exact  bool    // stored order is the original order (Lo = Hi = Limit)
	Inv    []int32 // original dimension d is stored at position Inv[d]
}

func newEpsilonTest(opt EpsilonOptions, perm []int32) EpsilonTest {
	t := EpsilonTest{Metric: opt.Metric, Strict: opt.Strict, ShortC: opt.ShortC, Exact: true}
	t.Limit = opt.Eps
	if opt.Metric == EpsilonL2 {
		t.Limit = float32(opt.Eps * opt.Eps)
	}
	if opt.LimitSet {
		t.Limit, t.Strict = opt.Limit, false
	}
	t.Inv = make([]int32, len(perm))
	for j, d := range perm {
		t.Inv[d] = int32(j)
		if int(d) != j {
			t.Exact = false
		}
	}
	t.Lo, t.Hi = t.Limit, t.Limit
	if !t.Exact {
		r := float64(4*len(perm)+8) / (1 << 24)
		t.Lo = min(float32(float64(t.Limit)*(1-r)), t.Limit)
		t.Hi = max(float32(float64(t.Limit)*(1+r)), t.Limit)
	}
	return t
}

// accepts compares a final sum in the original order with the limit.
func (t *EpsilonTest) accepts(s float32) bool {
	if t.Strict {
		return s < t.Limit
	}
	return s <= t.Limit
}

// Within reports whether stored points a and b are within ε.
func (t *EpsilonTest) Within(a, b []float32) bool {
	var s float32
	var done bool
	if !t.Exact && t.Metric == EpsilonL2 && len(a) >= 16 {
		s, done = t.splitSum(a, b)
	} else {
		s, done = t.storedSum(a, b)
	}
	if done {
		return false
	}
	if t.Exact {
		return t.accepts(s)
	}
	if s < t.Lo {
		return true
	}
	if s > t.Hi {
		return false
	}
	return t.accepts(t.originalSum(a, b))
}

// storedSum sums in stored order; done is true once the partial sum
// passed Hi under SHORTC (the pair is out).
func (t *EpsilonTest) storedSum(a, b []float32) (s float32, done bool) {
	b = b[:len(a)]
	if t.Metric == EpsilonL1 {
		for i, v := range a {
			s += float32(math.Abs(float64(v - b[i])))
			if t.ShortC && s > t.Hi {
				return s, true
			}
		}
		return s, false
	}
	if !t.ShortC {
		for i, v := range a {
			d := v - b[i]
			s += float32(d * d) // the conversion forbids a fused multiply-add
		}
		return s, false
	}
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s += float32(d0 * d0)
		s += float32(d1 * d1)
		s += float32(d2 * d2)
		s += float32(d3 * d3)
		if s > t.Hi {
			return s, true
		}
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s += float32(d * d)
	}
	return s, s > t.Hi
}

// splitSum is storedSum for L2 in four running sums, which the CPU adds
// in parallel instead of waiting on one chain of additions (high
// dimensions run about twice as fast). Summed in another order, it is
// only ever compared with Lo and Hi, whose margin holds for any order of
// adding the same non-negative terms; the decision in between is the
// original-order sum's. So it is used only when the order is not exact.
func (t *EpsilonTest) splitSum(a, b []float32) (s float32, done bool) {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		d4, d5, d6, d7 := a[i+4]-b[i+4], a[i+5]-b[i+5], a[i+6]-b[i+6], a[i+7]-b[i+7]
		s0 += float32(d0 * d0)
		s1 += float32(d1 * d1)
		s2 += float32(d2 * d2)
		s3 += float32(d3 * d3)
		s0 += float32(d4 * d4)
		s1 += float32(d5 * d5)
		s2 += float32(d6 * d6)
		s3 += float32(d7 * d7)
		if t.ShortC && (s0+s1)+(s2+s3) > t.Hi {
			return (s0 + s1) + (s2 + s3), true
		}
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += float32(d * d)
	}
	s = (s0 + s1) + (s2 + s3)
	return s, t.ShortC && s > t.Hi
}

// originalSum sums in the original dimension order: the definition.
func (t *EpsilonTest) originalSum(a, b []float32) float32 {
	var s float32
	for _, j := range t.Inv {
		d := a[j] - b[j]
		if t.Metric == EpsilonL1 {
			s += float32(math.Abs(float64(d)))
		} else {
			s += float32(d * d)
		}
	}
	return s
}

// EpsilonSum is the float32 sum the predicate compares, over points in
// their original dimension order: Σ fl(d²) for L2, Σ |d| for L1.
func EpsilonSum(metric EpsilonMetric, a, b []float32) float32 {
	var s float32
	for i, v := range a {
		d := v - b[i]
		if metric == EpsilonL1 {
			s += float32(math.Abs(float64(d)))
		} else {
			s += float32(d * d)
		}
	}
	return s
}

// EpsilonWithin is the predicate on points in their original dimension
// order: what a brute-force join compares (tests, the bench's sample).
func EpsilonWithin(metric EpsilonMetric, eps float32, strict bool, a, b []float32) bool {
	s := EpsilonSum(metric, a, b)
	limit := eps
	if metric == EpsilonL2 {
		limit = float32(eps * eps)
	}
	if strict {
		return s < limit
	}
	return s <= limit
}
