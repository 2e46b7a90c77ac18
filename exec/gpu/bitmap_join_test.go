//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
)

// The bitmap joins (one bitmap, bucketed) against the CPU on the same
// plans: empty inputs, NULL keys on both sides, duplicate build keys (a
// payload join then falls back to the hash join), one key on most rows
// (skew), keys outside the build's range, and sizes that are not multiples
// of the 256-thread block or the 1024-row stage.
func TestBitmapJoinDifferential(t *testing.T) {
	needGPU(t)
	cat := catalog.New()
	for _, n := range []int{0, 1, 1000, 70001} {
		cat.Put(joinTable(fmt.Sprintf("p%d", n), n, func(i int) int64 { // probe: NULLs, skew, misses
			switch {
			case i%13 == 0:
				return -1
			case i%3 == 0:
				return 7
			}
			return int64(i*7) % 150000
		}))
		cat.Put(joinTable(fmt.Sprintf("u%d", n), n, func(i int) int64 { return int64(2 * i) })) // unique, every other key
		cat.Put(joinTable(fmt.Sprintf("d%d", n), n, func(i int) int64 {                         // duplicates and a NULL
			if i == n/2 {
				return -1
			}
			return int64(i % 500)
		}))
		cat.Put(joinTable(fmt.Sprintf("w%d", n), n, func(i int) int64 { // a 2^31 domain: bucketed
			if i%2 == 0 {
				return int64(i) << 15
			}
			return int64(i)
		}))
	}
	sizes := []int{0, 1, 1000, 70001}
	var queries []string
	for _, a := range sizes {
		for _, b := range sizes {
			p := fmt.Sprintf("p%d", a)
			for _, bt := range []string{"u", "d", "w"} {
				q := fmt.Sprintf("%s%d", bt, b)
				queries = append(queries,
					fmt.Sprintf("select %s_v from %s where %s_k in (select %s_k from %s)", p, p, p, q, q),
					fmt.Sprintf("select %s_v from %s where not exists (select 1 from %s where %s_k = %s_k)", p, p, q, q, p),
					fmt.Sprintf("select %s_v from %s where %s_k not in (select %s_k from %s)", p, p, p, q, q))
				if bt != "w" {
					queries = append(queries,
						fmt.Sprintf("select %s_v, %s_v from %s join %s on %s_k = %s_k", p, q, p, q, p, q),
						fmt.Sprintf("select %s_v, %s_v from %s left join %s on %s_k = %s_k", p, q, p, q, p, q))
				}
			}
		}
	}
	bitmaps := 0
	for _, text := range queries {
		ps, err := sql.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		st, err := sql.Bind(cat, ps[0])
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		p, err := planner.Plan(st.(*sql.Query), planner.Options{Join: "bitmap"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.Explain(), "Bitmap[") {
			bitmaps++
		}
		want, err := cpu.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s cpu: %v", text, err)
		}
		got, err := Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v\n%s", text, err, p.Explain())
		}
		if d := diffResults(sorted(got), sorted(want)); d != "" {
			t.Errorf("%s: %s\n%s", text, d, p.Explain())
		}
	}
	if bitmaps < len(queries)/2 {
		t.Errorf("only %d of %d plans use a bitmap join", bitmaps, len(queries))
	}
}
