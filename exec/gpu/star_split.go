//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"gpusql/exec"
	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A star split over several devices (planner/gpu_devices.go): each device
// runs the whole pipeline — its own dimension builds, the fused kernel —
// over its row range of the fact table into its own group table, all
// devices at once; the host adds the tables up slot by slot (they share
// one layout, made from the plan's statistics) and decodes the sum once.
// A device reads its range through row-range views of the fact columns
// (columnar.Column.RowRange), so its column cache, zero-copy reads and
// streamed chunks hold only its part.

// runSplit runs p, whose GPU plan splits a star over devices. When the
// data refuse the star (duplicate dimension keys, an expression the VM
// cannot compile), the plan's fallback runs whole on the first device.
func runSplit(ctx context.Context, p *planner.Physical, profiled bool) (*exec.Result, *QueryProfile, error) {
	g := p.GPU
	devs, err := devicesOf(g.Split.Devices)
	if err != nil {
		return nil, nil, err
	}
	q, outs, err := starOf(g.Star)
	if err != nil {
		return unsplit(ctx, p, devs[0], profiled, err)
	}
	start := time.Now()
	parts := make([]starGroups, len(devs))
	profs := make([]*QueryProfile, len(devs))
	errs := make([]error, len(devs))
	concurrently(len(devs), func(k int) {
		part := &factPart{parent: q.fact.Table, rows: g.Split.Ranges[k]}
		parts[k], profs[k], errs[k] = devs[k].starPart(ctx, g, q, part, profiled)
	})
	if err := firstError(errs); err != nil {
		return unsplit(ctx, p, devs[0], profiled, err)
	}
	groups, err := mergeStarGroups(q, parts)
	if err != nil {
		return nil, nil, err
	}
	splitRuns.Add(1)
	res, err := decodeStar(q, outs, parts[0].dims, parts[0].fkeys, groups, nil)
	if err != nil {
		return nil, nil, err
	}
	if res, err = runTail(ctx, g, res, p.Names, nil); err != nil {
		return nil, nil, err
	}
	if len(p.Names) == len(res.Columns) {
		res.Names = append([]string(nil), p.Names...)
	}
	var prof *QueryProfile
	if profiled {
		prof = mergeProfiles(profs, float64(time.Since(start).Nanoseconds())/1e6)
	}
	return res, prof, nil
}

// splitRuns counts the split stars that ran split (tests tell them from
// the fallback by it).
var splitRuns atomic.Int64

// unsplit runs the plan's fallback after a device refused its part: an
// error the data caused (ErrUnsupported) sends the whole plan, split
// removed, to one device; any other error is the query's.
func unsplit(ctx context.Context, p *planner.Physical, d *device, profiled bool, cause error) (*exec.Result, *QueryProfile, error) {
	if !errors.Is(cause, ErrUnsupported) || errors.Is(cause, errOverflow) {
		return nil, nil, cause
	}
	g := *p.GPU
	g.Split = nil
	cp := *p
	cp.GPU = &g
	return d.execute(ctx, &cp, profiled)
}

// firstError prefers an error that is not a refusal: a refusal on one
// device and a real failure on another is a failure.
func firstError(errs []error) error {
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, ErrUnsupported) {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// starPart runs the star over one device's part of the fact table.
func (d *device) starPart(ctx context.Context, g *planner.GPUPlan, q *starQuery, part *factPart, profiled bool) (starGroups, *QueryProfile, error) {
	w := planWork(g) / int64(len(g.Split.Ranges))
	d.queued.Add(w)
	defer d.queued.Add(-w)
	var t starGroups
	var prof *QueryProfile
	err := d.do(func() error {
		end, err := d.begin(g)
		if err != nil {
			return err
		}
		defer end()
		return d.profiled(profiled, func() (err error) {
			t, err = d.starTable(ctx, q, g.Profile, part, nil)
			return err
		}, &prof)
	})
	return t, prof, err
}

// factPart is a device's rows of a split plan's fact table.
type factPart struct {
	parent *columnar.Table
	rows   planner.RowRange
}

// of is the view of col the device reads: its row range when col is a
// column of the split fact table, col itself otherwise.
func (p *factPart) of(col *columnar.Column) (*columnar.Column, error) {
	if p == nil {
		return col, nil
	}
	for _, c := range p.parent.Columns {
		if c == col {
			return rowRangeView(col, int(p.rows.Lo), int(p.rows.Hi))
		}
	}
	return col, nil
}

// rows is the number of rows of t the query reads on this device.
func (r *queryRun) rows(t *columnar.Table) int64 {
	if r.part != nil && t == r.part.parent {
		return r.part.rows.Hi - r.part.rows.Lo
	}
	return int64(t.Rows)
}

// factDomain is the value range of fact group column col (dc its device
// column) that the group index is made from: the device's own values
// when the plan runs whole, the plan's statistics when it is split, so
// that every device lays its group table out alike.
func (r *queryRun) factDomain(col *columnar.Column, dc *devColumn) (lo, hi int64, err error) {
	if r.part == nil {
		return dc.min, dc.max, nil
	}
	gc := r.d.place.of(col)
	if gc == nil || !gc.HasRange {
		return 0, 0, fmt.Errorf("gpu: internal error: a split plan's group column has no statistics range")
	}
	if dc.min <= dc.max && (dc.min < gc.Min || dc.max > gc.Max) {
		return 0, 0, fmt.Errorf("gpu: internal error: group column values [%d, %d] outside the statistics range [%d, %d]", dc.min, dc.max, gc.Min, gc.Max)
	}
	return gc.Min, gc.Max, nil
}

// mergeStarGroups adds the devices' group tables up: dense ones slot by
// slot into the first, compact ones (sorted by slot) by a merge of the
// sorted rows, each aggregate word as its function merges.
func mergeStarGroups(q *starQuery, parts []starGroups) (groupRows, error) {
	out := parts[0].groups
	for _, p := range parts[1:] {
		t := p.groups
		if t.W != out.W || t.compact != out.compact || !t.compact && len(t.words) != len(out.words) {
			return groupRows{}, fmt.Errorf("gpu: internal error: devices made group tables of different layouts (%d and %d words, compact %v and %v)",
				len(out.words), len(t.words), out.compact, t.compact)
		}
		if t.compact {
			merged, err := mergeCompact(q, out, t)
			if err != nil {
				return groupRows{}, err
			}
			out = merged
			continue
		}
		for i := int64(0); i < t.rows(); i++ {
			if err := addGroup(q, out.at(i), t.at(i)); err != nil {
				return groupRows{}, err
			}
		}
	}
	return out, nil
}

// mergeCompact merges two compact tables, each in slot order, into one.
func mergeCompact(q *starQuery, a, b groupRows) (groupRows, error) {
	out := groupRows{W: a.W, compact: true, words: make([]uint64, 0, len(a.words)+len(b.words))}
	i, j := int64(0), int64(0)
	for i < a.rows() || j < b.rows() {
		switch {
		case j == b.rows() || i < a.rows() && a.slot(i) < b.slot(j):
			out.words = append(out.words, a.words[i*(a.W+1):(i+1)*(a.W+1)]...)
			i++
		case i == a.rows() || b.slot(j) < a.slot(i):
			out.words = append(out.words, b.words[j*(b.W+1):(j+1)*(b.W+1)]...)
			j++
		default:
			start := len(out.words)
			out.words = append(out.words, a.words[i*(a.W+1):(i+1)*(a.W+1)]...)
			if err := addGroup(q, out.words[start+1:], b.at(j)); err != nil {
				return groupRows{}, err
			}
			i, j = i+1, j+1
		}
	}
	return out, nil
}

// addGroup adds group words y (row count, then each aggregate) into x.
func addGroup(q *starQuery, x, y []uint64) error {
	if y[0] == 0 {
		return nil // no rows of this group on that device: identities
	}
	x[0] += y[0]
	for i, a := range q.aggs {
		v, ok := mergeAgg(a, x[1+i], y[1+i])
		if !ok {
			return errOverflow
		}
		x[1+i] = v
	}
	return nil
}

// mergeAgg merges two partial values of aggregate a (as the kernels keep
// them: counts and integer sums as int64, DOUBLE sums and extremes as
// float64 bits); ok is false when an integer sum overflows.
func mergeAgg(a starAgg, x, y uint64) (uint64, bool) {
	switch {
	case a.fn == aggCountStar || a.fn == aggCount:
		return x + y, true
	case a.fn == aggSum && a.isFloat:
		return math.Float64bits(math.Float64frombits(x) + math.Float64frombits(y)), true
	case a.fn == aggSum:
		s := int64(x) + int64(y)
		return uint64(s), (int64(x) >= 0) != (int64(y) >= 0) || (s >= 0) == (int64(x) >= 0)
	case a.isFloat:
		fx, fy := math.Float64frombits(x), math.Float64frombits(y)
		if (a.fn == aggMin) == (fy < fx) {
			return y, true
		}
		return x, true
	default:
		if (a.fn == aggMin) == (int64(y) < int64(x)) {
			return y, true
		}
		return x, true
	}
}

// mergeProfiles joins the devices' kernel profiles: kernels listed device
// by device, bytes and builds added up, kernel time the slowest device's
// (they run at once), host time the rest of the wall time, and the limit
// the devices' HBM bandwidths together.
func mergeProfiles(profs []*QueryProfile, wallMs float64) *QueryProfile {
	out := &QueryProfile{WallMs: wallMs}
	for k, p := range profs {
		if p == nil {
			continue
		}
		out.HBMGBs += p.HBMGBs
		for _, s := range p.Kernels {
			s.Name = fmt.Sprintf("gpu%d:%s", k, s.Name)
			out.Kernels = append(out.Kernels, s)
		}
		out.KernelMs = max(out.KernelMs, p.KernelMs)
		out.ColumnBytes += p.ColumnBytes
		out.DimBuildsCached += p.DimBuildsCached
		out.DimBuildsMade += p.DimBuildsMade
	}
	out.HostMs = max(out.WallMs-out.KernelMs, 0)
	return out
}

// rowRangeViews keeps one view per (column, range), so that a device's
// column cache, keyed by column identity, finds its part again in later
// queries. A view is dropped when its column is collected.
var rowRangeViews = struct {
	sync.Mutex
	m map[viewKey]*columnar.Column
}{m: map[viewKey]*columnar.Column{}}

type viewKey struct {
	col    weak.Pointer[columnar.Column]
	lo, hi int
}

func rowRangeView(col *columnar.Column, lo, hi int) (*columnar.Column, error) {
	k := viewKey{weak.Make(col), lo, hi}
	rowRangeViews.Lock()
	defer rowRangeViews.Unlock()
	if v, ok := rowRangeViews.m[k]; ok {
		return v, nil
	}
	v, err := col.RowRange(lo, hi)
	if err != nil {
		return nil, err
	}
	rowRangeViews.m[k] = v
	runtime.AddCleanup(col, func(k viewKey) {
		rowRangeViews.Lock()
		delete(rowRangeViews.m, k)
		rowRangeViews.Unlock()
	}, k)
	return v, nil
}
