//go:build cuda

package gpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// mergeKeyTable has a join key of each kind the merge join encodes: INT
// (i), BIGINT (b), DATE (d) and a dictionary string (s, from words), an id,
// and NULL keys on one row in 16. dist picks the keys: "unique" (a few
// misses either way), "dup" (a dozen values: many-to-many runs spanning
// tiles) or "skew" (one value on every row).
func mergeKeyTable(name string, n int, dist string, words []string, seed uint64) *columnar.Table {
	t := newTable(columnar.HeapAllocator, name, n, []colSpec{{name + "i", columnar.TInt32}, {name + "b", columnar.TInt64},
		{name + "d", columnar.TDate}, {name + "s", columnar.TString}, {name + "id", columnar.TInt64}})
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	codeOf := make([]int, n)
	for _, c := range t.Columns[:4] {
		c.Valid = make([]uint64, (n+63)/64)
	}
	for i := 0; i < n; i++ {
		var k int64
		switch dist {
		case "unique":
			k = rng.Int64N(int64(n+n/4+1)) - int64(n/8)
		case "dup":
			k = rng.Int64N(12)
		default:
			k = 5
		}
		c := t.Columns
		c[0].I32[i] = int32(k)
		c[1].I64[i] = k<<33 - 7 // wider than 32 bits, negative too
		c[2].I32[i] = int32(19000 + k)
		codeOf[i] = int(k % int64(len(words)))
		if codeOf[i] < 0 {
			codeOf[i] += len(words)
		}
		c[4].I64[i] = int64(i)
		for j := range 4 {
			if (i*5+j*3+int(seed))%16 != 0 {
				c[j].SetValid(i)
			}
		}
	}
	setDict(t, name+"s", words, codeOf)
	return t
}

// TestMergePathJoinDifferential runs SortMergeJoin plans on both
// executors: every join kind the GPU merge join runs, every key type,
// sizes around the 1024-element tile (empty, one row, 1023, 1025, 4097),
// unique / duplicated / all-equal keys, NULL keys, one and two keys, and
// each side arriving sorted on the keys (a Sort below, marked in the plan:
// only its NULL-key rows are moved) or not.
func TestMergePathJoinDifferential(t *testing.T) {
	needGPU(t)
	// Two dictionaries that share a third of their strings.
	var lw, rw []string
	for i := range 3000 {
		lw, rw = append(lw, fmt.Sprintf("w%04d", i)), append(rw, fmt.Sprintf("w%04d", i+1000))
	}
	sizes := [][2]int{{0, 0}, {0, 9}, {9, 0}, {1, 1}, {1023, 1025}, {4097, 1500}, {1, 3000}, {700, 300}}
	for _, sz := range sizes {
		for _, dist := range []string{"unique", "dup", "skew"} {
			lt := mergeKeyTable("l", sz[0], dist, lw, 1)
			rt := mergeKeyTable("r", sz[1], dist, rw, 2)
			l, r := scanOf(lt, "li", "lb", "ld", "ls", "lid"), scanOf(rt, "ri", "rb", "rd", "rs", "rid")
			for _, keys := range [][2][]string{{{"li"}, {"ri"}}, {{"lb"}, {"rb"}}, {{"ld"}, {"rd"}}, {{"ls"}, {"rs"}}, {{"ld", "ls"}, {"rd", "rs"}}, {{"li"}, {"rb"}}} {
				for _, kind := range []sql.JoinKind{sql.JoinInner, sql.JoinLeft, sql.JoinSemi, sql.JoinAnti} {
					for pi, pre := range [][2]bool{{false, false}, {true, true}, {true, false}, {false, true}} {
						if pi >= 2 && keys[0][len(keys[0])-1] != "ls" {
							continue // one side sorted: the string keys (dictionary lookup) suffice
						}
						pairs := (kind == sql.JoinInner || kind == sql.JoinLeft) && (dist == "skew" || sz[0] > 1100)
						if pairs && dist != "unique" && (len(keys[0]) > 1 || keys[0][0] != "li" || pi > 1 || sz[0]*sz[1] > 2e6) {
							continue // 0.5-1M-row outputs: one key type suffices (TestMergePathJoinSkew: more)
						}
						j := mergeJoinOf(kind, sortedInput(l, keys[0], pre[0]), sortedInput(r, keys[1], pre[1]), keys[0], keys[1], nil)
						j.LeftSorted, j.RightSorted = pre[0], pre[1]
						got, want := runBoth(t, j)
						if d := diffResults(sorted(got), sorted(want)); d != "" {
							t.Fatalf("%v %s keys=%v kind=%v sorted=%v: %s", sz, dist, keys, kind, pre, d)
						}
					}
				}
			}
			// NOT IN (null-aware anti join) and a residual, on sorted inputs.
			j := mergeJoinOf(sql.JoinAnti, sortedInput(l, []string{"lb"}, true), sortedInput(r, []string{"rb"}, true), []string{"lb"}, []string{"rb"}, nil)
			j.NullAware, j.LeftSorted, j.RightSorted = true, true, true
			got, want := runBoth(t, j)
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Fatalf("%v %s not in: %s", sz, dist, d)
			}
			lr := append(append(sql.Schema{}, l.Schema()...), r.Schema()...)
			res := &sql.Binary{Op: sql.OpLT, L: &sql.ColRef{Index: 4, Col: lr[4]}, R: &sql.ColRef{Index: 9, Col: lr[9]}, T: columnar.TBool}
			for _, kind := range []sql.JoinKind{sql.JoinInner, sql.JoinSemi, sql.JoinAnti} {
				j := mergeJoinOf(kind, l, r, []string{"li"}, []string{"ri"}, res)
				got, want := runBoth(t, j)
				if d := diffResults(sorted(got), sorted(want)); d != "" {
					t.Fatalf("%v %s residual kind=%v: %s", sz, dist, kind, d)
				}
			}
		}
	}
}

// sortedInput is n, or n sorted ascending on keys when sorted is set.
func sortedInput(n planner.Node, keys []string, sorted bool) planner.Node {
	if !sorted {
		return n
	}
	return sortOf(n, keys...)
}

// TestMergePathJoinSkew joins one key repeated on every row of both sides
// (and a heavy key among unique ones) at sizes whose outputs span many
// thousand tiles: per left row, the count, sum, min and max of its right
// partners' ids must match the CPU's, which pins every pair.
func TestMergePathJoinSkew(t *testing.T) {
	needGPU(t)
	for _, c := range []struct {
		nl, nr int
	}{{3, 400000}, {400000, 3}, {2000, 2000}, {300000, 200000}} {
		dist := "skew"
		if c.nl > 100000 && c.nr > 100000 {
			dist = "dup" // 12 values: 5·10^9 pairs would not fit; aggregate below
		}
		lt := mergeKeyTable("l", c.nl, dist, []string{"x"}, 3)
		rt := mergeKeyTable("r", c.nr, dist, []string{"x"}, 4)
		l, r := scanOf(lt, "li", "lid"), scanOf(rt, "ri", "rid")
		for _, pre := range []bool{false, true} {
			var j *planner.SortMergeJoin
			if dist == "dup" {
				// Semi and anti joins: the counts capped at one partner.
				for _, kind := range []sql.JoinKind{sql.JoinSemi, sql.JoinAnti} {
					j = mergeJoinOf(kind, sortedInput(l, []string{"li"}, pre), sortedInput(r, []string{"ri"}, pre), []string{"li"}, []string{"ri"}, nil)
					j.LeftSorted, j.RightSorted = pre, pre
					got, want := runBoth(t, aggOf(j, nil, countStar(), sumOf(ref(j, "lid"))))
					if d := diffResults(got, want); d != "" {
						t.Fatalf("%v kind=%v sorted=%v: %s", c, kind, pre, d)
					}
				}
				continue
			}
			j = mergeJoinOf(sql.JoinInner, sortedInput(l, []string{"li"}, pre), sortedInput(r, []string{"ri"}, pre), []string{"li"}, []string{"ri"}, nil)
			j.LeftSorted, j.RightSorted = pre, pre
			rid := ref(j, "rid")
			agg := aggOf(j, []string{"lid"}, countStar(), sumOf(rid),
				sql.AggExpr{Func: sql.AggMin, Arg: rid, T: rid.Type()}, sql.AggExpr{Func: sql.AggMax, Arg: rid, T: rid.Type()})
			got, want := runBoth(t, agg)
			if d := diffResults(sorted(got), sorted(want)); d != "" {
				t.Fatalf("%v sorted=%v: %s", c, pre, d)
			}
		}
	}
}

// The merge-path kernels' parameter structs have Go's layout.
func TestMergePathParamLayout(t *testing.T) {
	d := needGPU(t)
	var got [3]int64
	err := d.do(func() error {
		out, err := d.pool.get(32)
		if err != nil {
			return err
		}
		defer d.pool.put(out)
		f, err := d.fn("mpj_param_sizes")
		if err != nil {
			return err
		}
		arg := uint64(out)
		if err := launch(f, 1, 1, 0, unsafe.Pointer(&arg), 8); err != nil {
			return err
		}
		return cu.MemcpyDtoH(unsafe.Pointer(&got[0]), out, 24)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [3]int64{int64(unsafe.Sizeof(mergePathParams{})), int64(unsafe.Sizeof(scanParams{})), int64(unsafe.Sizeof(expandParams{}))}
	if got != want {
		t.Errorf("kernel struct sizes %v, Go's %v", got, want)
	}
}

// The device scan (tile sums, one block over the sums, tiles rescanned)
// against a host prefix sum, at sizes around its 2048-row tile.
func TestMergePathScan(t *testing.T) {
	d := needGPU(t)
	for _, n := range []int64{1, 2047, 2048, 2049, 1 << 20, 3<<20 + 5} {
		vals := make([]int64, n)
		rng := rand.New(rand.NewPCG(uint64(n), 9))
		for i := range vals {
			vals[i] = rng.Int64N(5) * rng.Int64N(3) // zeros in runs, like unmatched rows
		}
		var got []int64
		var total int64
		err := d.do(func() error {
			q := d.newQueryRun()
			defer q.close()
			v, err := q.uploadKeys(vals)
			if err != nil {
				return err
			}
			if total, err = q.scanDevice(cu.DevicePtr(v.Data), n); err != nil {
				return err
			}
			got = make([]int64, n)
			return cu.MemcpyDtoH(unsafe.Pointer(&got[0]), cu.DevicePtr(v.Data), 8*n)
		})
		if err != nil {
			t.Fatal(err)
		}
		var run int64
		for i, v := range vals {
			if got[i] != run {
				t.Fatalf("n=%d: offset %d is %d, want %d", n, i, got[i], run)
			}
			run += v
		}
		if total != run {
			t.Fatalf("n=%d: total %d, want %d", n, total, run)
		}
	}
}

// TestMergePathPairs runs the merge-path join stage alone on sides sorted
// on the host, at sizes of millions of rows that the plan-level tests do
// not reach: one left row with a million partners, a million left rows
// with one partner key, 6M pairs of uniform duplicates, mostly unique keys;
// and with first set (semi / anti). Every (left row, right row) pair must
// be the one a host two-pointer merge of the same keys gives.
func TestMergePathPairs(t *testing.T) {
	d := needGPU(t)
	rng := rand.New(rand.NewPCG(8, 8))
	for _, c := range []struct {
		na, nb int
		domain int64 // keys uniform in [-domain/2, domain/2)
	}{{1, 1 << 20, 1}, {1 << 20, 1, 1}, {3 << 20, 2 << 20, 1 << 20}, {1<<20 + 3, 777777, 1 << 22}, {5000, 5000, 3}} {
		a, b := hostSortedKeys(rng, c.na, c.domain), hostSortedKeys(rng, c.nb, c.domain)
		ap, bp := rng.Perm(c.na), rng.Perm(c.nb) // row ids of the sorted positions
		for _, first := range []bool{false, true} {
			var gotL, gotR []int32
			err := d.do(func() error {
				q := d.newQueryRun()
				defer q.close()
				ls, err := q.uploadSide(a, ap)
				if err != nil {
					return err
				}
				rs, err := q.uploadSide(b, bp)
				if err != nil {
					return err
				}
				pr, err := q.mergePathPairs(ls, rs, 1, first)
				if err != nil {
					return err
				}
				gotL, gotR = make([]int32, pr.m), make([]int32, pr.m)
				if pr.m == 0 {
					return nil
				}
				if err := cu.MemcpyDtoH(unsafe.Pointer(&gotL[0]), pr.left, 4*pr.m); err != nil {
					return err
				}
				return cu.MemcpyDtoH(unsafe.Pointer(&gotR[0]), pr.right, 4*pr.m)
			})
			if err != nil {
				t.Fatal(err)
			}
			want := hostMergePairs(a, b, ap, bp, first)
			got := make([]uint64, len(gotL))
			for k := range got {
				got[k] = uint64(gotL[k])<<32 | uint64(uint32(gotR[k]))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%+v first=%v: %d pairs, want %d", c, first, len(got), len(want))
			}
		}
	}
}

func hostSortedKeys(rng *rand.Rand, n int, domain int64) []int64 {
	k := make([]int64, n)
	for i := range k {
		k[i] = rng.Int64N(domain) - domain/2
	}
	slices.Sort(k)
	return k
}

// hostMergePairs is every (row id, row id) pair of equal keys by a
// two-pointer merge (with first: the first right row of each run), sorted,
// each pair packed as left<<32 | right.
func hostMergePairs(a, b []int64, ap, bp []int, first bool) []uint64 {
	var out []uint64
	j := 0
	for i := range a {
		for j < len(b) && b[j] < a[i] {
			j++
		}
		for k := j; k < len(b) && b[k] == a[i]; k++ {
			out = append(out, uint64(ap[i])<<32|uint64(bp[k]))
			if first {
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// uploadSide puts keys (sorted) and the row id of each sorted position on
// the device as a sortedSide, keys encoded as sort_encode does.
func (r *queryRun) uploadSide(keys []int64, rows []int) (*sortedSide, error) {
	n := int64(len(keys))
	enc := make([]int64, n)
	perm := make([]int32, n)
	for i := range keys {
		enc[i] = keys[i] ^ -1<<63
		perm[i] = int32(rows[i])
	}
	kv, err := r.uploadKeys(enc)
	if err != nil {
		return nil, err
	}
	p, err := r.s.alloc(4 * max(n, 2))
	if err != nil {
		return nil, err
	}
	if n > 0 {
		if err := cu.MemcpyHtoD(p, unsafe.Pointer(&perm[0]), 4*n); err != nil {
			return nil, err
		}
	}
	s := &sortedSide{perm: p, n: n}
	s.keys[0] = kv.Data
	return s, nil
}
