package planner

import (
	"fmt"
	"strings"
)

// explainGPU renders the GPU plan: the profile, how the body runs (for a
// star: which operators fuse into the kernel, each join's build structure
// in probe order, the group table's layout), where the tail runs and
// where each column lives.
func explainGPU(sb *strings.Builder, g *GPUPlan) {
	pr := g.Profile
	fmt.Fprintf(sb, "GPU plan (%s: %d SMs, %s shared memory per block, %s, %.0f GB/s):\n",
		pr.Name, pr.SMs, fmtBytes(pr.SharedPerBlock), fmtBytes(pr.GlobalMemory), pr.HBMGBs)
	if g.Refused != "" {
		fmt.Fprintf(sb, "  not on the GPU: %s\n", g.Refused)
		return
	}
	fmt.Fprintf(sb, "  %s: %s\n", opName(g.Body), g.Shape)
	if g.NotStar != "" {
		fmt.Fprintf(sb, "    not a star pipeline: %s\n", g.NotStar)
	}
	if s := g.Star; s != nil {
		explainStar(sb, s)
	}
	for _, op := range g.Ops {
		fmt.Fprintf(sb, "    %s: %s\n", opName(op.Node), op.How)
		if jp := g.JoinPasses[op.Node]; jp != nil {
			fmt.Fprintf(sb, "      %s\n", explainJoinPasses(jp))
		}
	}
	explainSplit(sb, g)
	if g.Shape == GPUEpsilonShape {
		return // no base column lives on the device; the grid is per query
	}
	if len(g.Tail) > 0 {
		names := make([]string, len(g.Tail))
		for i := range g.Tail {
			names[i] = opName(g.Tail[len(g.Tail)-1-i])
		}
		fmt.Fprintf(sb, "  then on the %s: %s\n", g.TailOn, strings.Join(names, " → "))
	}
	parts := make([]string, len(g.Columns))
	for i, c := range g.Columns {
		parts[i] = explainColumn(c)
	}
	label := "columns"
	if g.Split != nil {
		label = "columns (fact columns: each device's range)"
	}
	fmt.Fprintf(sb, "  %s: %s\n", label, strings.Join(parts, ", "))
	if g.Star != nil {
		var whole int64
		for _, c := range g.Columns {
			if c.Fact {
				whole += c.Bytes
			}
		}
		if x := explainFactReads(g.Star, whole); x != "" {
			fmt.Fprintf(sb, "  %s\n", x)
		}
	}
	explainMemory(sb, g)
}

// explainMemory prints the device memory plan when something does not
// stay resident (all-resident plans say so in their columns line).
func explainMemory(sb *strings.Builder, g *GPUPlan) {
	m := g.Memory
	off := m.NoFit != ""
	for _, c := range g.Columns {
		off = off || c.Place != PlaceResident
	}
	if !off {
		return
	}
	fmt.Fprintf(sb, "  device memory: budget %s, working tables %s, resident %s", fmtBytes(m.Budget), fmtBytes(m.Working), fmtBytes(m.Resident))
	if s := m.Stream; s != nil {
		fmt.Fprintf(sb, "; fact table streamed in chunks of %d rows on %d streams (buffers %s)", s.ChunkRows, s.Streams, fmtBytes(s.BufferBytes))
	}
	sb.WriteString("\n")
	if m.NoFit != "" {
		fmt.Fprintf(sb, "  does not fit: %s\n", m.NoFit)
	}
}

func explainStar(sb *strings.Builder, s *GPUStar) {
	for i, d := range s.Dims {
		var side []string
		Walk(d.Join.Children()[dimChild(d)], func(n Node) { side = append(side, opName(n)) })
		fmt.Fprintf(sb, "    build %d: %s %s.%s → %s (sel %.3g", i+1, strings.Join(side, " ← "),
			d.Scan.Table.Name, d.Scan.Table.Fields[d.Key].Name, d.Build, d.Sel)
		if d.Swapped {
			sb.WriteString(", the CPU plan builds the other side")
		}
		if d.AsFilter {
			fmt.Fprintf(sb, ", tested as a filter of %s.%s", s.Fact.Table.Name, s.Fact.Table.Fields[d.Probe.Col].Name)
		}
		sb.WriteString(")\n")
		if text := explainPayload(d.Payload, s.Fact.Table.Name); text != "" {
			fmt.Fprintf(sb, "      %s\n", text)
		}
	}
	path := []string{opName(s.Aggregate)}
	for n := s.Aggregate.Input; n != nil; n = factChild(n, s.Fact) {
		path = append(path, opName(n))
	}
	kernel := ""
	if s.Scan {
		kernel = fmt.Sprintf(" (star_scan: one group, %d rows a thread)", scanRowsPerThread)
	}
	fmt.Fprintf(sb, "    fused kernel: %s%s\n", strings.Join(path, " ← "), kernel)
	if s.Zones != nil {
		fmt.Fprintf(sb, "    %s\n", s.Zones)
	}
	if text := explainFactFilters(s); text != "" {
		fmt.Fprintf(sb, "    %s\n", text)
	}
	var probes []string
	for _, d := range s.Dims {
		if !d.AsFilter {
			probes = append(probes, fmt.Sprintf("%s (%s.%s)", opName(d.Join), s.Fact.Table.Name, s.Fact.Table.Fields[d.Probe.Col].Name))
		}
	}
	if len(probes) > 0 {
		fmt.Fprintf(sb, "    probe order: %s\n", strings.Join(probes, ", "))
	}
	g := s.Groups
	fmt.Fprintf(sb, "    group table: est %d groups × %d words, %s", g.EstGroups, g.Width, g.Layout)
	if g.Layout == GroupSharedReplicated {
		fmt.Fprintf(sb, " (%d replicas)", g.Replicas)
	}
	switch g.Layout {
	case GroupGlobal:
		fmt.Fprintf(sb, ", est %.2f same-word atomics per warp in L2 (uniform keys)", g.EstRounds)
	case GroupShared, GroupSharedReplicated:
		fmt.Fprintf(sb, ", est %.2f bank rounds per warp (uniform keys)", g.EstRounds)
	}
	if x := explainGroupRemap(g, s.Fact.Table.Name); x != "" {
		sb.WriteString(", " + x)
	}
	if g.Compact {
		fmt.Fprintf(sb, ", compacted on the device (est %d non-empty)", g.EstNonEmpty)
	}
	if len(s.Dims) > 0 && g.Layout != GroupRegisters {
		sb.WriteString("; chosen again on the groups that survive the dimension filters")
	}
	sb.WriteString("\n")
	if text := explainStarSort(s, s.Sort); text != "" {
		fmt.Fprintf(sb, "    %s\n", text)
	}
	if text := explainStarFinish(s); text != "" {
		fmt.Fprintf(sb, "    %s\n", text)
	}
}

// dimChild is the index of the join child that is d's dimension side.
func dimChild(d *GPUStarDim) int {
	if contains(d.Join.Left, d.Scan) {
		return 0
	}
	return 1
}

// factChild is the child of n on the path to the fact scan (nil at it).
func factChild(n Node, fact *TableScan) Node {
	for _, c := range n.Children() {
		if contains(c, fact) {
			return c
		}
	}
	return nil
}

func fmtBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.3g KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// fmtCount writes n with thousands separators (4,096).
func fmtCount(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// explainColumn is EXPLAIN's entry for one column: where it lives, its
// device bytes and form, and how it crosses the link when not whole.
func explainColumn(c GPUColumn) string {
	name := c.Table + "." + c.Column
	switch {
	case c.Place == PlaceStreamed:
		return fmt.Sprintf("%s %s (%s, sent as %d B a value)", name, c.Place, fmtBytes(c.Bytes), c.WireWidth)
	case c.Packing != nil && !c.Packing.Transfer:
		return fmt.Sprintf("%s %s packed %d bits (frame per %s rows, %s)", name, c.Place, c.Packing.Bits, fmtCount(1<<c.Packing.ChunkShift), fmtBytes(c.Bytes))
	}
	form := ""
	if n := c.Narrow; n != nil {
		form = fmt.Sprintf("; %d B a value, frame per %s rows", n.Width, fmtCount(1<<n.ChunkShift))
	}
	if c.Packing != nil {
		to := "unpacked"
		if c.Narrow != nil {
			to = "narrowed"
		}
		form += fmt.Sprintf("; sent packed %d bits, %s, %s on the device", c.Packing.Bits, fmtBytes(c.Packing.Bytes), to)
		if c.Packing.RunBytes > 0 && !c.Packing.ColdInPlace {
			form += fmt.Sprintf("; copied as runs of %d bits, est %s", c.Packing.Bits, fmtBytes(c.Packing.RunBytes))
		}
		if c.Packing.ColdInPlace {
			form += fmt.Sprintf("; read in place while not resident, est %s", fmtBytes(c.Packing.ColdBytes))
		}
		if c.Packing.CopyAhead {
			form += "; copied ahead of the dimension builds while not resident"
		}
	}
	return fmt.Sprintf("%s %s (%s%s)", name, c.Place, fmtBytes(c.Bytes), form)
}
