package planner

import (
	"slices"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Bit-packed fact columns (issue 17). The fused star kernel is bound by
// the bytes it reads, and a fact column's values usually need far fewer
// than the 32 bits the device form gives them: SSB's lo_discount 4 bits,
// lo_quantity 6, the keys 15 to 20. A resident fact column that the kernel
// reads directly (a predicate, a probe key, a group column, an aggregate
// argument) is kept on the device in the packed form of
// storage/columnar/packed.go: per 4,096 rows a frame of reference, each
// value its offset from the frame in b bits, decoded in registers by the
// kernel's tile loads (kernels/common.cuh, load_packed).
//
// b comes from the column's chunk statistics (the widest span of any
// statistics chunk; a packing chunk lies inside one), so the plan knows
// the bytes before the executor packs anything, and the executor packs
// with the plan's b (it fails, naming the rows, if the data disagree).
// A column is packed when that saves bytes (b < 32) and:
//   - it is resident and the fact table does not stream: streamed chunks
//     keep their 1/2/4-byte wire widths, zero-copy reads go to the host
//     copy, and a chunked launch moves resident views by any multiple of
//     64 rows, not of a frame's 4,096;
//   - the expression VM does not read it too (multi-column predicates,
//     computed aggregate arguments): the VM reads 4-byte values, and two
//     device forms of one column would double its bytes;
//   - it holds integers that fit 32 bits (not DOUBLE, not wide BIGINT);
//   - the star is not split over devices (a device's range starts
//     anywhere, so its chunks need not lie inside statistics chunks).
//
// SET gpu_packing = ON (--packing on, DSN packing=on) keeps them packed on
// the device. Measured on the H100 (README), the kernel that decodes them
// is bound by its instructions, not its bytes, and runs slower than over
// 4-byte columns, so that is not the default: SET gpu_packing = TRANSFER
// (the default) packs the same columns only for the trip over the link
// and unpacks them on the device into their 4-byte form
// (exec/gpu/column_unpack.go), which every operator reads as if it had
// been copied whole: a cold query moves b/32 of the bytes (SSB's
// lo_discount an eighth) and warm queries run the 4-byte kernels. The VM
// may then read the column too. OFF copies the 4-byte form.
// GPUProfile.Packing and PackTransfer carry the setting into the plan (and
// so into the plan cache's key).

// GPUPacking is a packed column's form: Bits a value, a frame per
// 2^ChunkShift rows; Transfer when it is only sent packed.
type GPUPacking struct {
	Bits       int
	ChunkShift int
	Transfer   bool
	// Bytes is the packed size (what crosses the link).
	Bytes int64
	// ColdInPlace, on a column sent packed, has a run that finds it not
	// yet on the device read its packed host copy in place, an estimated
	// ColdBytes over the link (gpu_cold_reads.go).
	ColdInPlace bool
	ColdBytes   int64
	// CopyAhead, on a column sent packed and copied when cold, has a run
	// that finds it not on the device start its copy before the
	// dimension builds, on a stream of its own (gpu_cold_reads.go).
	CopyAhead bool
	// RunBytes, when not 0, has a cold copy send the column's run-length
	// form, about RunBytes over the link, instead of its packed bytes
	// (gpu_runs.go); a read in place still reads the packed form.
	RunBytes int64
}

// CopyBytes is what a cold copy of the column moves over the link.
func (p *GPUPacking) CopyBytes() int64 {
	if p.RunBytes > 0 {
		return p.RunBytes
	}
	return p.Bytes
}

// packCandidates marks the star's fact columns the fused kernel reads
// directly with the bits they pack in, and gives them their packed size;
// under TRANSFER it also records the narrow form placement may give them
// (gpu_narrow.go).
func packCandidates(g *GPUPlan, cols []GPUColumn, prof *GPUProfile) {
	resident := prof.Packing || prof.ForcePacking && !prof.PackTransfer
	if g.Star == nil || g.Split != nil || !resident && !prof.PackTransfer {
		return // a split's ranges start anywhere, not on a statistics chunk
	}
	direct, viaVM := starFactReads(g.Star)
	t := g.Star.Fact.Table
	for i := range cols {
		c := &cols[i]
		ci := columnIndex(t, c.Col)
		if !c.Fact || ci < 0 || resident && (!direct[ci] || viaVM[c.Col]) || c.Bytes != 4*int64(t.Rows) {
			continue
		}
		if t.Fields[ci].Type.Physical() == columnar.PhysFloat64 || ci >= len(t.Stats) {
			continue
		}
		b, ok := columnar.PackBitsFromStats(t.Stats[ci], t.Rows)
		if !ok || b >= 32 && !prof.ForcePacking {
			continue
		}
		pk := &GPUPacking{Bits: b, ChunkShift: columnar.PackChunkShift, Transfer: !resident, Bytes: columnar.PackedBytes(t.Rows, b)}
		if !resident {
			pk.RunBytes = runTransferBytes(t, ci, b, pk.Bytes, prof)
		}
		if resident || prof.ForcePacking || transferSaves(c.Bytes, pk.CopyBytes()) {
			c.Packing = pk
		}
		if resident {
			c.UnpackedBytes, c.Bytes = c.Bytes, c.Packing.Bytes
		} else if direct[ci] && !viaVM[c.Col] {
			if n := narrowForm(t, ci); n != nil && narrowBytes(t.Rows, n) < c.Bytes {
				c.narrowable = n
			}
		}
	}
}

// transferSaves reports whether sending a column of plain bytes packed in
// packed bytes is worth it: an eighth of the bytes and 32 MiB saved at
// least. The first load of a column packs it and pins its host copy
// (measured on the H100: 10-35 ms a column at SSB SF 1 and 10, where a
// plain copy of an SF 1 column takes 3 ms), which only columns that save
// tens of megabytes a later cold load repay.
func transferSaves(plain, packed int64) bool {
	saved := plain - packed
	return saved*8 >= plain && saved >= 32<<20
}

// unpackOffDevice drops the packing and narrowing of columns placement
// moved off the device, and of every column when the fact table streams.
func unpackOffDevice(cols []GPUColumn) {
	streams := slices.ContainsFunc(cols, func(c GPUColumn) bool { return c.Place == PlaceStreamed })
	for i := range cols {
		c := &cols[i]
		if c.Place == PlaceResident && !streams {
			continue
		}
		if c.Packing != nil && !c.Packing.Transfer || c.Narrow != nil {
			c.Bytes, c.UnpackedBytes = c.UnpackedBytes, 0
		}
		c.Packing, c.Narrow, c.narrowable = nil, nil, nil
	}
}

// residentBytes is what resident column c takes on the device: its packed
// or narrow size, or its 4-byte size when the fact table streams (the chunked launch
// moves every fact column's view by the chunk's first row, which a packed
// column's frames allow only at multiples of 4,096 rows, and chunks are
// any multiple of 64).
func residentBytes(c GPUColumn, streams bool) int64 {
	if (c.Packing != nil && !c.Packing.Transfer || c.Narrow != nil) && streams {
		return c.UnpackedBytes
	}
	return c.Bytes
}

// starFactReads lists the fact columns the fused kernel reads directly and
// those the expression VM reads.
func starFactReads(s *GPUStar) (direct map[int]bool, viaVM map[*columnar.Column]bool) {
	direct, viaVM = map[int]bool{}, map[*columnar.Column]bool{}
	for sc := range s.ColumnPreds {
		if sc.Scan == s.Fact {
			direct[sc.Col] = true
		}
	}
	for _, d := range s.Dims {
		direct[d.Probe.Col] = true
	}
	for _, c := range s.FactGroupCols {
		direct[c] = true
	}
	vmExprs := []ScanExpr{}
	for _, x := range s.ExprPreds {
		if x.Scan == s.Fact {
			vmExprs = append(vmExprs, x)
		}
	}
	for _, a := range s.Aggs {
		if a.A >= 0 {
			direct[a.A] = true
		}
		if a.B >= 0 {
			direct[a.B] = true
		}
		if a.Expr != nil {
			vmExprs = append(vmExprs, ScanExpr{E: a.Expr, Node: s.Aggregate.Input, Scan: s.Fact})
		}
	}
	for _, x := range vmExprs {
		walkExpr(x.E, func(e sql.Expr) {
			if r, ok := e.(*sql.ColRef); ok {
				if col, ok := x.ColOf(r.Index); ok {
					viaVM[col] = true
				}
			}
		})
	}
	return direct, viaVM
}

func columnIndex(t *columnar.Table, col *columnar.Column) int {
	for i, c := range t.Columns {
		if c == col {
			return i
		}
	}
	return -1
}
