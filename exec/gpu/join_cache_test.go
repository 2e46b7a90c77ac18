//go:build cuda

package gpu

import (
	"context"
	"errors"
	"testing"

	"gpusql/catalog"
	"gpusql/exec/cpu"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// joinTable makes table name with int columns k (key(i), NULL where
// key(i) < 0) and v = i.
func joinTable(name string, n int, key func(i int) int64) *columnar.Table {
	t := &columnar.Table{Name: name, Rows: n, Fields: []columnar.Field{
		{Name: name + "_k", Type: columnar.TInt64, Nullable: true},
		{Name: name + "_v", Type: columnar.TInt32, Nullable: true}}}
	k := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt64, n, true)
	v := columnar.NewColumnIn(columnar.HeapAllocator, columnar.TInt32, n, false)
	for i := 0; i < n; i++ {
		if x := key(i); x >= 0 {
			k.I64[i] = x
			k.SetValid(i)
		}
		v.I32[i] = int32(i)
	}
	t.Columns = []*columnar.Column{k, v}
	columnar.ComputeStats(t)
	return t
}

// The materializing hash join's pairs go through join_probe's shared-memory
// cache: fan-outs far beyond the cache (3000 build rows per key against a
// 2048-pair cache), one key holding most rows (skew), NULL keys on both
// sides, empty inputs, and every join kind, each checked against the CPU.
func TestJoinCache(t *testing.T) {
	needGPU(t)
	cat := catalog.New()
	cat.Put(joinTable("p", 4000, func(i int) int64 {
		if i%17 == 0 {
			return -1
		}
		return int64(i % 50)
	}))
	cat.Put(joinTable("f", 9000, func(i int) int64 { return int64(i % 3) })) // 3000 rows per key
	cat.Put(joinTable("s", 20000, func(i int) int64 {                        // skew: key 7 on 90% of rows
		switch {
		case i%10 != 0:
			return 7
		case i%30 == 0:
			return -1
		}
		return int64(i)
	}))
	cat.Put(joinTable("e", 0, func(int) int64 { return 0 }))
	cat.Put(joinTable("nk", 100, func(i int) int64 { // a NULL build key for NOT IN
		if i == 5 {
			return -1
		}
		return int64(i)
	}))
	queries := []string{
		"select p_v, f_v from p join f on p_k = f_k",
		"select p_v, s_v from p join s on p_k = s_k",
		"select s_v, p_v from s join p on s_k = p_k",
		"select p_v, f_v from p left join f on p_k = f_k",
		"select p_v, f_v from p left join f on p_k = f_k and f_v % 7 = 1",
		"select p_v, f_v from p join f on p_k = f_k and p_v + f_v < 3000",
		"select p_v from p where exists (select 1 from s where s_k = p_k)",
		"select p_v from p where not exists (select 1 from f where f_k = p_k)",
		"select p_v from p where p_k not in (select f_k from f)",
		"select p_v from p where p_k not in (select nk_k from nk)",
		"select p_v from p where p_k in (select s_k from s)",
		"select p_v, e_v from p join e on p_k = e_k",
		"select p_v, e_v from p left join e on p_k = e_k",
		"select e_v, p_v from e join p on e_k = p_k",
		"select p_v from p where p_k not in (select e_k from e)",
		"select p_v, f_v from p join f on p_k = f_k where p_v < 0",
	}
	run := func(t *testing.T) {
		for _, text := range queries {
			ps, err := sql.Parse(text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			st, err := sql.Bind(cat, ps[0])
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			p, err := planner.Plan(st.(*sql.Query), planner.Options{Join: "hash"})
			if err != nil {
				t.Fatal(err)
			}
			want, err := cpu.Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s cpu: %v", text, err)
			}
			got, err := Run(context.Background(), p)
			if err != nil {
				if errors.Is(err, ErrUnsupported) {
					t.Logf("%s: %v", text, err)
					continue
				}
				t.Fatalf("%s: %v\n%s", text, err, p.Explain())
			}
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Errorf("%s: %s\n%s", text, d, p.Explain())
			}
		}
	}
	t.Run("estimated", run)
	// A first output of 1024 pairs: every join with more pairs overflows,
	// counts them all, and reruns into an output of the exact size.
	t.Run("overflow", func(t *testing.T) {
		before := joinReruns
		joinCapacityOverride = 1024
		defer func() { joinCapacityOverride = 0 }()
		run(t)
		if joinReruns == before {
			t.Errorf("no join overflowed its first output of 1024 pairs")
		}
	})
}
