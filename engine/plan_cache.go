package engine

import (
	"container/list"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"gpusql/catalog"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// The plan cache keeps the bound and planned physical plan (its GPU part
// included) of each SELECT a connection runs, so that the same text run
// again skips parsing, binding and planning: 0.1-0.8 ms of host time per
// SSB query (BenchmarkSSBPlanning), which a warm GPU run of the whole
// query may take less than.
//
// A plan is reused only where binding the same text again would give the
// same plan:
//   - the key is the statement's text (as sql.Parsed.Text has it: no
//     surrounding blanks, leading comments or ';') and every setting the
//     binder or planner reads (planSettings): a SET of one of them plans
//     anew;
//   - the entry is valid while every table name the query resolved still
//     names the same snapshot in the catalog the statement runs against
//     (a transaction's own clone inside a transaction), every view the
//     same definition, and every remap the GPU planner looked up is still
//     the one the catalog hands out. Snapshots are immutable and every
//     write (INSERT, UPDATE, DELETE, LOAD, DDL, a transaction's COMMIT)
//     swaps in a new one, so a write to a table the plan reads, and any
//     DDL on it, invalidates the plan, while writes to other tables do
//     not; a transaction reuses a plan only while it sees the very
//     snapshots the plan was built for;
//   - queries whose binding fixes a value that may change between runs
//     (sql.QueryReads.Volatile: NOW(), @x, @@x, CONNECTION_ID(), files
//     in FROM, information_schema, WITH RECURSIVE) are never cached.
//
// Only plans over the shared catalog's current snapshots are stored (not
// a transaction's uncommitted ones), and after any catalog change the
// entries it made stale are dropped, so the cache never keeps a replaced
// snapshot's memory alive. It is bounded by entries and by an estimate of
// bytes, least recently used first out.
//
// Executing a cached plan concurrently is safe because physical plans are
// not changed by execution: the CPU executor keeps every per-run state
// (hash tables, subquery values) in its run, keyed by node
// (exec/cpu/run.go), and the GPU executor builds its kernel parameters per
// run; the -race tests in plan_cache_test.go run shared plans on many
// sessions at once.
//
// Prepared statements (PREPARE/EXECUTE, database/sql '?' arguments, the
// MySQL server's COM_STMT_EXECUTE) substitute their parameters into the
// text before it runs, so each distinct set of values is its own entry:
// repeated executions with the same values reuse the plan, new values plan
// anew (a literal changes dictionary codes, selectivities, and so the
// plan's shape).

const (
	planCacheEntries = 1000
	planCacheBytes   = 64 << 20
	// Estimated bytes of a cached plan: its nodes with their expressions
	// and the bound logical plan behind them, and its text (literals
	// become constants of about this many bytes per character).
	planNodeBytes = 4 << 10
	planTextBytes = 64
	// maxEntryBytes is the most one plan may take; bigger ones (a
	// statement of many kilobytes of literals) are not kept.
	maxEntryBytes = planCacheBytes / 16
)

// planKey identifies a statement and the settings it was planned under.
type planKey struct {
	text, settings string
}

// cachedPlan is one cache entry.
type cachedPlan struct {
	key      planKey
	query    *sql.Query
	physical *planner.Physical
	remaps   []remapRead
	bytes    int64
}

// remapRead is one remap lookup the GPU planner made.
type remapRead struct {
	table *columnar.Table
	col   int
	remap *columnar.ColumnRemap
}

// planCache is a database's cache, shared by all its connections.
type planCache struct {
	shared *catalog.Catalog

	mu         sync.Mutex
	lru        *list.List // of *cachedPlan, most recent first
	byKey      map[planKey]*list.Element
	bytes      int64
	maxEntries int
	maxBytes   int64
	// swept is the shared catalog's version when stale entries were last
	// dropped.
	swept uint64

	// hits count plans served; misses cacheable queries planned for
	// want of one.
	hits, misses atomic.Int64
}

func newPlanCache(shared *catalog.Catalog) *planCache {
	return &planCache{shared: shared, lru: list.New(), byKey: map[planKey]*list.Element{},
		maxEntries: planCacheEntries, maxBytes: planCacheBytes}
}

// get returns the entry for key when it is valid for cat, else nil.
func (pc *planCache) get(key planKey, cat *catalog.Catalog) *cachedPlan {
	pc.sweep()
	pc.mu.Lock()
	el, ok := pc.byKey[key]
	if ok {
		pc.lru.MoveToFront(el)
	}
	pc.mu.Unlock()
	if !ok {
		return nil
	}
	e := el.Value.(*cachedPlan)
	if !e.validFor(cat) {
		if cat == pc.shared {
			pc.remove(el)
		}
		return nil
	}
	pc.hits.Add(1)
	return e
}

// put stores a plan made from the shared catalog's current snapshots; a
// plan over a transaction's own tables, or one too big, is not kept.
func (pc *planCache) put(e *cachedPlan) {
	pc.misses.Add(1)
	e.bytes = int64(len(e.key.text)+len(e.key.settings))*planTextBytes + int64(len(e.physical.Nodes()))*planNodeBytes
	if e.bytes > maxEntryBytes || !e.validFor(pc.shared) {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if old, ok := pc.byKey[e.key]; ok {
		pc.removeLocked(old)
	}
	pc.byKey[e.key] = pc.lru.PushFront(e)
	pc.bytes += e.bytes
	for pc.lru.Len() > pc.maxEntries || pc.bytes > pc.maxBytes {
		pc.removeLocked(pc.lru.Back())
	}
}

func (pc *planCache) remove(el *list.Element) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if cur, ok := pc.byKey[el.Value.(*cachedPlan).key]; ok && cur == el {
		pc.removeLocked(el)
	}
}

func (pc *planCache) removeLocked(el *list.Element) {
	e := el.Value.(*cachedPlan)
	pc.lru.Remove(el)
	delete(pc.byKey, e.key)
	pc.bytes -= e.bytes
}

// sweep drops the entries a change of the shared catalog made stale, once
// per catalog version, so that no replaced snapshot stays reachable from
// the cache.
func (pc *planCache) sweep() {
	v := pc.shared.Version()
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if v == pc.swept {
		return
	}
	pc.swept = v
	for el := pc.lru.Front(); el != nil; {
		next := el.Next()
		if !el.Value.(*cachedPlan).validFor(pc.shared) {
			pc.removeLocked(el)
		}
		el = next
	}
}

// clear empties the cache.
func (pc *planCache) clear() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.lru.Init()
	pc.byKey = map[planKey]*list.Element{}
	pc.bytes = 0
}

// len is the number of entries and their estimated bytes.
func (pc *planCache) len() (int, int64) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.lru.Len(), pc.bytes
}

// validFor reports whether binding and planning the entry's text against
// cat would read exactly what it read when it was planned.
func (e *cachedPlan) validFor(cat *catalog.Catalog) bool {
	for name, t := range e.query.Reads.Tables {
		if cur, ok := cat.Table(name); !ok || cur != t {
			return false
		}
	}
	for name, v := range e.query.Reads.Views {
		cur, ok := cat.View(name)
		if !ok || cur.SQL != v.SQL || cur.Temptable != v.Temptable || !slices.Equal(cur.Columns, v.Columns) {
			return false
		}
	}
	for _, r := range e.remaps {
		if cat.Remap(r.table, r.col) != r.remap {
			return false
		}
	}
	return true
}

// remapRecorder wraps the catalog's remap lookup for one planning and
// records what it answered, for validFor.
type remapRecorder struct {
	cat   *catalog.Catalog
	mu    sync.Mutex
	reads []remapRead
}

func (r *remapRecorder) lookup(t *columnar.Table, col int) *columnar.ColumnRemap {
	m := r.cat.Remap(t, col)
	r.mu.Lock()
	r.reads = append(r.reads, remapRead{table: t, col: col, remap: m})
	r.mu.Unlock()
	return m
}

func (r *remapRecorder) recorded() []remapRead {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reads)
}

// planSettings lists every setting binding or planning a query reads, as
// the second half of its cache key: the planner's options (join and
// group-by algorithms, ε-join options, the GPU profile with its memory
// budget and devices),
// sql_mode, the time zone and the limits the binder reads, and the memory
// limit.
func (db *DB) planSettings() string {
	var gpu string
	if p := db.planProfile(); p != nil {
		// The whole profile: its budget, devices (SET gpus) and any
		// setting later added to it.
		gpu = fmt.Sprintf("%+v", *p)
	}
	return strings.Join([]string{
		db.joinAlgorithm(), db.opts.GroupBy, db.epsilonOptions().String(), gpu,
		db.session.SQLMode(), db.zone().Name,
		fmt.Sprint(db.session.Limit("group_concat_max_len"), db.session.Limit("cte_max_recursion_depth"), db.session.Limit("sql_select_limit"), db.MemoryLimit()),
	}, "|")
}
