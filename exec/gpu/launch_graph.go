//go:build cuda

package gpu

// A warm star query launches the same short chain of kernels with the same
// parameters every time it runs (group table init, the fused fact kernel,
// the group compaction): the dimension builds, columns and scratch
// allocations it names are cached or pooled, so even the addresses repeat.
// Each cuLaunchKernel costs microseconds of host time and copies a 2.5 KB
// parameter block, which is most of what a 0.15 ms query spends outside
// its kernels. So the chain is recorded instead of launched, and replayed
// as one CUDA graph once the identical chain has been seen before: the
// graph holds the parameters, and one cuGraphLaunch starts every kernel.
// A chain is keyed by its exact bytes (functions, shapes, parameters), so
// a replay launches exactly what the recorded launches would have.

/*
#cgo LDFLAGS: -lcuda
#include <stdlib.h>
#include <cuda.h>

// gpusql_graph_build instantiates a graph of n kernels run one after the
// other; params[i] holds kernel i's parameter buffer of sizes[i] bytes.
static CUresult gpusql_graph_build(int n, CUfunction* fs, unsigned* grids, unsigned* blocks,
                                   unsigned* shmems, void** params, size_t* sizes, CUgraphExec* out) {
	CUgraph g;
	CUresult r = cuGraphCreate(&g, 0);
	if (r != CUDA_SUCCESS) return r;
	CUgraphNode prev = NULL;
	for (int i = 0; i < n; i++) {
		void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params[i], CU_LAUNCH_PARAM_BUFFER_SIZE, &sizes[i], CU_LAUNCH_PARAM_END};
		CUDA_KERNEL_NODE_PARAMS kp = {0};
		kp.func = fs[i];
		kp.gridDimX = grids[i]; kp.gridDimY = 1; kp.gridDimZ = 1;
		kp.blockDimX = blocks[i]; kp.blockDimY = 1; kp.blockDimZ = 1;
		kp.sharedMemBytes = shmems[i];
		kp.extra = extra;
		CUgraphNode node;
		r = cuGraphAddKernelNode(&node, g, prev ? &prev : NULL, prev ? 1 : 0, &kp);
		if (r != CUDA_SUCCESS) { cuGraphDestroy(g); return r; }
		prev = node;
	}
	r = cuGraphInstantiateWithFlags(out, g, 0);
	cuGraphDestroy(g);
	return r;
}

static CUresult gpusql_graph_launch(CUgraphExec e) { return cuGraphLaunch(e, NULL); }
static CUresult gpusql_graph_destroy(CUgraphExec e) { return cuGraphExecDestroy(e); }
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"os"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"
)

// cudaGraphs switches replay on (GPUSQL_CUDA_GRAPHS=off: every kernel is
// launched one by one, for comparison).
var cudaGraphs atomic.Bool

func init() { cudaGraphs.Store(os.Getenv("GPUSQL_CUDA_GRAPHS") != "off") }

// graphReplays counts chains started as one graph (tests); failGraphBuilds
// makes instantiating one fail (tests of the fallback).
var (
	graphReplays    atomic.Uint64
	failGraphBuilds atomic.Bool
)

// maxGraphs bounds the chains a device remembers: past it the cache
// starts over, destroying its graphs (a graph costs device memory for its
// nodes). A variable for tests.
var maxGraphs = 128

// launchRecord is one kernel launch of a recorded chain.
type launchRecord struct {
	f                  cu.Function
	grid, block, shmem int
	params             []byte
}

// graphCache holds a device's graphs by chain key. A chain seen once gets
// an entry without a graph: one-off queries never pay for instantiating.
type graphCache struct {
	graphs map[string]*chainGraph
	key    []byte // reused to build keys without allocating
}

type chainGraph struct {
	exec   C.CUgraphExec // nil until the chain is seen a second time
	seen   bool
	failed bool // instantiating it failed: launch kernel by kernel
}

// launch starts f as launch does, or records it while the query records
// its kernel chain (beginChain).
func (r *queryRun) launch(f cu.Function, grid, block, shmem int, params unsafe.Pointer, size uintptr) error {
	if !r.recording || grid == 0 || size == 0 {
		return launch(f, grid, block, shmem, params, size)
	}
	p := make([]byte, size)
	copy(p, unsafe.Slice((*byte)(params), size))
	r.chain = append(r.chain, launchRecord{f: f, grid: grid, block: block, shmem: shmem, params: p})
	return nil
}

// beginChain makes the query's next launches a recorded chain, unless a
// profiler times its kernels one by one or the fact table streams (its
// chunks' copies and kernels run on other streams, after the chain's
// first kernels).
func (r *queryRun) beginChain() {
	r.recording = cudaGraphs.Load() && kprof() == nil && !timeFactKernel.Load() && len(r.streamed) == 0
	r.chain = r.chain[:0]
}

// endChain launches the recorded chain: as its graph when the same chain
// was seen before, else kernel by kernel. Whatever reads the chain's
// results (a copy, a synchronization) comes after it.
func (r *queryRun) endChain() error {
	chain := r.chain
	r.recording, r.chain = false, nil
	if len(chain) == 0 {
		return nil
	}
	g := r.d.graphs.lookup(chain)
	if g.exec == nil && g.seen && !g.failed {
		// A graph that cannot be made (the driver refusing a node, no
		// memory for it) only costs the replay: the chain runs as launches.
		if exec, err := buildGraph(chain); err == nil {
			g.exec = exec
		} else {
			g.failed = true
		}
	}
	g.seen = true
	if g.exec == nil {
		for _, l := range chain {
			if err := launch(l.f, l.grid, l.block, l.shmem, unsafe.Pointer(&l.params[0]), uintptr(len(l.params))); err != nil {
				return err
			}
		}
		return nil
	}
	launches.Add(1)
	graphReplays.Add(1)
	if res := C.gpusql_graph_launch(g.exec); res != C.CUDA_SUCCESS {
		return driverError("cuGraphLaunch", res)
	}
	return nil
}

// startChain ends the recorded chain, starting it, and while it runs
// allocates the entries the columns read in place will be loaded into
// (the host waits for the chain next).
func (r *queryRun) startChain() error {
	if err := r.endChain(); err != nil {
		return err
	}
	r.allocBehind()
	return nil
}

// lookup returns the cache's entry for chain, made when absent.
func (c *graphCache) lookup(chain []launchRecord) *chainGraph {
	k := c.key[:0]
	for _, l := range chain {
		k = binary.LittleEndian.AppendUint64(k, uint64(uintptr(unsafe.Pointer(cfunc(l.f)))))
		k = binary.LittleEndian.AppendUint32(k, uint32(l.grid))
		k = binary.LittleEndian.AppendUint32(k, uint32(l.block))
		k = binary.LittleEndian.AppendUint32(k, uint32(l.shmem))
		k = binary.LittleEndian.AppendUint32(k, uint32(len(l.params)))
		k = append(k, l.params...)
	}
	c.key = k
	if g, ok := c.graphs[string(k)]; ok {
		return g
	}
	if c.graphs == nil || len(c.graphs) >= maxGraphs {
		c.reset()
	}
	g := &chainGraph{}
	c.graphs[string(k)] = g
	return g
}

// reset destroys every graph and empties the cache.
func (c *graphCache) reset() {
	for _, g := range c.graphs {
		if g.exec != nil {
			C.gpusql_graph_destroy(g.exec)
		}
	}
	c.graphs = map[string]*chainGraph{}
}

// buildGraph instantiates chain as a graph of kernel nodes, each after
// the one before.
func buildGraph(chain []launchRecord) (C.CUgraphExec, error) {
	if failGraphBuilds.Load() {
		return nil, errors.New("gpu: CUDA graph builds made to fail (a test)")
	}
	n := len(chain)
	// The arrays go to C in C memory: cgo may not be handed Go memory
	// that holds pointers.
	arr := func(size uintptr) unsafe.Pointer { return C.calloc(C.size_t(n), C.size_t(size)) }
	fs := arr(unsafe.Sizeof(C.CUfunction(nil)))
	grids, blocks, shmems := arr(4), arr(4), arr(4)
	params, sizes := arr(unsafe.Sizeof(unsafe.Pointer(nil))), arr(unsafe.Sizeof(C.size_t(0)))
	defer func() {
		for _, p := range []unsafe.Pointer{fs, grids, blocks, shmems, sizes} {
			C.free(p)
		}
	}()
	bufs := unsafe.Slice((*unsafe.Pointer)(params), n)
	defer func() {
		for _, b := range bufs {
			C.free(b)
		}
		C.free(params)
	}()
	for i, l := range chain {
		unsafe.Slice((*C.CUfunction)(fs), n)[i] = cfunc(l.f)
		unsafe.Slice((*C.uint)(grids), n)[i] = C.uint(l.grid)
		unsafe.Slice((*C.uint)(blocks), n)[i] = C.uint(l.block)
		unsafe.Slice((*C.uint)(shmems), n)[i] = C.uint(l.shmem)
		unsafe.Slice((*C.size_t)(sizes), n)[i] = C.size_t(len(l.params))
		bufs[i] = C.malloc(C.size_t(len(l.params)))
		copy(unsafe.Slice((*byte)(bufs[i]), len(l.params)), l.params)
	}
	var exec C.CUgraphExec
	if r := C.gpusql_graph_build(C.int(n), (*C.CUfunction)(fs), (*C.uint)(grids), (*C.uint)(blocks),
		(*C.uint)(shmems), (*unsafe.Pointer)(params), (*C.size_t)(sizes), &exec); r != C.CUDA_SUCCESS {
		return nil, driverError("building a CUDA graph", r)
	}
	return exec, nil
}
