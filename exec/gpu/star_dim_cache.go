//go:build cuda

package gpu

import (
	"container/list"
	"os"
	"slices"
	"strconv"
	"strings"
	"unsafe"
	"weak"

	"gorgonia.org/cu"

	"gpusql/planner"
	"gpusql/storage/columnar"
)

// A star query's dimension builds (filter, dense ranks of the surviving
// group values, join table) depend only on the dimension's columns, its
// filters and the planned build structure; repeated queries — a dashboard,
// a benchmark, the same dimension filtered the same way in several
// queries — find them on the device instead of rebuilding them (mark,
// flags copy to the host, ranking, rank upload, build: a synchronization
// and several launches per dimension). The key names the columns by
// identity, host vector and length: a write makes new columns (tables are
// snapshots), so a written dimension misses and its old builds age out.
// The builds' bytes count in the column cache's budget, evicted after
// the columns that are not in use.

// dimBuild is one cached dimension build.
type dimBuild struct {
	key      string
	sizes    []int64
	mins     []int64
	nullable []bool
	domain   int64
	ranks    []int64
	k        int64
	dp       dimParam // Map, KeyMin, MapLen, HKeys, HMask
	owned    []cu.DevicePtr
	bytes    int64
	// cols keep the keyed columns alive, so that their addresses, part of
	// the key, are not reused while the entry exists.
	cols []*columnar.Column
	elem *list.Element
	// keys is the build's join key interval, when the plan asked for it.
	keys keyRange
}

// dimCache holds dimension builds, least recently used evicted first.
type dimCache struct {
	d   *device
	m   map[string]*dimBuild
	lru list.List // front = most recent
	// keys remembers the build keys of recent plans' dimensions.
	keys map[weak.Pointer[planner.HashJoin]]dimKeyMemo
}

func newDimCache(d *device) *dimCache { return &dimCache{d: d, m: map[string]*dimBuild{}} }

// dimCacheOff (GPUSQL_DIM_CACHE=off) rebuilds every dimension each query:
// the before of a measurement.
var dimCacheOff = os.Getenv("GPUSQL_DIM_CACHE") == "off"

func (c *dimCache) lookup(key string) *dimBuild {
	b := c.m[key]
	if b != nil {
		c.lru.MoveToFront(b.elem)
	}
	return b
}

// add adopts b's allocations if the column cache's budget has room for
// them; otherwise it frees them and keeps nothing.
func (c *dimCache) add(b *dimBuild) {
	if old := c.m[b.key]; old != nil {
		c.drop(old)
	}
	// Columns come first: a build takes what the budget has left, evicting
	// only older builds.
	cc := c.d.cache
	for cc.used+b.bytes > cc.budget && c.evictOldest() {
	}
	if cc.used+b.bytes > cc.budget {
		c.free(b)
		return
	}
	c.d.cache.used += b.bytes
	b.elem = c.lru.PushFront(b)
	c.m[b.key] = b
}

func (c *dimCache) free(b *dimBuild) {
	for _, p := range b.owned {
		c.d.pool.put(p)
	}
	b.owned = nil
}

func (c *dimCache) drop(b *dimBuild) {
	c.free(b)
	c.lru.Remove(b.elem)
	delete(c.m, b.key)
	c.d.cache.used -= b.bytes
}

// evictOldest drops the least recently used build; false when none is left.
func (c *dimCache) evictOldest() bool {
	el := c.lru.Back()
	if el == nil {
		return false
	}
	c.drop(el.Value.(*dimBuild))
	return true
}

func (c *dimCache) clear() {
	for c.evictOldest() {
	}
}

// makeDimBuildKey names dimension i's build: its table's columns (by
// identity, host vector and length), its filters as SQL, its key and
// group columns and the planned structure. "" when the build must not be
// cached: scalar subquery values substituted into its filters are not in
// their text. dimBuildKey remembers it per plan (star_dim_key.go).
func (r *queryRun) makeDimBuildKey(q *starQuery, i int) (string, []*columnar.Column) {
	if dimCacheOff || len(r.subq) > 0 {
		return "", nil
	}
	dm := q.dims[i]
	t := dm.scan.Table
	// Built with appends, not fmt: the key is made for every dimension of
	// every warm query.
	b := make([]byte, 0, 64+40*len(t.Columns))
	b = strconv.AppendInt(b, int64(t.Rows), 10)
	b = append(b, " rows:"...)
	for c, col := range t.Columns {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, ':')
		b = strconv.AppendUint(b, uint64(uintptr(unsafe.Pointer(col))), 16)
		b = append(b, ':')
		b = strconv.AppendUint(b, uint64(hostPtr(col)), 16)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(col.Len), 10)
	}
	b = append(b, "; key "...)
	b = strconv.AppendInt(b, int64(dm.key), 10)
	b = append(b, " group"...)
	for _, c := range dm.gcols {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(c), 10)
	}
	b = append(b, " build "...)
	b = strconv.AppendBool(b, dm.build.Direct)
	b = append(b, ' ')
	b = strconv.AppendInt(b, dm.build.Capacity, 10)
	b = append(b, " bitmap "...) // a build without one cannot serve a plan that tests it
	b = strconv.AppendBool(b, dm.build.Bitmap)
	b = append(b, " semi "...)
	b = strconv.AppendBool(b, dm.semi)
	b = append(b, " filters "...)
	var filters []string
	for bc, cs := range q.preds {
		if bc.scan != dm.scan {
			continue
		}
		var f []string
		for _, e := range cs {
			if !sameEveryRun(e) {
				return "", nil
			}
			f = append(f, e.String())
		}
		filters = append(filters, strconv.Itoa(bc.col)+":"+strings.Join(f, " AND "))
	}
	for _, x := range q.vmPreds {
		if x.scan == dm.scan {
			if !sameEveryRun(x.e) {
				return "", nil
			}
			filters = append(filters, "vm:"+x.e.String())
		}
	}
	slices.Sort(filters) // q.preds is a map
	b = append(b, strings.Join(filters, " | ")...)
	return string(b), slices.Clone(t.Columns)
}

// cachedRun is the dimRun of a cached build.
func (b *dimBuild) cachedRun() *dimRun {
	return &dimRun{sizes: b.sizes, mins: b.mins, nullable: b.nullable, domain: b.domain, ranks: b.ranks, k: b.k, cached: b}
}

// keepDimBuilds caches the builds this query made, once the build kernels
// reported no error (checkDimStatus).
func (r *queryRun) keepDimBuilds(dims []*dimRun) {
	for _, dr := range dims {
		if dr.cacheKey == "" || dr.cached != nil {
			continue
		}
		b := &dimBuild{key: dr.cacheKey, sizes: dr.sizes, mins: dr.mins, nullable: dr.nullable, domain: dr.domain,
			ranks: dr.ranks, k: dr.k, dp: dr.built, owned: dr.owned, bytes: dr.ownedBytes, cols: dr.cols, keys: dr.keys}
		dr.owned = nil
		r.d.dims.add(b)
	}
}

// allocBuild allocates part of a dimension's join table: cache-owned
// when the build will be cached, scratch otherwise.
func (r *queryRun) allocBuild(dr *dimRun, n int64) (cu.DevicePtr, error) {
	if dr.cacheKey == "" {
		return r.s.alloc(n)
	}
	p, err := r.d.pool.get(n)
	if err != nil {
		return 0, err
	}
	dr.owned = append(dr.owned, p)
	dr.ownedBytes += sizeClass(n)
	r.unadopted = append(r.unadopted, dr)
	return p, nil
}

// freeUnadopted returns the cache-bound allocations of builds that were
// not cached (the query failed first).
func (r *queryRun) freeUnadopted() {
	for _, dr := range r.unadopted {
		for _, p := range dr.owned {
			r.d.pool.put(p)
		}
		dr.owned = nil
	}
	r.unadopted = nil
}

// allCached reports whether every dimension build came from the cache
// (the query then has no build status to read back).
func allCached(dims []*dimRun) bool {
	for _, dr := range dims {
		if dr.cached == nil {
			return false
		}
	}
	return true
}
