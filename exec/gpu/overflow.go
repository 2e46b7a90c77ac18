//go:build cuda

package gpu

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"
)

// errOverflow is returned for a query during which some kernel found an
// integer result outside int64 (an operator's BIGINT or decimal result, a
// SUM's partial total) or a DOUBLE operator's result past the largest
// double: the GPU never returns a wrapped or infinite value. It wraps
// ErrUnsupported, so `--executor auto` reruns the query on exec/cpu, which
// raises MySQL's "BIGINT value is out of range in '(a + b)'" naming the
// expression, or — where only a partial sum wrapped, or a CASE arm the
// row did not take, both of which the kernels cannot tell from a real
// overflow — returns the right answer (exec/cpu sums in 128 bits and
// evaluates only the CASE arm each row takes).
var errOverflow = fmt.Errorf("gpu: numeric overflow (a BIGINT or DOUBLE value is out of range) %w: exec/cpu names the expression", ErrUnsupported)

// overflowFlags points every loaded module's gpusql_overflow
// (kernels/common.cuh) at one word of pinned, device-mapped host memory.
// Kernels store 1 there over PCIe only when a value overflows; the host
// clears and reads the word without a driver call, which per-module
// device flags cost (a memset and a synchronous copy each, ~0.2 ms a
// query over a dozen modules).
func (d *device) overflowFlags() error {
	h, dp, err := hostAlloc(8)
	if err != nil {
		return fmt.Errorf("gpu: overflow flag: %v", err)
	}
	d.overflow = (*uint32)(h)
	for _, m := range d.modules {
		p, size, err := m.Global("gpusql_overflow")
		if err != nil || size != 8 {
			continue // a module without integer arithmetic
		}
		ptr := uint64(dp)
		if err := cu.MemcpyHtoD(p, unsafe.Pointer(&ptr), 8); err != nil {
			return fmt.Errorf("gpu: setting the overflow flag's address: %v", err)
		}
	}
	return nil
}

// clearOverflow zeroes the flag before a query; no kernel of the device's
// is running (d.do holds the device).
func (d *device) clearOverflow() { atomic.StoreUint32(d.overflow, 0) }

// checkOverflow waits for the query's kernels and fails it with
// errOverflow when one of them set the flag. A query whose last step
// already synchronized after its last launch (a star's copy back) is not
// made to wait again: one synchronization per query.
func (d *device) checkOverflow() error {
	if !d.syncedSince() {
		if err := d.sync(); err != nil {
			return err
		}
	}
	if atomic.LoadUint32(d.overflow) != 0 {
		return errOverflow
	}
	return nil
}
