//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// errOverflow is returned for a query during which some kernel found an
// integer result outside int64 (an operator's BIGINT or decimal result, a
// SUM's partial total): the GPU never returns a wrapped value. It wraps
// ErrUnsupported, so `--executor auto` reruns the query on exec/cpu, which
// raises MySQL's "BIGINT value is out of range in '(a + b)'" naming the
// expression, or — where only a partial sum wrapped, or a CASE arm the
// row did not take, both of which the kernels cannot tell from a real
// overflow — returns the right answer (exec/cpu sums in 128 bits and
// evaluates only the CASE arm each row takes).
var errOverflow = fmt.Errorf("gpu: integer overflow (BIGINT value is out of range) %w: exec/cpu names the expression", ErrUnsupported)

// overflowFlags finds every loaded module's gpusql_overflow word
// (kernels/common.cuh).
func (d *device) overflowFlags() {
	for _, m := range d.modules {
		if p, size, err := m.Global("gpusql_overflow"); err == nil && size == 4 {
			d.overflow = append(d.overflow, p)
		}
	}
}

// clearOverflow zeroes the flags before a query.
func (d *device) clearOverflow() error {
	for _, p := range d.overflow {
		if err := cu.MemsetD32(p, 0, 1); err != nil {
			return fmt.Errorf("gpu: clearing the overflow flag: %v", err)
		}
	}
	return nil
}

// checkOverflow waits for the query's kernels and fails it with
// errOverflow when one of them set a flag.
func (d *device) checkOverflow() error {
	if err := d.sync(); err != nil {
		return err
	}
	for _, p := range d.overflow {
		var v uint32
		if err := cu.MemcpyDtoH(unsafe.Pointer(&v), p, 4); err != nil {
			return fmt.Errorf("gpu: reading the overflow flag: %v", err)
		}
		if v != 0 {
			return errOverflow
		}
	}
	return nil
}
