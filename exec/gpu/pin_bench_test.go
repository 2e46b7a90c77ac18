//go:build cuda

package gpu

import (
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// BenchmarkPinning compares the two ways to get pinned, device-mapped
// host memory for a packed copy of 128 MiB: cuMemHostAlloc (hostAlloc),
// and memory reserved, written (as packing writes it) and then registered
// (hostReserve, hostRegister), the way packed copies take theirs.
//
//	exec_gpu.test -test.run '^$' -test.bench Pinning -test.benchtime 5x
func BenchmarkPinning(b *testing.B) {
	d := needGPU(b)
	const n = 128 << 20
	b.Run("hostAlloc", func(b *testing.B) {
		for b.Loop() {
			d.do(func() error {
				h, _, err := hostAlloc(n)
				if err != nil {
					b.Fatal(err)
				}
				return hostFree(h)
			})
		}
	})
	src := make([]byte, n)
	b.Run("reserve+write+register", func(b *testing.B) {
		for b.Loop() {
			d.do(func() error {
				p, err := hostReserve(n)
				if err != nil {
					b.Fatal(err)
				}
				parallelCopy(unsafe.Slice((*byte)(p), n), src)
				if err := hostRegister(p, n); err != nil {
					b.Fatal(err)
				}
				hostRelease(p, true)
				return nil
			})
		}
	})
}

// BenchmarkHostToDevice measures the link's copy rate from the two kinds
// of pinned memory: cuMemHostAlloc's and memory registered after it was
// written (packed copies), 128 MiB on a non-blocking stream.
//
//	exec_gpu.test -test.run '^$' -test.bench HostToDevice -test.benchtime 10x
func BenchmarkHostToDevice(b *testing.B) { benchCopies(b, 1) }

// BenchmarkHostToDeviceRotating is BenchmarkHostToDevice over eight
// buffers of 128 MiB copied in turn, as a bench's cold runs copy many
// columns' host copies, each once: a rate below the single buffer's would
// point at the cost of translating the pages of a buffer not copied
// lately (the DMA's address translation), not at the link. Measured on
// the device tool's H100: 54.7 GB/s (cuMemHostAlloc) and 53.9 GB/s
// (registered), as one buffer's.
//
//	exec_gpu.test -test.run '^$' -test.bench HostToDeviceRotating -test.benchtime 32x
func BenchmarkHostToDeviceRotating(b *testing.B) { benchCopies(b, 8) }

// benchCopies copies k pinned buffers of 128 MiB of each kind to the device
// in turn, one copy an iteration, and reports the rate.
func benchCopies(b *testing.B, k int) {
	d := needGPU(b)
	const n = 128 << 20
	rotate := func(b *testing.B, bufs []unsafe.Pointer) {
		d.do(func() error {
			dst, err := cu.MemAlloc(n)
			if err != nil {
				b.Fatal(err)
			}
			defer cu.MemFree(dst)
			st, err := d.copyStream()
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				if err := cu.MemcpyHtoDAsync(dst, bufs[i%k], n, st); err != nil {
					b.Fatal(err)
				}
				if err := st.Synchronize(); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			return nil
		})
	}
	b.Run("hostAlloc", func(b *testing.B) {
		bufs := make([]unsafe.Pointer, k)
		for i := range bufs {
			d.do(func() (err error) { bufs[i], _, err = hostAlloc(n); return err })
		}
		rotate(b, bufs)
		for _, h := range bufs {
			d.do(func() error { return hostFree(h) })
		}
	})
	b.Run("registered", func(b *testing.B) {
		bufs := registeredBuffers(b, d, k, n)
		rotate(b, bufs)
		releaseBuffers(d, bufs)
	})
}

// registeredBuffers is k buffers of n bytes reserved, written and
// registered as packed copies take theirs.
func registeredBuffers(b *testing.B, d *device, k, n int) []unsafe.Pointer {
	bufs := make([]unsafe.Pointer, k)
	for i := range bufs {
		p, err := hostReserve(n)
		if err != nil {
			b.Fatal(err)
		}
		parallelCopy(unsafe.Slice((*byte)(p), n), make([]byte, n))
		d.do(func() error { return hostRegister(p, n) })
		bufs[i] = p
	}
	return bufs
}

func releaseBuffers(d *device, bufs []unsafe.Pointer) {
	for _, p := range bufs {
		d.do(func() error { hostRelease(p, true); return nil })
	}
}

// BenchmarkHostToDeviceAfterZeroCopy times a copy of one registered 128
// MiB buffer made right after the device read seven others in place
// (zero-copy, as a cold query's in-place reads and loads behind do): a
// rate below BenchmarkHostToDevice's points at the DMA's address
// translation (the IOMMU's cache of page mappings) refilling for the
// buffer, not at the link. Logs the process's transparent huge pages.
// Measured on the device tool's H100: 54.4 GB/s, with the buffers on huge
// pages (1 GiB of them), as without the reads.
//
//	exec_gpu.test -test.run '^$' -test.bench AfterZeroCopy -test.benchtime 8x -test.v
func BenchmarkHostToDeviceAfterZeroCopy(b *testing.B) {
	d := needGPU(b)
	const n, k = 128 << 20, 8
	bufs := registeredBuffers(b, d, k, n)
	if rollup, err := os.ReadFile("/proc/self/smaps_rollup"); err == nil {
		for _, l := range strings.Split(string(rollup), "\n") {
			if strings.HasPrefix(l, "AnonHugePages") || strings.HasPrefix(l, "Rss") {
				b.Log(l)
			}
		}
	}
	d.do(func() error {
		dst, err := cu.MemAlloc(n)
		if err != nil {
			b.Fatal(err)
		}
		defer cu.MemFree(dst)
		var copied time.Duration
		for b.Loop() {
			for _, p := range bufs[1:] {
				dp, err := hostDevicePtr(p)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := d.cache.scan(dp, 4, 0, 0, n/4); err != nil {
					b.Fatal(err)
				}
			}
			start := time.Now()
			if err := cu.MemcpyHtoD(dst, bufs[0], n); err != nil {
				b.Fatal(err)
			}
			copied += time.Since(start)
		}
		b.ReportMetric(float64(n)*float64(b.N)/copied.Seconds()/1e9, "copy-GB/s")
		return nil
	})
	releaseBuffers(d, bufs)
}
