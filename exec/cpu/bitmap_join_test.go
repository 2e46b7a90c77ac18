package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gpusql/planner"
)

// TestBitmapJoinOracle: semi, anti, NOT IN, inner and left joins forced to
// two-pass bucketing, and to a bitmap (one bitmap over a small domain; buckets over a 2^31 domain that
// the build keys touch sparsely and in clusters) give SQLite's rows, with
// NULL keys on both sides, duplicates, and probe keys outside the build's
// range.
func TestBitmapJoinOracle(t *testing.T) {
	d := newTestDB(t, true)
	rng := rand.New(rand.NewPCG(7, 12))
	key := func(wide bool) string {
		switch {
		case rng.IntN(25) == 0:
			return `\N`
		case wide && rng.IntN(2) == 0:
			return fmt.Sprint(rng.Int64N(1<<31) - 1<<20) // sparse over 2^31
		case wide:
			return fmt.Sprint(rng.Int64N(1<<12) + 1<<30) // one dense cluster
		}
		return fmt.Sprint(rng.IntN(3000) - 100)
	}
	for _, tb := range []struct {
		name string
		n    int
		wide bool
	}{{"pn", 5000, false}, {"bn", 1500, false}, {"pw", 5000, true}, {"bw", 3000, true}} {
		d.create(fmt.Sprintf("create table %s (k bigint, v int)", tb.name))
		lines := make([]string, tb.n)
		for i := range lines {
			lines[i] = fmt.Sprintf("%s|%d", key(tb.wide), i)
		}
		d.load(tb.name, lines)
	}
	queries := []string{
		"select v from pn where k in (select k from bn)",
		"select v from pn where k not in (select k from bn)",
		"select v from pn where k not in (select k from bn where k is not null)",
		"select v from pn where not exists (select 1 from bn where bn.k = pn.k)",
		"select pn.v, bn.v from pn join bn on pn.k = bn.k",
		"select pn.v, bn.v from pn left join bn on pn.k = bn.k",
		"select v from pw where k in (select k from bw)",
		"select v from pw where not exists (select 1 from bw where bw.k = pw.k)",
		"select v from pw where k not in (select k from bw where k is not null)",
		"select v from pn where k in (select k from bw)",
	}
	for _, q := range queries {
		want := sortedRows(normalize(d.oracleRows(q)))
		for algo, mark := range map[string]string{"bitmap": "Bitmap[", "twopass": "two-pass"} {
			opts := planner.Options{Join: algo}
			p := d.plan(q, opts)
			if !strings.Contains(p.Explain(), mark) {
				t.Errorf("%s: no %s join:\n%s", q, algo, p.Explain())
			}
			got := sortedRows(normalize(d.run(q, opts)))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s (%s): got %d rows, SQLite %d\n%s", q, algo, len(got), len(want), p.Explain())
			}
		}
	}
}
