package gpu

import "testing"

// The generator's promises, checked by brute force: build keys are
// distinct and never the kernels' empty mark (-1); FillUVAProbe's count is
// the number of probe keys some build row has.
func TestUVAData(t *testing.T) {
	r := make([]UVATuple, 50_001)
	FillUVABuild(r)
	keys := map[int32]bool{}
	for _, x := range r {
		if x[0] < 0 || keys[x[0]] {
			t.Fatalf("build key %d repeated or negative", x[0])
		}
		keys[x[0]] = true
	}
	for _, rate := range []float64{0, 0.01, 0.5, 1} {
		s := make([]UVATuple, 80_003)
		got := FillUVAProbe(s, int64(len(r)), rate)
		var want int64
		for _, x := range s {
			if keys[x[0]] {
				want++
			}
		}
		if got != want {
			t.Errorf("rate %g: generator counted %d matches, there are %d", rate, got, want)
		}
		if f := float64(want) / float64(len(s)); f < rate-0.02 || f > rate+0.02 {
			t.Errorf("rate %g: %.3f of probe rows match", rate, f)
		}
	}
}
