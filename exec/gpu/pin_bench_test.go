//go:build cuda

package gpu

import (
	"testing"
	"unsafe"
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
