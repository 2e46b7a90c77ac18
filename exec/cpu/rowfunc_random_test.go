package cpu

import (
	"strings"
	"sync"
	"testing"
)

// TestUUIDV1: UUID() is 36 characters of lower-case hex in 8-4-4-4-12
// groups, version 1, RFC 4122 variant, and unique across concurrent
// callers (its timestamp strictly increases per call).
func TestUUIDV1(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				u := uuidV1()
				mu.Lock()
				seen[u] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 8000 {
		t.Fatalf("%d distinct UUIDs of 8000", len(seen))
	}
	for u := range seen {
		b, ok := uuidBytes(u)
		if !ok || len(u) != 36 || u != strings.ToLower(u) {
			t.Fatalf("%q is not a dashed lower-case UUID", u)
		}
		if b[6]>>4 != 1 || b[8]>>6 != 2 {
			t.Fatalf("%q: version %d, variant bits %b", u, b[6]>>4, b[8]>>6)
		}
	}
}

// TestMyRand: RAND(N)'s sequence starts with the manual's values, and
// the generator stays in [0, 1).
func TestMyRand(t *testing.T) {
	if got := newMyRand(3).next(); got != 0.9057697559760601 {
		t.Errorf("RAND(3) = %v", got)
	}
	if got := newMyRand(20).next(); got < 0.1588826125104 || got > 0.1588826125105 {
		t.Errorf("RAND(20) = %v", got)
	}
	r := newMyRand(-7)
	for i := 0; i < 100000; i++ {
		if x := r.next(); x < 0 || x >= 1 {
			t.Fatalf("value %d: %v", i, x)
		}
	}
}
