//go:build cuda

package gpu

import (
	"math/bits"
	"strconv"
	"strings"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/storage/columnar"
)

// A warm star query over a clustered fact table finds the same live
// chunks every run: the key intervals come with its cached dimension
// builds. Computing the bitmap (a test per chunk and dimension) and
// copying it to the device each run cost tens of microseconds of host
// time, as much as the kernel saves on a small query, so a device keeps
// the bitmaps it made, keyed by what decides them: the fact key columns,
// the builds (their cache keys) and the plan's own zone skips.

// zoneBitmap is a live-chunk bitmap on the device and how many chunks it
// leaves.
type zoneBitmap struct {
	ptr  cu.DevicePtr
	live int
	// keep holds the columns whose addresses are part of the key, so that
	// they are not reused while the bitmap is kept.
	keep []*columnar.Column
}

// zoneCache holds a device's bitmaps; past maxZoneBitmaps it starts over.
type zoneCache struct {
	m map[string]*zoneBitmap
}

const maxZoneBitmaps = 64

// zoneBitsKey is the cache key of q's bitmap ("" when a zone dimension's
// build is not cached: its interval was found now, on a cold run) and the
// columns to keep alive with it.
func zoneBitsKey(q *starQuery, dims []*dimRun) (string, []*columnar.Column) {
	var b strings.Builder
	var keep []*columnar.Column
	for _, i := range q.zoneDims {
		built := dims[i].cached
		if built == nil {
			return "", nil
		}
		keep = append(keep, built.cols...)
	}
	t := q.fact.Table
	for _, i := range q.zoneDims {
		c := t.Columns[q.dims[i].probe.col]
		keep = append(keep, c)
		b.WriteString(dims[i].cached.key)
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(uint64(uintptr(unsafe.Pointer(c))), 16))
		b.WriteByte(0)
	}
	for _, s := range q.zoneSkips {
		if s {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String(), keep
}

func (c *zoneCache) get(key string) *zoneBitmap {
	if key == "" {
		return nil
	}
	return c.m[key]
}

// add uploads words as key's bitmap, in memory the cache owns.
func (c *zoneCache) add(d *device, key string, keep []*columnar.Column, words []uint32) (cu.DevicePtr, error) {
	if c.m == nil || len(c.m) >= maxZoneBitmaps {
		c.clear(d)
	}
	p, err := d.pool.get(int64(4 * max(len(words), 1)))
	if err != nil {
		return 0, err
	}
	if err := cu.MemcpyHtoD(p, unsafe.Pointer(&words[0]), int64(4*len(words))); err != nil {
		d.pool.put(p)
		return 0, err
	}
	live := 0
	for _, w := range words {
		live += bits.OnesCount32(w)
	}
	c.m[key] = &zoneBitmap{ptr: p, live: live, keep: keep}
	return p, nil
}

// allLive remembers that key's intervals leave every chunk (no bitmap).
func (c *zoneCache) allLive(d *device, key string, keep []*columnar.Column) {
	if key == "" {
		return
	}
	if c.m == nil || len(c.m) >= maxZoneBitmaps {
		c.clear(d)
	}
	c.m[key] = &zoneBitmap{keep: keep}
}

// clear returns every bitmap's memory to the pool.
func (c *zoneCache) clear(d *device) {
	for _, zb := range c.m {
		if zb.ptr != 0 {
			d.pool.put(zb.ptr)
		}
	}
	c.m = map[string]*zoneBitmap{}
}
