package planner

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
	count := map[int64]int{}
	for w := 0; w < warps; w++ {
		clear(count)
		worst := 0
		for lane := 0; lane < warp; lane++ {
			addr := next() * width
			key := addr
			if layout != GroupGlobal {
				addr += int64(lane%max(replicas, 1)) * stride
				key = addr % banks
			}
			count[key]++
			worst = max(worst, count[key])
		}
		total += worst
	}
	return float64(total) / warps
}
