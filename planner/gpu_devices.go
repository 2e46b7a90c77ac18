package planner

import (
	"fmt"
	"strings"
)

// A star over several GPUs (issue 18): the fact table is cut into row
// ranges, one per device; each device builds the dimensions itself (they
// are small and every device needs all of them), runs the fused kernel
// over its range into its own group table, and the host adds the tables
// up (they share one layout: the group index comes from the dimensions'
// and the fact group columns' statistics, the same on every device). The
// host tail (ORDER BY, LIMIT, HAVING) runs once over the merged result.
// The planner splits when the scan time saved beats the per-device fixed
// cost; every other plan runs whole on one device, the least busy.

// GPUSplit is a star's fact table cut over devices: Ranges[k] are the rows
// Devices[k] scans.
type GPUSplit struct {
	Devices []int
	Ranges  []RowRange
}

// RowRange is rows [Lo, Hi) of a table.
type RowRange struct{ Lo, Hi int64 }

const (
	// gpuSplitAlign keeps every range start a multiple of the validity
	// bitmap's 64-row words and of the kernels' 16-byte vector loads.
	gpuSplitAlign = 4096
	// gpuDeviceFixedMs is what one more device costs a query whatever its
	// size: a launch sequence, a synchronization and the copy of its group
	// table back, then its share of the host merge. On two H100s at SSB
	// SF 10 a split query spent about 0.1 ms more host time than a whole
	// one, but the scan estimate below counts bytes only and misses the
	// probes' time, and with this value splitting all 13 queries won in
	// total (5.63 against 6.67 ms); a larger one would keep Q1.x and Q3.x
	// whole and lose 0.14 ms over them.
	gpuDeviceFixedMs = 0.05
)

// planSplit cuts g's star over the profile's devices when that pays, and
// says nothing (nil) otherwise.
func planSplit(g *GPUPlan, prof *GPUProfile) *GPUSplit {
	n := len(prof.Devices)
	if g.Star == nil || n < 2 || g.Refused != "" || splitRefusal(g.Star) != "" {
		return nil
	}
	rows := int64(g.Star.Fact.Table.Rows)
	if !prof.ForceSplit {
		saved := float64(rows) * float64(factBytesPerRow(g.Star)) / (prof.HBMGBs * 1e6) * (1 - 1/float64(n))
		if saved <= gpuDeviceFixedMs*float64(n) {
			return nil
		}
	}
	s := &GPUSplit{Devices: append([]int(nil), prof.Devices...)}
	per := (rows/int64(n) + gpuSplitAlign - 1) / gpuSplitAlign * gpuSplitAlign
	for k := range n {
		lo := min(int64(k)*per, rows)
		hi := min(lo+per, rows)
		if k == n-1 {
			hi = rows
		}
		s.Ranges = append(s.Ranges, RowRange{lo, hi})
	}
	return s
}

// splitRefusal says why a star cannot be split ("" when it can): the
// group index of a fact group column comes from its statistics' range on
// every device, and remapped payloads are indexed by row of the whole
// fact table.
func splitRefusal(s *GPUStar) string {
	for _, c := range s.FactGroupCols {
		if _, _, ok := intRange(s.Fact.Table, c); !ok {
			return fmt.Sprintf("group column %s has no statistics range", s.Fact.Table.Fields[c].Name)
		}
	}
	for _, d := range s.Dims {
		if d.Payload.Layout == PayloadSharedRemapped {
			return "a dimension payload is read through a remapped fact column"
		}
	}
	if s.Groups.Layout == GroupSharedRemapped {
		return "the group table is laid out by a remapped fact column"
	}
	return ""
}

// factBytesPerRow is what the fused kernel reads of a fact row at most, at
// device width.
func factBytesPerRow(s *GPUStar) int64 {
	t := s.Fact.Table
	if t.Rows == 0 {
		return 0
	}
	var b int64
	for _, c := range s.Fact.Columns {
		b += deviceBytes(t, c) / int64(t.Rows)
	}
	return b
}

// largestPart is the most rows one device of the split scans (all rows
// without a split).
func (s *GPUSplit) largestPart(rows int64) int64 {
	if s == nil {
		return rows
	}
	m := int64(0)
	for _, r := range s.Ranges {
		m = max(m, r.Hi-r.Lo)
	}
	return m
}

// explainSplit prints the split, or the devices a plan may run on.
func explainSplit(sb *strings.Builder, g *GPUPlan) {
	s := g.Split
	if s == nil && g.Shape == GPUEpsilonShape && len(g.Devices) > 1 {
		fmt.Fprintf(sb, "  devices: ε-join batches round-robin over GPUs %s, each holding the grid\n", deviceList(g.Devices))
		return
	}
	if s == nil {
		if len(g.Devices) > 1 {
			fmt.Fprintf(sb, "  devices: one of %s (the least busy); not split\n", deviceList(g.Devices))
		}
		return
	}
	parts := make([]string, len(s.Ranges))
	for k, r := range s.Ranges {
		parts[k] = fmt.Sprintf("GPU %d rows [%d, %d)", s.Devices[k], r.Lo, r.Hi)
	}
	fmt.Fprintf(sb, "  split over %d GPUs: %s of %s; dimensions built on each; group tables merged on the host\n",
		len(s.Devices), strings.Join(parts, ", "), g.Star.Fact.Table.Name)
}

func deviceList(ids []int) string {
	parts := make([]string, len(ids))
	for i, d := range ids {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, ", ")
}
