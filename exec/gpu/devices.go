//go:build cuda

package gpu

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"gorgonia.org/cu"

	"gpusql/planner"
)

// The set of GPUs the process runs on (issue 18). Every visible CUDA
// device (CUDA_VISIBLE_DEVICES chooses them) is a member, opened on first
// use: a context per device, each on its own locked goroutine, so queries
// on different devices run at the same time. Index 0 is the primary: plans
// are made with its profile and a query the plan does not spread runs
// there unless the scheduler finds another device less busy.
//
// GPUSQL_LOGICAL_GPUS=N makes the set N devices even where fewer GPUs are
// visible: the extra ones are further contexts on GPU 0, each with its
// share of the free memory. Tests use it to run the N-device code paths
// on one GPU; the kernels of two contexts on one GPU time-share it, so
// logical devices are for correctness, not speed.

type deviceSlot struct {
	once    sync.Once
	dev     *device
	err     error
	ordinal int
}

var (
	setOnce  sync.Once
	setSlots []*deviceSlot
	setErr   error
)

// deviceSet returns the slots of the set, counting devices on first use.
func deviceSet() ([]*deviceSlot, error) {
	setOnce.Do(func() { setSlots, setErr = countDevices() })
	return setSlots, setErr
}

func countDevices() ([]*deviceSlot, error) {
	if err := initResult(); err != nil {
		return nil, fmt.Errorf("no usable CUDA driver or device (%v)", err)
	}
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("gpu: counting devices: %v", err)
	}
	if n == 0 {
		return nil, fmt.Errorf("no CUDA device found")
	}
	total := n
	if v := os.Getenv("GPUSQL_LOGICAL_GPUS"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return nil, fmt.Errorf("GPUSQL_LOGICAL_GPUS=%q: want a device count of at least 1", v)
		}
		total = max(n, k)
	}
	slots := make([]*deviceSlot, total)
	for i := range slots {
		slots[i] = &deviceSlot{ordinal: i}
		if i >= n {
			slots[i].ordinal = 0 // a logical device on GPU 0
		}
	}
	return slots, nil
}

// sharing is how many slots run on ordinal.
func sharing(slots []*deviceSlot, ordinal int) int {
	k := 0
	for _, s := range slots {
		if s.ordinal == ordinal {
			k++
		}
	}
	return k
}

// deviceAt opens (once) and returns device i of the set.
func deviceAt(i int) (*device, error) {
	slots, err := deviceSet()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(slots) {
		return nil, fmt.Errorf("gpu: device %d does not exist (%d GPUs visible)", i, len(slots))
	}
	s := slots[i]
	s.once.Do(func() { s.dev, s.err = openDevice(i, s.ordinal, sharing(slots, s.ordinal)) })
	return s.dev, s.err
}

// getDevice opens the primary GPU on first use.
func getDevice() (*device, error) { return deviceAt(0) }

// DeviceCount is the number of devices in the set (0 without a GPU).
func DeviceCount() int {
	slots, err := deviceSet()
	if err != nil {
		return 0
	}
	return len(slots)
}

// openedDevices lists the devices opened so far.
func openedDevices() []*device {
	slots, _ := deviceSet()
	var out []*device
	for _, s := range slots {
		if s.dev != nil {
			out = append(out, s.dev)
		}
	}
	return out
}

// devicesOf opens the devices a plan names (the primary when it names
// none).
func devicesOf(ids []int) ([]*device, error) {
	if len(ids) == 0 {
		ids = []int{0}
	}
	out := make([]*device, len(ids))
	for k, i := range ids {
		d, err := deviceAt(i)
		if err != nil {
			return nil, err
		}
		out[k] = d
	}
	return out, nil
}

// leastBusy is the scheduler's choice for a query that runs on one device:
// among the plan's devices, the one with the least queued work; ties go to
// the lowest index, so a lone session keeps its columns warm on one GPU.
// Devices not opened yet count as idle, and are opened only when the open
// ones are busy.
func leastBusy(ids []int) (*device, error) {
	if len(ids) <= 1 {
		id := 0
		if len(ids) == 1 {
			id = ids[0]
		}
		return deviceAt(id)
	}
	slots, err := deviceSet()
	if err != nil {
		return nil, err
	}
	best, bestWork := -1, int64(0)
	for _, i := range ids {
		if i < 0 || i >= len(slots) {
			return nil, fmt.Errorf("gpu: device %d does not exist (%d GPUs visible)", i, len(slots))
		}
		var w int64
		if d := slots[i].dev; d != nil {
			w = d.queued.Load()
		}
		if best < 0 || w < bestWork {
			best, bestWork = i, w
		}
	}
	return deviceAt(best)
}

// planWork estimates a query's device work for the scheduler: the bytes
// of the columns it reads (what a scan-bound query's time follows), and a
// floor for the fixed cost of any query.
func planWork(g *planner.GPUPlan) int64 {
	w := int64(1 << 20)
	if g == nil {
		return w
	}
	for _, c := range g.Columns {
		w += c.Bytes
	}
	return w
}

var (
	pinnedOnce sync.Once
	thePinned  *pinnedPool
)

// sharedPinnedPool is the process's pinned host memory, one pool for every
// device: allocations are portable and, under unified addressing, mapped
// at the same address in every context, so a column pinned through one
// device is read zero-copy or copied at full speed by the others.
func sharedPinnedPool() *pinnedPool {
	pinnedOnce.Do(func() { thePinned = newPinnedPool() })
	return thePinned
}

// concurrently runs f(k) for k in [0, n) at once, k = 0 on the calling
// goroutine: one thread fewer to wake for work that waits on all of them.
func concurrently(n int, f func(k int)) {
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Go(func() { f(k) })
	}
	f(0)
	wg.Wait()
}
