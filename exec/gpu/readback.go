//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// Small results come back from the device through one pinned buffer per
// device, kept across queries: asynchronous copies into it run at pinned
// speed, several per synchronization (a compacted group table's count
// with its rows), without the driver staging a pageable copy each time.

// readbackBytes bounds the pinned buffer: a dense table up to it comes back
// through it, and the compact rows read back with their count in one
// synchronization (pinned memory kept per device for it); more rows take
// a second copy.
const readbackBytes = 1 << 20

// readDense copies n words back: through the pinned read-back buffer when
// they fit it (an asynchronous copy at pinned speed and one
// synchronization, instead of the driver staging a pageable copy), else
// straight into the result.
func (d *device) readDense(table cu.DevicePtr, n int64) ([]uint64, error) {
	host := make([]uint64, n)
	if 8*n > readbackBytes {
		if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), table, 8*n); err != nil {
			return nil, fmt.Errorf("gpu: star pipeline failed: %v", err)
		}
		return host, nil
	}
	buf, err := d.readback(8 * n)
	if err != nil {
		return nil, err
	}
	if err := cu.MemcpyDtoHAsync(buf, table, 8*n, cu.Stream{}); err != nil {
		return nil, fmt.Errorf("gpu: star pipeline failed: %v", err)
	}
	if err := d.sync(); err != nil {
		return nil, err
	}
	copy(host, unsafe.Slice((*uint64)(buf), n))
	return host, nil
}

// readCompact copies the compact rows' count (at total) and the first
// guess rows (at out, rows of W+1 words) into the device's pinned
// read-back buffer with one synchronization, then whatever rows the guess
// missed with a second copy, and returns the count and the rows.
func (d *device) readCompact(total, out cu.DevicePtr, W, guess int64) (int64, []uint64, error) {
	row := (W + 1) * 8
	guess = max(min(guess, (readbackBytes-8)/row), 0)
	buf, err := d.readback(8 + guess*row)
	if err != nil {
		return 0, nil, err
	}
	if err := cu.MemcpyDtoHAsync(buf, total, 8, cu.Stream{}); err != nil {
		return 0, nil, fmt.Errorf("gpu: group compaction failed: %v", err)
	}
	if guess > 0 {
		if err := cu.MemcpyDtoHAsync(unsafe.Add(buf, 8), out, guess*row, cu.Stream{}); err != nil {
			return 0, nil, fmt.Errorf("gpu: group compaction failed: %v", err)
		}
	}
	if err := d.sync(); err != nil {
		return 0, nil, err
	}
	m := *(*int64)(buf)
	words := make([]uint64, m*(W+1))
	have := min(m, guess)
	copy(words, unsafe.Slice((*uint64)(unsafe.Add(buf, 8)), have*(W+1)))
	if rest := m - have; rest > 0 {
		if err := cu.MemcpyDtoH(unsafe.Pointer(&words[have*(W+1)]), out+cu.DevicePtr(have*row), rest*row); err != nil {
			return 0, nil, fmt.Errorf("gpu: group compaction failed: %v", err)
		}
	}
	return m, words, nil
}

// readback returns the device's pinned, reused read-back buffer, grown to
// at least n bytes (n ≤ readbackBytes + 8): small results come back by
// asynchronous copies into it, several per synchronization, at pinned
// speed, without a page-locked staging step per copy.
func (d *device) readback(n int64) (unsafe.Pointer, error) {
	rb := &d.readbackBuf
	if rb.size < n {
		if rb.host != nil {
			if err := hostFree(rb.host); err != nil {
				return nil, err
			}
			rb.host, rb.size = nil, 0
		}
		size := max(n, 64<<10)
		p, _, err := hostAlloc(int(size))
		if err != nil {
			return nil, err
		}
		rb.host, rb.size = p, size
	}
	return rb.host, nil
}

// readbackBuf is a device's pinned read-back buffer (readback).
type readbackBuf struct {
	host unsafe.Pointer
	size int64
}
