package planner

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Where each base-table column the GPU reads lives is a plan decision
// (issue 13), made here by cost from the columns' sizes, the profile's
// HBM and PCIe bandwidths and the device memory budget (--gpu-memory,
// SET gpu_memory), shown by EXPLAIN and obeyed by exec/gpu:
//
//   - resident: copied once into the device column cache and read at HBM
//     bandwidth by this query and later ones. Preferred while the
//     columns fit the budget beside the query's working tables: a later
//     query reads them some 50 times faster than across PCIe.
//   - streamed: the star pipeline's fact columns cut into chunks, copied
//     into double/triple-buffered device buffers on several streams while
//     earlier chunks run through the fused kernel, in the smallest width
//     that holds their values (dictionary codes often 1 or 2 bytes), so
//     the effective input rate can pass the link's.
//   - zero-copy: read in place from pinned host memory over unified
//     virtual addressing (Kaldewey et al.: ~98% of the PCIe rate for
//     sequential reads), no device memory; for the columns of plans that
//     do not stream.
//
// Off-device columns are chosen among the fact table's first (the kernels
// read them sequentially, which is what streaming and zero-copy do at the
// link's full rate), those that cost the least link time per device byte
// they free first (a column of 1-byte codes kept in 4 bytes on the device
// streams in a quarter of the time per byte freed), larger first among
// equals; then the others', largest first; until the rest fit.

// GPUColumn is where one base-table column the GPU reads lives during the
// query.
type GPUColumn struct {
	Table  string
	Column string
	// Col is the column itself: the executor's key.
	Col *columnar.Column
	// Fact: a column of the star pipeline's fact table.
	Fact bool
	// Bytes is the column's size on the device when resident; HostBytes
	// what zero-copy reads of it.
	Bytes, HostBytes int64
	Place            ColumnPlace
	// WireWidth is the bytes per value a streamed column is sent in: 1, 2
	// or 4 when its values fit that signed width, else 8.
	WireWidth int
	// Min and Max bound the values (statistics; HasRange false when the
	// column has none): the executor sizes kernels over a streamed column
	// from them without reading it first.
	Min, Max int64
	HasRange bool
	// Packing, on a resident fact column of a star, is its bit-packed
	// form (gpu_packing.go); Bytes is then the packed size and
	// UnpackedBytes the 4-byte form's, unless the column is only sent
	// packed (Packing.Transfer): it then lives on the device in its
	// 4-byte form, Bytes, and crosses the link in Packing.Bytes.
	Packing *GPUPacking
	// Narrow, on a resident fact column of a star, is its 1- or 2-byte
	// device form (gpu_narrow.go): Bytes is then its size, UnpackedBytes
	// the 4-byte form's (a column sent packed is narrowed on arrival).
	Narrow        *GPUNarrow
	UnpackedBytes int64
	// narrowable is the narrow form placement may give the column when
	// the 4-byte forms do not fit (gpu_narrow.go).
	narrowable *GPUNarrow
}

// ColumnPlace is where a column lives for the GPU.
type ColumnPlace string

const (
	PlaceResident ColumnPlace = "resident"
	PlaceZeroCopy ColumnPlace = "zero-copy"
	PlaceStreamed ColumnPlace = "streamed"
)

// GPUMemoryPlan is the plan's device memory: the budget it was made for,
// what its working tables and resident columns take, the chunk buffers of
// a streamed fact table, and NoFit when nothing fits.
type GPUMemoryPlan struct {
	Budget   int64
	Working  int64
	Resident int64
	Stream   *GPUStreaming
	// NoFit says why no placement fits the budget (the executor stops
	// with it: the CPU is never used in the GPU's place silently).
	NoFit string
}

// GPUStreaming shapes a streamed fact table: chunks of ChunkRows rows (a
// multiple of 64, so a chunk's validity bits start on a word), one device
// buffer per stream and streamed column.
type GPUStreaming struct {
	ChunkRows   int64
	Streams     int
	BufferBytes int64
}

// Streaming defaults: 3 streams (one chunk copying, one running, one
// queued: triple buffering), chunks of 4 M rows (16 MB of a 4-byte column:
// long enough that a copy's ~10 µs setup is noise at 55 GB/s).
const (
	// GPUMaxLaunchRows bounds the rows of one kernel launch over the fact
	// table (exec/gpu refuses more): longer fact tables stream.
	GPUMaxLaunchRows = 1 << 31
	GPUStreams       = 3
	GPUChunkRows     = 4 << 20
	gpuMinChunkRows  = 64
	defaultBudgetPct = 0.75
)

// Budget is the device memory plans for this profile may use: the
// MemoryBudget set by --gpu-memory, else 75% of the device memory (the
// device's profile sets it from the free memory at start-up).
func (p *GPUProfile) Budget() int64 {
	if p.MemoryBudget > 0 {
		return p.MemoryBudget
	}
	return int64(defaultBudgetPct * float64(p.GlobalMemory))
}

// planColumns places the columns g.Body reads (see the top of this file)
// and fills g.Memory.
func planColumns(g *GPUPlan, prof *GPUProfile) []GPUColumn {
	cols := gpuColumns(g)
	packCandidates(g, cols, prof)
	defer unpackOffDevice(cols)
	if g.Split != nil {
		// Each device holds its range of the fact table.
		rows := int64(g.Star.Fact.Table.Rows)
		part := g.Split.largestPart(rows)
		for i := range cols {
			if cols[i].Fact && rows > 0 {
				cols[i].Bytes = cols[i].Bytes / rows * part
			}
		}
	}
	m := &g.Memory
	m.Budget = prof.Budget()
	var op string
	var opBytes int64
	m.Working, op, opBytes = workingBytes(g)
	if m.Working > m.Budget {
		m.NoFit = fmt.Sprintf("the plan's working tables need %s of device memory (the largest: %s, %s), more than the GPU memory budget of %s (raise --gpu-memory or SET gpu_memory)",
			fmtBytes(m.Working), op, fmtBytes(opBytes), fmtBytes(m.Budget))
		return cols
	}
	avail := m.Budget - m.Working
	if f := prof.ForcePlace; f == PlaceZeroCopy || f == PlaceStreamed && g.Star != nil {
		for i := range cols {
			if f == PlaceZeroCopy || cols[i].Fact {
				cols[i].Place = f
			}
		}
	}
	if g.Star != nil && g.Split.largestPart(int64(g.Star.Fact.Table.Rows)) >= GPUMaxLaunchRows {
		// One launch of the fused kernel covers fewer rows (32-bit tile
		// counts): a fact table this long runs in chunks whatever fits.
		for i := range cols {
			if cols[i].Fact {
				cols[i].Place = PlaceStreamed
			}
		}
	}
	if prof.ForceNarrow {
		narrowResident(cols)
	}
	order := evictionOrder(cols)
	for i := 0; ; i++ {
		m.Resident, m.Stream = 0, nil
		var wire int64
		streams := slices.ContainsFunc(cols, func(c GPUColumn) bool { return c.Place == PlaceStreamed })
		for _, c := range cols {
			switch c.Place {
			case PlaceResident:
				m.Resident += residentBytes(c, streams)
			case PlaceStreamed:
				wire += int64(c.WireWidth)
			}
			if c.Place != PlaceResident && c.Col.Valid != nil {
				m.Resident += validityBytes(c.Col) // bitmaps stay on the device
			}
		}
		if wire > 0 {
			m.Stream = chunking(avail-m.Resident, wire)
		}
		if m.Resident <= avail && (m.Stream == nil || m.Stream.BufferBytes <= avail-m.Resident) {
			return cols
		}
		if narrowResident(cols) {
			i-- // the narrow forms first; then, if still too big, evictions
			continue
		}
		if i == len(order) {
			m.NoFit = fmt.Sprintf("the columns read need %s of device memory even streamed, more than the GPU memory budget of %s less %s of working tables (raise --gpu-memory or SET gpu_memory)",
				fmtBytes(m.Resident+streamBytes(m.Stream)), fmtBytes(m.Budget), fmtBytes(m.Working))
			return cols
		}
		if c := &cols[order[i]]; c.Place == PlaceResident {
			c.Place = offDevicePlace(c, g.Star != nil, prof)
		}
	}
}

func streamBytes(s *GPUStreaming) int64 {
	if s == nil {
		return 0
	}
	return s.BufferBytes
}

// gpuColumns lists the base-table columns body reads, all resident, with
// their sizes, widths and ranges.
func gpuColumns(g *GPUPlan) []GPUColumn {
	var cols []GPUColumn
	seen := map[*columnar.Column]bool{}
	Walk(g.Body, func(n Node) {
		s, ok := n.(*TableScan)
		if !ok {
			return
		}
		for _, c := range s.Columns {
			col := s.Table.Columns[c]
			if seen[col] {
				continue
			}
			seen[col] = true
			gc := GPUColumn{Table: s.Table.Name, Column: s.Table.Fields[c].Name, Col: col,
				Fact: g.Star != nil && s.Table == g.Star.Fact.Table, Bytes: deviceBytes(s.Table, c),
				HostBytes: int64(len(col.Data())), Place: PlaceResident, WireWidth: 8}
			gc.Min, gc.Max, gc.HasRange = intRange(s.Table, c)
			if s.Table.Fields[c].Type.Physical() != columnar.PhysFloat64 {
				gc.WireWidth = wireWidth(gc.Min, gc.Max, gc.HasRange)
			}
			cols = append(cols, gc)
		}
	})
	return cols
}

// wireWidth is the smallest signed width holding [lo, hi].
func wireWidth(lo, hi int64, ok bool) int {
	switch {
	case !ok:
		return 1 // no non-NULL values
	case lo >= math.MinInt8 && hi <= math.MaxInt8:
		return 1
	case lo >= math.MinInt16 && hi <= math.MaxInt16:
		return 2
	case lo >= math.MinInt32 && hi <= math.MaxInt32:
		return 4
	}
	return 8
}

// evictionOrder lists cols in the order they leave the device: the fact
// table's by link bytes per device byte, then larger first; then the
// others' largest first.
func evictionOrder(cols []GPUColumn) []int {
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := cols[order[a]], cols[order[b]]
		if x.Fact != y.Fact {
			return x.Fact
		}
		if rx, ry := linkPerDeviceByte(x), linkPerDeviceByte(y); x.Fact && rx != ry {
			return rx < ry
		}
		return x.Bytes > y.Bytes
	})
	return order
}

// linkPerDeviceByte is the bytes a streamed column sends per byte of
// device memory it frees.
func linkPerDeviceByte(c GPUColumn) float64 {
	if c.Bytes == 0 {
		return 0
	}
	return float64(c.WireWidth) * float64(c.Col.Len) / float64(c.Bytes)
}

// offDevicePlace is the cheaper way to read a column that does not stay
// resident: streamed (its wire bytes at the pinned copy rate) or zero-copy
// (its host bytes at the zero-copy read rate). Only a star pipeline's fact
// columns stream (the chunked launch is the fused kernel's).
func offDevicePlace(c *GPUColumn, star bool, prof *GPUProfile) ColumnPlace {
	if prof.ForcePlace != "" && prof.ForcePlace != PlaceResident && (c.Fact || prof.ForcePlace == PlaceZeroCopy) {
		return prof.ForcePlace
	}
	if !star || !c.Fact {
		return PlaceZeroCopy
	}
	rows := float64(c.Col.Len)
	streamed := rows * float64(c.WireWidth) / prof.PinnedCopyGBs
	zeroCopy := float64(c.HostBytes) / prof.ZeroCopyGBs
	if streamed <= zeroCopy {
		return PlaceStreamed
	}
	return PlaceZeroCopy
}

// chunking sizes the chunk buffers of wire bytes per row into free bytes:
// the default chunk when it fits, else the largest multiple of 64 rows
// that does (at least 64).
func chunking(free, wire int64) *GPUStreaming {
	s := &GPUStreaming{Streams: GPUStreams, ChunkRows: GPUChunkRows}
	if fit := free / (int64(s.Streams) * wire) / 64 * 64; fit < s.ChunkRows {
		s.ChunkRows = max(fit, gpuMinChunkRows)
	}
	s.BufferBytes = int64(s.Streams) * s.ChunkRows * wire
	return s
}

func validityBytes(c *columnar.Column) int64 { return 8 * int64(len(c.Valid)) }

// workingBytes estimates the device memory the plan's own tables take
// beside its columns, and names the largest: for a star, the group table,
// each dimension's join table (a slot of 8 bytes per key in its range, or
// twice its rows hashed) with its flags, and the expression VM's results
// over the fact table (a flag byte a row per multi-column predicate, 8
// bytes and a validity bit a row per computed aggregate argument), which
// stay whole on the device even when the fact table streams. Other
// shapes' intermediate relations are sized by the executor as they run.
func workingBytes(g *GPUPlan) (total int64, largest string, largestBytes int64) {
	if g.Star == nil {
		return opsWorkingBytes(g)
	}
	q := g.Star
	total = q.Groups.deviceBytes(int64(q.Fact.Table.Rows))
	biggest, name := total, fmt.Sprintf("the group table of %s (%d groups)", opName(q.Aggregate), q.Groups.EstGroups)
	for _, d := range q.Dims {
		t := d.Scan.Table
		b := 16 * int64(t.Rows)
		if lo, hi, ok := intRange(t, d.Key); ok && hi-lo < 4*int64(t.Rows)+64 {
			b = 8*(hi-lo+1) + 8*int64(t.Rows)
		}
		total += b
		if b > biggest {
			biggest, name = b, fmt.Sprintf("the join table of %s over %s (%d rows)", opName(d.Join), t.Name, t.Rows)
		}
		total += remapBytes(d.Payload)
	}
	total += groupRemapBytes(q.Groups)
	rows := int64(q.Fact.Table.Rows)
	var vm int64
	for _, x := range q.ExprPreds {
		if x.Scan == q.Fact {
			vm += rows
		}
	}
	exprs := map[sql.Expr]bool{}
	for _, a := range q.Aggs {
		if a.Expr != nil && !exprs[a.Expr] {
			exprs[a.Expr] = true
			vm += 8*rows + (rows+63)/64*8
		}
	}
	total += vm
	if vm > biggest {
		biggest, name = vm, fmt.Sprintf("the expression results of %s over %s (%d rows)", opName(q.Aggregate), q.Fact.Table.Name, rows)
	}
	return total, name, biggest
}

// opsWorkingBytes is, for an operator-at-a-time body, the largest global
// hash table of its hash joins (they run one after another): twice the
// estimated build rows, 16 bytes a slot (an 8-byte normalized key and a
// row number). Intermediate relations are sized as they run.
func opsWorkingBytes(g *GPUPlan) (int64, string, int64) {
	var most int64
	var name string
	for _, op := range g.Ops {
		j, ok := op.Node.(*HashJoin)
		if !ok || j.Strategy == Bitmap || j.Strategy == BucketedBitmap {
			continue
		}
		build := j.Right
		if j.Kind == sql.JoinInner && j.BuildSide == BuildLeft {
			build = j.Left
		}
		rows := build.Props().EstRows
		b := int64(min(32*rows, math.MaxInt64/2))
		if jp := g.JoinPasses[j]; jp != nil {
			b = jp.FixedBytes + jp.PassBytes // partitioned: one pass at a time
		}
		if b > most {
			most, name = b, fmt.Sprintf("the hash table of %s (est %.0f build rows)", opName(j), rows)
		}
	}
	return most, name, most
}

// deviceBytes is a column's size on the device: 4 bytes a value for
// 32-bit types and integers whose values fit 32 bits (the cache narrows
// them), else 8.
func deviceBytes(t *columnar.Table, c int) int64 {
	w := int64(8)
	if t.Fields[c].Type.Physical() == columnar.PhysInt32 {
		w = 4
	} else if t.Fields[c].Type.Physical() != columnar.PhysFloat64 {
		if lo, hi, ok := intRange(t, c); ok && lo >= math.MinInt32 && hi <= math.MaxInt32 {
			w = 4
		}
	}
	return w * int64(t.Rows)
}
