//go:build cuda

package gpu

import (
	"os"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"

	"gpusql/planner"
)

// The star's group table comes back to the host dense (every slot) or
// compacted on the device (kernels/group_compact.cu: only the non-empty
// slots, each with its index), as the plan's rule chooses on the groups
// that survived the dimension filters (planner.GroupCompactionFor).

// groupRows is a star's group table on the host: dense (every slot, W
// words each, word 0 its row count) or compact (the non-empty slots in
// slot order, W+1 words each: the slot index, then the slot's words).
type groupRows struct {
	words   []uint64
	W       int64
	compact bool
	// fin, when set, is the device's finish of the table: its rows are
	// the output columns fin read back, and words is empty.
	fin *starFinish
}

func (t groupRows) stride() int64 {
	if t.compact {
		return t.W + 1
	}
	return t.W
}

// rows is the number of rows (slots, or non-empty slots when compact).
func (t groupRows) rows() int64 { return int64(len(t.words)) / t.stride() }

// nonEmpty counts the rows of groups with rows.
func (t groupRows) nonEmpty() int64 {
	if t.fin != nil {
		return int64(t.fin.header(0))
	}
	if t.compact {
		return t.rows()
	}
	n := int64(0)
	for i := int64(0); i < t.rows(); i++ {
		if t.words[i*t.W] != 0 {
			n++
		}
	}
	return n
}

// slot is row i's group index.
func (t groupRows) slot(i int64) int64 {
	if t.compact {
		return int64(t.words[i*(t.W+1)])
	}
	return i
}

// at is row i's W words: its row count, then one per kernel aggregate.
func (t groupRows) at(i int64) []uint64 {
	base := i * t.stride()
	if t.compact {
		base++
	}
	return t.words[base : base+t.W : base+t.W]
}

// groupCompactParams is kernels/group_compact.cu's GroupCompactParams.
type groupCompactParams struct {
	Table   uint64
	NGroups int64
	Width   int64
	Counts  uint64
	Out     uint64
}

// groupCompactOff (GPUSQL_GROUP_COMPACT=off, or a benchmark) brings every
// group table back whole: the before of a measurement.
var groupCompactOff atomic.Bool

func init() { groupCompactOff.Store(os.Getenv("GPUSQL_GROUP_COMPACT") == "off") }

// compactRuns counts the group tables compacted on a device (tests tell
// the two read-backs apart by it).
var compactRuns atomic.Int64

// gcTile is the slots one block of the compaction kernels covers
// (GC_THREADS × GC_ITEMS).
const gcTile = 256 * 8

// readGroups brings the group table (ngroups slots of W words at table)
// back to the host, dense or compacted as the plan's rule says for this
// count of groups, or has the device finish it (fin, when set and able):
// then the rows come back as its output columns (groupRows.fin). factRows
// bounds the non-empty groups.
func (r *queryRun) readGroups(q *starQuery, prof *planner.GPUProfile, table cu.DevicePtr, ngroups, W, factRows int64, fin *starFinish) (groupRows, error) {
	var cp *compaction
	if !groupCompactOff.Load() && planner.GroupCompactionFor(prof, ngroups, W, q.groups.EstRowsIn) {
		var err error
		if cp, err = r.launchCompaction(table, ngroups, W, factRows); err != nil {
			return groupRows{}, err
		}
	}
	if fin.takes(cp != nil, ngroups, W) {
		done, err := r.finishOnDevice(table, ngroups, W, cp, fin)
		if err != nil || done {
			return groupRows{W: W, fin: fin}, err
		}
	}
	if cp == nil {
		if err := r.startChain(); err != nil {
			return groupRows{}, err
		}
		host, err := r.d.readDense(table, ngroups*W)
		if err != nil {
			return groupRows{}, err
		}
		return groupRows{words: host, W: W}, nil
	}
	return r.readCompacted(q, cp, ngroups, W)
}

// compaction is a group table compacted on the device: the count of its
// non-empty slots at total, their rows (W+1 words each) at out, at most
// maxRows of them.
type compaction struct {
	total, out     cu.DevicePtr
	maxRows, tiles int64
	scatter        int // the scatter kernel's place in the profile
}

// launchCompaction compacts the table on the device (count per tile,
// scan, scatter), nil when there is no room for the compact rows beside
// the table (it then comes back whole, as a smaller table would).
func (r *queryRun) launchCompaction(table cu.DevicePtr, ngroups, W, factRows int64) (*compaction, error) {
	maxRows := max(min(ngroups, factRows), 1)
	tiles := (ngroups + gcTile - 1) / gcTile
	counts, err := r.s.alloc(8 * tiles)
	if err != nil {
		return nil, err
	}
	total, err := r.s.alloc(8)
	if err != nil {
		return nil, err
	}
	out, err := r.s.alloc(maxRows * (W + 1) * 8)
	if err != nil {
		return nil, nil
	}
	p := groupCompactParams{Table: uint64(table), NGroups: ngroups, Width: W, Counts: uint64(counts), Out: uint64(out)}
	if err := r.launchCompact("group_compact_count", int(tiles), &p); err != nil {
		return nil, err
	}
	noteKernel(ngroups*W*8, 8*tiles, ngroups, -1)
	if err := r.scanInPlace(counts, tiles, total); err != nil {
		return nil, err
	}
	noteKernel(16*tiles, 8*tiles+8, tiles, tiles)
	if err := r.launchCompact("group_compact_scatter", int(tiles), &p); err != nil {
		return nil, err
	}
	compactRuns.Add(1)
	return &compaction{total: total, out: out, maxRows: maxRows, tiles: tiles, scatter: lastKernel()}, nil
}

// readCompacted copies back the count and the rows: with one
// synchronization when the rows fit the per-device pinned read-back
// buffer along with the count (the plan's estimate of them, doubled,
// decides how many are copied at once), else a second copy for the rest.
func (r *queryRun) readCompacted(q *starQuery, cp *compaction, ngroups, W int64) (groupRows, error) {
	if err := r.startChain(); err != nil {
		return groupRows{}, err
	}
	est := planner.EstNonEmptyGroups(ngroups, q.groups.EstRowsIn)
	m, words, err := r.d.readCompact(cp.total, cp.out, W, min(cp.maxRows, 2*est))
	if err != nil {
		return groupRows{}, err
	}
	noteKernelAt(cp.scatter, ngroups*W*8+8*cp.tiles, m*(W+1)*8, ngroups, m)
	return groupRows{words: words, W: W, compact: true}, nil
}

func (r *queryRun) launchCompact(name string, tiles int, p *groupCompactParams) error {
	f, err := r.d.fn(name)
	if err != nil {
		return err
	}
	return r.launch(f, tiles, 256, 0, unsafe.Pointer(p), unsafe.Sizeof(*p))
}
