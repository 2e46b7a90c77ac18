//go:build cuda

package gpu

import (
	"bytes"
	"testing"
	"unsafe"

	"gorgonia.org/cu"
)

// TestUploadSizes uploads buffers around store_words's limit and past it
// (the copy path), odd lengths included, and reads each back.
func TestUploadSizes(t *testing.T) {
	d := needGPU(t)
	for _, n := range []int{0, 1, 3, 4, 5, 255, 3999, 4000, 4001, 4003, 4004, 9000} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*7 + n)
		}
		err := d.do(func() error {
			r := d.newQueryRun()
			defer r.close()
			p, err := r.upload(src)
			if err != nil || n == 0 {
				return err
			}
			got := make([]byte, n)
			if err := cu.MemcpyDtoH(unsafe.Pointer(&got[0]), p, int64(n)); err != nil {
				return err
			}
			if !bytes.Equal(got, src) {
				t.Errorf("upload of %d bytes read back different bytes", n)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("upload of %d bytes: %v", n, err)
		}
	}
}
