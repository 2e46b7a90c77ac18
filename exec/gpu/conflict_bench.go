//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"unsafe"

	"gorgonia.org/cu"
)

// conflictParams mirrors kernels/conflict_bench.cu's ConflictParams.
type conflictParams struct {
	Keys, Measure, Payload, SlotValue   uint64
	CopyStart, CopySlots, Out           uint64
	N                                   int64
	Entries, Replicas, Stride, Distinct int32
}

// RunConflictKernel times one layout of kernels/conflict_bench.cu on the
// GPU: the columns are copied to the device first, then the kernel runs
// r.Runs times after one warm-up, timed by CUDA events; the result of the
// last run is returned with the median time.
func RunConflictKernel(r ConflictRun) (*ConflictResult, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	d, err := getDevice()
	if err != nil {
		return nil, err
	}
	var res *ConflictResult
	err = d.do(func() error {
		res, err = d.conflictKernel(r)
		return err
	})
	return res, err
}

// deviceInts copies host values into a new device allocation, appended
// to *owned for freeing.
func deviceInts(vals []int32, owned *[]cu.DevicePtr) (uint64, error) {
	if len(vals) == 0 {
		return 0, nil
	}
	p, err := cu.MemAlloc(int64(4 * len(vals)))
	if err != nil {
		return 0, fmt.Errorf("gpu: allocating %d MB: %v", 4*len(vals)>>20, err)
	}
	*owned = append(*owned, p)
	if err := cu.MemcpyHtoD(p, unsafe.Pointer(unsafe.SliceData(vals)), int64(4*len(vals))); err != nil {
		return 0, err
	}
	return uint64(p), nil
}

func (d *device) conflictKernel(r ConflictRun) (*ConflictResult, error) {
	var owned []cu.DevicePtr
	defer func() {
		for _, p := range owned {
			cu.MemFree(p)
		}
	}()
	entries, stride := r.Distinct, r.Distinct
	if r.SlotValue != nil {
		entries, stride = len(r.SlotValue), len(r.SlotValue)
	}
	if r.Replicas > 1 {
		stride = entries | 1
	}
	p := conflictParams{N: int64(len(r.Keys)), Entries: int32(entries), Replicas: int32(max(r.Replicas, 1)), Stride: int32(max(stride, 1)), Distinct: int32(r.Distinct)}
	copyStart, copySlots := copyLists(r.SlotValue, r.Distinct)
	var err error
	for _, c := range []struct {
		dst  *uint64
		vals []int32
	}{{&p.Keys, r.Keys}, {&p.SlotValue, r.SlotValue}, {&p.Measure, r.Measure}, {&p.Payload, r.Payload},
		{&p.CopyStart, copyStart}, {&p.CopySlots, copySlots}} {
		if !r.Join || c.dst != &p.Measure {
			if *c.dst, err = deviceInts(c.vals, &owned); err != nil {
				return nil, err
			}
		}
	}
	outLen := int64(8 * max(r.Distinct, 1))
	out, err := cu.MemAlloc(outLen)
	if err != nil {
		return nil, err
	}
	owned = append(owned, out)
	p.Out = uint64(out)
	name := "conflict_group"
	if r.Join {
		name = "conflict_join"
	}
	f, err := d.fn(name)
	if err != nil {
		return nil, err
	}
	shmem := 4 * int(p.Replicas) * int(p.Stride)
	if shmem > d.maxShared {
		return nil, fmt.Errorf("gpu: the %s table takes %d KiB of shared memory; a block may have %d KiB", name, shmem>>10, d.maxShared>>10)
	}
	if shmem > 48<<10 {
		if err := setMaxDynamicShared(f, shmem); err != nil {
			return nil, err
		}
	}
	occ, _ := f.MaxActiveBlocksPerMultiProcessor(256, int64(shmem))
	grid := d.sms * max(occ, 1)
	var times []float64
	for i := 0; i <= max(r.Runs, 1); i++ {
		if err := cu.MemsetD32(out, 0, outLen/4); err != nil {
			return nil, err
		}
		d.ev[0].Record(cu.Stream{})
		if err := launch(f, grid, 256, shmem, unsafe.Pointer(&p), unsafe.Sizeof(p)); err != nil {
			return nil, err
		}
		d.ev[1].Record(cu.Stream{})
		if err := d.sync(); err != nil {
			return nil, err
		}
		if i > 0 {
			ms, _ := d.ev[0].Elapsed(d.ev[1])
			times = append(times, float64(ms))
		}
	}
	slices.Sort(times)
	res := &ConflictResult{KernelMs: times[len(times)/2], BlocksPerSM: max(occ, 1), SharedBytes: shmem}
	res.Sums = make([]uint64, outLen/8)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&res.Sums[0]), out, outLen); err != nil {
		return nil, err
	}
	if r.Join {
		res.Sums = res.Sums[:1]
	}
	return res, nil
}
