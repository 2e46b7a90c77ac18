package planner

import (
	"slices"
	"sync"
)

// estRounds estimates the serialization rounds per warp of the star
// kernel's group-table atomics (1 is conflict-free), for uniformly spread
// groups, by simulating 256 warps with a fixed seed: in shared memory a
// lane's atomic on word a of replica lane mod R waits for every other lane
// of its warp on the same bank (a mod Banks) — the replicas' odd stride
// puts one group's copies in different banks; in global memory only lanes
// on the same word serialize (in L2). Skewed keys serialize more, which
// the replica-remapped columns of Sitaridi and Ross address
// (storage/columnar/remap.go).
func estRounds(prof *GPUProfile, groups, width int64, layout GPUGroupLayout, replicas int) float64 {
	if layout == GroupRegisters || groups <= 0 {
		return 1
	}
	warp, banks := max(prof.WarpSize, 1), int64(max(prof.Banks, 1))
	k := roundsKey{groups, width, banks, layout, replicas, warp}
	if r, ok := roundsMemo.get(k); ok {
		return r
	}
	r := simulateRounds(groups, width, banks, layout, replicas, warp)
	roundsMemo.put(k, r)
	return r
}

// roundsKey is what estRounds's simulation depends on.
type roundsKey struct {
	groups, width, banks int64
	layout               GPUGroupLayout
	replicas, warp       int
}

// roundsMemo keeps estRounds's answers (the simulation costs about 0.1 ms,
// a good part of planning a star query); bounded, it starts over when full.
var roundsMemo = &memo[roundsKey, float64]{limit: 4096}

type memo[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]V
	limit int
}

func (c *memo[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.limit {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

// simulateRounds is estRounds's simulation of 256 warps.
func simulateRounds(groups, width, banks int64, layout GPUGroupLayout, replicas, warp int) float64 {
	stride := groups*width | 1
	seed := uint64(0x9E3779B97F4A7C15)
	next := func() int64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int64(seed % uint64(groups))
	}
	const warps = 256
	total := 0
	// A warp's lanes hit at most warp distinct keys: counted in a short
	// list (a map cost most of a plan's time here).
	keys, counts := make([]int64, 0, warp), make([]int, 0, warp)
	for w := 0; w < warps; w++ {
		keys, counts = keys[:0], counts[:0]
		worst := 0
		for lane := 0; lane < warp; lane++ {
			addr := next() * width
			key := addr
			if layout != GroupGlobal {
				addr += int64(lane%max(replicas, 1)) * stride
				key = addr % banks
			}
			i := slices.Index(keys, key)
			if i < 0 {
				keys, counts, i = append(keys, key), append(counts, 0), len(keys)
			}
			counts[i]++
			worst = max(worst, counts[i])
		}
		total += worst
	}
	return float64(total) / warps
}
