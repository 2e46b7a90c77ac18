package gpu

import "math/bits"

// radixPlan says which 8-bit digits of the encoded keys a radix sort
// visits (kernels/radix_sort.cu): digits of key - sub at the given
// shifts, least significant first, as 4-byte words after the first pass
// when narrow (every key - sub fits 32 bits). Kept free of the cuda tag
// so that its arithmetic is tested on any machine.
type radixPlan struct {
	sub    uint64
	shifts []int32
	narrow bool
	base   uint64 // sorted keys written back are key - sub + base: the encoded keys
}

// planFromRange sorts keys in [lo, hi] by the digits of key - lo that
// can differ: ceil(log2(hi - lo + 1) / 8) passes, so codes, dates and
// small integers cost one to three whatever their magnitude, and 32-bit
// keys at most four.
func planFromRange(lo, hi uint64) radixPlan {
	if hi <= lo {
		return radixPlan{}
	}
	span := hi - lo
	p := radixPlan{sub: lo, narrow: span>>32 == 0, base: lo}
	for s := 0; s < bits.Len64(span); s += 8 {
		p.shifts = append(p.shifts, int32(s))
	}
	return p
}

// planFromMasks sorts keys whose bits AND to and and OR to or by the
// digits holding a bit that differs between keys (the set operations
// learn every column's masks in one copy): the bits above the highest
// differing one are equal in every key, so the keys fit 32 bits when
// those are all above bit 31.
func planFromMasks(and, or uint64) radixPlan {
	diff := and ^ or
	p := radixPlan{narrow: diff>>32 == 0}
	if p.narrow {
		p.base = and &^ (1<<32 - 1) // the bits every key shares above the 32 sorted
	}
	for s := 0; s < 64; s += 8 {
		if (diff>>s)&0xff != 0 {
			p.shifts = append(p.shifts, int32(s))
		}
	}
	return p
}

// bytesPerRow is the HBM traffic a one-key sort from the identity moves
// per row at device width under the plan (kernels/radix_sort.cu's bound):
// the encoder reads the 8 B key and writes 8 B; per pass the upsweep reads
// the keys, the downsweep reads keys and row ids (but on the first pass,
// which takes row i's id as i) and writes row ids and (but on the last
// pass, unless wantKeys) keys, and the digit counts (256 × 8 B per
// 4096-row tile) are written, scanned (read, read, written) and read:
// 2.5 B.
func (p radixPlan) bytesPerRow(wantKeys bool) float64 {
	b := 16.0
	wide := true
	for i := range p.shifts {
		kin, kout, vin := 4.0, 4.0, 4.0
		if wide {
			kin = 8
		}
		if !p.narrow {
			kout = 8
		}
		if i == 0 {
			vin = 0
		}
		if i == len(p.shifts)-1 {
			kout = 0
			if wantKeys {
				kout = 8
			}
		}
		b += 2*kin + vin + 4 + kout + 2.5
		wide = kout == 8
	}
	return b
}
