//go:build cuda

package gpu

import (
	"context"
	"strings"
	"testing"

	"gpusql/exec"
	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// transferPlan is p planned as the engine plans by default: fact columns
// sent packed (forced, for small tables), selective ones read in place
// when cold, the others copied ahead.
func transferPlan(t testing.TB, p *planner.Physical) *planner.Physical {
	return withPacking(t, p, packingMode{name: "transfer", force: true, transfer: true})
}

func copiedAhead(c planner.GPUColumn) bool { return c.Packing != nil && c.Packing.CopyAhead }

// TestCopyAhead: a cold star query copies the columns its plan marks
// CopyAhead on the copy stream before its dimension builds, answers as
// the CPU does, and leaves no copy in flight and their 4-byte forms
// cached; the next run copies none ahead and answers the same.
func TestCopyAhead(t *testing.T) {
	d := needGPU(t)
	eachSSBPlan(t, func(name string, base *planner.Physical, want *exec.Result) {
		p := transferPlan(t, base)
		marked := countColumns(p.GPU, copiedAhead)
		if marked == 0 || !strings.Contains(p.Explain(), "copied ahead of the dimension builds") {
			t.Fatalf("%s: no column copied ahead\n%s", name, p.Explain())
		}
		if err := DropColumnCache(); err != nil {
			t.Fatal(err)
		}
		for run, wantAhead := range []int64{int64(marked), 0} {
			before := copiesAhead.Load()
			got, err := Run(context.Background(), p)
			if err != nil {
				t.Fatalf("%s run %d: %v\n%s", name, run, err, p.Explain())
			}
			if diff := diffResults(got, want); diff != "" {
				t.Errorf("%s run %d: %s\n%s", name, run, diff, p.Explain())
			}
			if n := copiesAhead.Load() - before; n != wantAhead {
				t.Errorf("%s run %d: %d columns copied ahead, want %d", name, run, n, wantAhead)
			}
			d.do(func() error {
				if d.aheadInFlight != 0 {
					t.Errorf("%s run %d: %d copies ahead in flight after the query", name, run, d.aheadInFlight)
				}
				for _, c := range p.GPU.Columns {
					if copiedAhead(c) {
						checkCachedForm(t, d, name, c)
					}
				}
				return nil
			})
		}
	})
	if err := DropColumnCache(); err != nil {
		t.Fatal(err)
	}
}

// TestCopyAheadUnread: a run that starts its copies ahead and ends before
// reading them (a dimension build failed) waits for them at its close,
// leaves none in flight nor pinned, and the next run reads the entries they
// filled, copying nothing, with the CPU's answer.
func TestCopyAheadUnread(t *testing.T) {
	d := needGPU(t)
	cat := ssbtest.Catalog(t, 0.05, PinnedAllocator())
	for _, sq := range ssbtest.Queries(t, cat) {
		if sq.Name != "Q4.2" {
			continue
		}
		base, want := cpuPlanAndAnswer(t, sq)
		p := transferPlan(t, base)
		if err := DropColumnCache(); err != nil {
			t.Fatal(err)
		}
		var started int
		err := d.do(func() error {
			end, err := d.begin(p.GPU)
			if err != nil {
				return err
			}
			defer end()
			q, _, err := starFromPlan(p.GPU.Star)
			if err != nil {
				return err
			}
			r := d.newQueryRun()
			if err := r.copyAhead(q); err != nil {
				return err
			}
			started = len(r.ahead)
			r.close()
			if d.aheadInFlight != 0 {
				t.Errorf("%d copies ahead in flight after the run closed", d.aheadInFlight)
			}
			for _, c := range p.GPU.Columns {
				if e, ok := d.cache.m[cacheKey{c.Col, formWhole}]; copiedAhead(c) && (!ok || e.pins != 0 || e.sending != nil) {
					t.Errorf("%s.%s: cached %v, pinned %v after the run", c.Table, c.Column, ok, ok && e.pins != 0)
				}
			}
			return nil
		})
		if err != nil || started != countColumns(p.GPU, copiedAhead) {
			t.Fatalf("copies ahead started: %d of %d (%v)", started, countColumns(p.GPU, copiedAhead), err)
		}
		before := copiesAhead.Load()
		got, err := Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := diffResults(got, want); diff != "" {
			t.Error(diff)
		}
		if n := copiesAhead.Load() - before; n != 0 {
			t.Errorf("%d columns copied ahead again", n)
		}
		return
	}
	t.Fatal("no Q4.2")
}

// TestRangedLoadMatchesScan: a column loaded with the plan's value range
// (no wait for its copy) has a range that holds every value a scan of the
// device copy finds, for every SSB dimension column, in the Go heap and in
// pinned memory (the statistics bound a string column's codes by its
// dictionary, which may be wider than the codes in use).
func TestRangedLoadMatchesScan(t *testing.T) {
	d := needGPU(t)
	for _, alloc := range []columnar.Allocator{columnar.HeapAllocator, PinnedAllocator()} {
		cat := ssbtest.Catalog(t, 0.05, alloc)
		for _, q := range ssbtest.Queries(t, cat) {
			base, _ := cpuPlanAndAnswer(t, q)
			p := transferPlan(t, base)
			if err := DropColumnCache(); err != nil {
				t.Fatal(err)
			}
			err := d.do(func() error {
				for _, gc := range p.GPU.Columns {
					if gc.Fact || !gc.HasRange || gc.Col.F64 != nil || gc.Col.I64 != nil {
						continue
					}
					e, err := d.cache.getAs(gc.Col, false, &gc)
					if err != nil {
						return err
					}
					lo, hi, err := d.cache.scan(e.data, 4, 0, e.valid, int64(e.n))
					d.cache.unpin(e)
					if err != nil {
						return err
					}
					if lo < e.min || hi > e.max || lo > hi {
						t.Errorf("%s %s.%s: loaded with range [%d, %d], the device copy holds [%d, %d]", q.Name, gc.Table, gc.Column, e.min, e.max, lo, hi)
					}
				}
				return d.sync()
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}
