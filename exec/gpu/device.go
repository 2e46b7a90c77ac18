//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"gorgonia.org/cu"

	"gpusql/kernels"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// device owns one CUDA context (one per GPU of the set, devices.go). A
// context is current per OS thread and Go moves goroutines between threads,
// so GPU work runs through do, on a locked thread with the context made
// current, one goroutine at a time. Queries are thereby serialized on each
// GPU, which is what a single default stream would do anyway.
type device struct {
	// index is the device's place in the set (devices.go), ordinal its
	// CUDA device; share how many devices of the set run on that ordinal.
	index, ordinal, share int
	// queued is the estimated work of the queries submitted to the device
	// and not finished (the scheduler's measure, devices.go).
	queued atomic.Int64
	// served counts the whole queries sent to the device.
	served atomic.Int64

	// mu is held by the goroutine using the device (do), whose locked OS
	// thread is owner (0 when none).
	mu    sync.Mutex
	owner atomic.Int64

	ctx       cu.CUContext
	name      string
	sms       int
	maxShared int // opt-in dynamic shared memory per block
	peakGBs   float64
	totalMem  int64
	// profile describes the device to the planner (DeviceProfile).
	profile *planner.GPUProfile

	modules  map[string]cu.Module
	overflow *uint32 // the mapped host word kernels flag overflow in (overflow.go)
	funcs    map[string]cu.Function
	fnNames  map[cu.Function]string // for the kernel profiler
	pool     *devPool
	cache    *columnCache
	dims     *dimCache // dimension builds of star queries (star_dim_cache.go)
	pinned   *pinnedPool
	// cacheMax is the column cache's budget when a plan does not set one
	// (most of the free memory at start-up).
	cacheMax int64
	// place is the running plan's column placement (placement.go).
	place *placement
	// streams run a streamed fact table's chunks (streaming.go); narrow
	// keeps the narrowed host copies they send (narrow.go).
	streams     []cu.Stream
	chunks      int // chunked launches of the last query's fact kernel (tests)
	narrow      map[*columnar.Column]*narrowCol
	narrowBytes int64

	// profEvents are the kernel profiler's events, kept between queries.
	profEvents []cu.Event

	ev   [2]cu.Event  // brackets the last fact-table kernel
	last kernelTiming // what ev measured

	// readbackBuf takes small results back from the device (star_compact.go).
	readbackBuf readbackBuf
	// finishBuf is star_finish's output buffer (star_finish.go).
	finishBuf cu.DevicePtr
	// syncedAt is the launch count at the device's last synchronization
	// (syncedSince); idleAt the count after unpacks loaded behind a
	// synchronized query (column_in_place.go), which no query waits for.
	syncedAt, idleAt uint64
	// copies is the stream of copies ahead, aheadInFlight how many are
	// not yet settled (column_ahead.go).
	copies        cu.Stream
	aheadInFlight int
	// remapUploads are remaps' slot values on the device (remap_upload.go).
	remapUploads []remapUpload
	// shapes are the fact kernels' occupancies found so far, optIn the
	// dynamic shared memory each kernel was opted into (launch_shape.go).
	shapes map[launchShapeKey]launchShapeInfo
	optIn  map[cu.Function]int
	// graphs replay warm queries' kernel chains (launch_graph.go).
	graphs graphCache
	// sortScratch reorders star results in place (star_presort.go).
	sortScratch hostScratch
	// zoneBits keeps live-chunk bitmaps of warm queries (star_zone_cache.go).
	zoneBits zoneCache
}

// kernelTiming is the device time of the last query's fact-table kernel.
type kernelTiming struct {
	name     string
	ms       float64
	rows     int64
	groups   int64
	replicas int
}

// Available reports whether a GPU can run queries, and why not otherwise.
func Available() (bool, string) {
	if _, err := getDevice(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// DeviceName names the GPU in use ("" when none).
func DeviceName() string {
	d, err := getDevice()
	if err != nil {
		return ""
	}
	return d.name
}

// openDevice opens the CUDA context of device ordinal. share is how many
// devices of the set run on this ordinal (logical devices): each gets that
// share of the free memory.
func openDevice(index, ordinal, share int) (*device, error) {
	d := &device{index: index, ordinal: ordinal, share: share, modules: map[string]cu.Module{}, funcs: map[string]cu.Function{}, fnNames: map[cu.Function]string{}}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.init(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *device) init() error {
	dev, err := cu.GetDevice(d.ordinal)
	if err != nil {
		return fmt.Errorf("gpu: device %d: %v", d.ordinal, err)
	}
	if d.ctx, err = dev.MakeContext(cu.SchedAuto | cu.MapHost); err != nil {
		return fmt.Errorf("gpu: creating context: %v", err)
	}
	d.name, _ = dev.Name()
	d.sms, _ = dev.Attribute(cu.MultiprocessorCount)
	d.maxShared, _ = dev.Attribute(cu.DeviceAttribute(97)) // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
	if d.maxShared == 0 {
		d.maxShared = 48 << 10
	}
	clk, _ := dev.Attribute(cu.MemoryClockRate)
	bus, _ := dev.Attribute(cu.GlobalMemoryBusWidth)
	d.peakGBs = 2 * float64(clk) * 1e3 * float64(bus) / 8 / 1e9
	d.totalMem, _ = dev.TotalMem()
	d.profile = deviceProfile(dev, d)
	for _, m := range kernels.Names() {
		mod, err := cu.LoadData(string(kernels.PTX(m)))
		if err != nil {
			return fmt.Errorf("gpu: loading kernels/%s.ptx: %v", m, err)
		}
		d.modules[m] = mod
		for _, f := range kernels.Functions(m) {
			fn, err := mod.Function(f)
			if err != nil {
				return fmt.Errorf("gpu: kernel %s in %s: %v", f, m, err)
			}
			d.funcs[f] = fn
			d.fnNames[fn] = f
		}
	}
	if len(d.funcs) == 0 {
		return errors.New("gpu: no kernels embedded (build with make, which runs make ptx)")
	}
	if err := d.overflowFlags(); err != nil {
		return err
	}
	free, _, err := cu.MemInfo()
	if err != nil {
		return fmt.Errorf("gpu: cuMemGetInfo: %v", err)
	}
	for i := range d.ev {
		if d.ev[i], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return fmt.Errorf("gpu: creating events: %v", err)
		}
	}
	d.pool = newDevPool()
	d.pinned = sharedPinnedPool()
	// Columns may take 75% of what is free now (of this device's share of
	// a GPU that logical devices split); the rest is for per-query hash
	// tables, group tables and the pool's slack.
	d.cacheMax = free / 4 * 3 / int64(d.share)
	d.cache = newColumnCache(d, d.cacheMax)
	d.dims = newDimCache(d)
	// Plans made for this device default to the same budget, for columns
	// and working tables together.
	d.profile.MemoryBudget = d.cacheMax
	return nil
}

// do runs f with the device's context current, holding the device: the
// calling goroutine locks its OS thread, takes the device's lock and makes
// the context current on that thread, so no other thread has to wake up
// for it (each wake-up of a parked thread costs tens of microseconds, the
// scale of a warm query's host time). Called from inside f it runs inline.
func (d *device) do(f func() error) (err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := threadID()
	if d.owner.Load() == tid {
		return f()
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gpu: internal error: %v", r)
		}
	}()
	d.mu.Lock()
	d.owner.Store(tid)
	defer func() {
		d.owner.Store(0)
		d.mu.Unlock()
	}()
	// A device's work may use another device's (a pinned allocation
	// through the primary): the caller's context is made current again
	// after it.
	prev, _ := cu.CurrentContext()
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return fmt.Errorf("gpu: making the context of device %d current: %v", d.index, err)
	}
	if prev != (cu.CUContext{}) && prev != d.ctx {
		defer cu.SetCurrentContext(prev)
	}
	return f()
}

// fn returns a loaded kernel by name.
func (d *device) fn(name string) (cu.Function, error) {
	f, ok := d.funcs[name]
	if !ok {
		return cu.Function{}, fmt.Errorf("gpu: kernel %s not loaded", name)
	}
	return f, nil
}

// sync waits for all launched work and returns the first error it raised
// (an illegal address in a kernel shows up here); while copies ahead are
// in flight, for the default stream's only (column_ahead.go).
func (d *device) sync() error {
	n := launches.Load()
	wait := cu.Synchronize
	if d.aheadInFlight > 0 {
		wait = cu.Stream{}.Synchronize
	}
	if err := wait(); err != nil {
		return fmt.Errorf("gpu: kernel failed: %v", err)
	}
	d.syncedAt = n
	if d.cache != nil {
		d.cache.releaseHeld()
	}
	return nil
}

// launches counts kernel launches on every device; a device that
// synchronized when it stood at syncedAt has no kernel of its own running
// while it still stands there (launches elsewhere only make it wait once
// more than it needs).
var launches atomic.Uint64

// syncedSince reports whether no kernel was launched since the device's
// last synchronization, but the unpacks loaded behind the query then
// (which set no flag; a fault of theirs shows at the next one): its
// queries' kernels are done and their errors and overflow flags seen.
func (d *device) syncedSince() bool {
	n := launches.Load()
	return n == d.syncedAt || n == d.idleAt
}

// deviceProfile reads the planner's profile from the device's attributes.
// Bandwidths are not attributes: they come from the built-in profile of
// the same GPU (its name says H100 or H200), else from the memory clock
// and bus width (nominal) with the H100's measured fractions.
func deviceProfile(dev cu.Device, d *device) *planner.GPUProfile {
	p := planner.DefaultGPUProfile()
	if strings.Contains(d.name, "H200") {
		p, _ = planner.LookupGPUProfile("h200")
	} else if !strings.Contains(d.name, "H100") && d.peakGBs > 0 {
		p.NominalHBMGBs, p.HBMGBs = d.peakGBs, d.peakGBs*p.HBMGBs/p.NominalHBMGBs
	}
	p.Name = d.name
	p.GlobalMemory = d.totalMem
	p.SMs = d.sms
	p.SharedPerBlock = int64(d.maxShared)
	if v, err := dev.Attribute(cu.MaxSharedMemoryPerMultiprocessor); err == nil && v > 0 {
		p.SharedPerSM = int64(v)
	}
	if v, err := dev.Attribute(cu.WarpSize); err == nil && v > 0 {
		p.WarpSize = v
	}
	return p
}

// DeviceProfile is the planner's profile of the GPU in use.
func DeviceProfile() (*planner.GPUProfile, error) {
	d, err := getDevice()
	if err != nil {
		return nil, err
	}
	return d.setProfile(), nil
}
