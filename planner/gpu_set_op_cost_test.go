package planner

import "testing"

// The set operation cost rules behave as gpu_set_op.go argues: hashing
// for few distinct rows and for tiny inputs (launches dominate), sorting
// for INTERSECT / EXCEPT with many distinct rows and for DISTINCT over
// sorted rows, on both built-in profiles.
func TestSetOpCostRules(t *testing.T) {
	keys := func(rows, groups float64, cols int) RowKeyStats {
		ks := RowKeyStats{Rows: rows, Groups: groups}
		for range cols {
			ks.SortBytes = append(ks.SortBytes, 4)
			ks.Nullable = append(ks.Nullable, false)
		}
		return ks
	}
	for _, name := range GPUProfileNames() {
		prof, err := LookupGPUProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what           string
			ks             RowKeyStats
			counts, sorted bool
			want           SetAlgorithm
		}{
			{"DISTINCT, 100 groups of 64M rows", keys(64e6, 100, 1), false, false, SetHash},
			{"DISTINCT, 1000 groups of 1M rows, 3 columns", keys(1e6, 1000, 3), false, false, SetHash},
			{"INTERSECT of 10 rows", keys(10, 10, 1), true, false, SetHash},
			{"INTERSECT, 80M distinct of 80M rows", keys(80e6, 80e6, 1), true, false, SetSort},
			{"EXCEPT ALL, 16M distinct of 16M rows", keys(16e6, 16e6, 1), true, false, SetSort},
			{"DISTINCT over sorted rows, 1M", keys(1e6, 1e6, 2), false, true, SetSort},
			{"DISTINCT over sorted rows, 100 groups of 64M", keys(64e6, 100, 1), false, true, SetSort},
		} {
			hash, sorting := hashSetSeconds(c.ks, c.counts, prof), sortSetSeconds(c.ks, c.counts, c.sorted, c.sorted, prof)
			got := SetHash
			if sorting < hash {
				got = SetSort
			}
			if got != c.want {
				t.Errorf("%s, %s: %s (sort %s, hash %s), want %s", name, c.what, got, fmtSeconds(sorting), fmtSeconds(hash), c.want)
			}
		}
	}
}
