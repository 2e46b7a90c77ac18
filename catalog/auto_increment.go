package catalog

import (
	"math"
	"strings"
	"sync"

	"gpusql/storage/columnar"
)

// AUTO_INCREMENT counters. A table with an AUTO_INCREMENT column has one
// counter: the next value to generate (MySQL's table option
// AUTO_INCREMENT=N). It lives beside the table snapshots, not in them,
// because it must not follow a snapshot back: a ROLLBACK, or a statement
// that fails, drops its snapshots but never gives values back (InnoDB's
// behaviour), so two sessions never get the same value. A statement that
// fails gives its values back only when no other statement has taken one
// since (GiveBack), so a failed INSERT leaves no gap when it ran alone. A transaction's
// clone shares the shared catalog's counter objects (ShareCounters).
//
// The counter never goes below the column's largest value + 1: the engine
// raises it from the snapshot's statistics before each insert
// (AutoCounter.Reserve), so an explicit value, an UPDATE or a LOAD that
// wrote a larger key moves it on, and a database reopened from a manifest
// without a stored counter derives it from the stored rows.

// ErrAutoKey is MySQL's error 1075 text: an AUTO_INCREMENT column must lead
// an index.
const ErrAutoKey = "Incorrect table definition; there can be only one auto column and it must be defined as a key"

// autoKeyed reports whether the table's AUTO_INCREMENT column, if it has
// one, is the first column of one of indexes.
func autoKeyed(fields []columnar.Field, indexes []Index) bool {
	auto := -1
	for i, f := range fields {
		if f.AutoIncrement {
			auto = i
		}
	}
	if auto < 0 {
		return true
	}
	for _, ix := range indexes {
		if len(ix.Columns) > 0 && ix.Columns[0] == auto {
			return true
		}
	}
	return false
}

// Reset sets the counter back to 1 (TRUNCATE TABLE, as MySQL).
func (a *AutoCounter) Reset() {
	a.mu.Lock()
	a.next = 0
	a.mu.Unlock()
}

// AutoCounter is one table's AUTO_INCREMENT counter.
type AutoCounter struct {
	mu   sync.Mutex
	next uint64 // 0 means 1: nothing generated or raised yet
}

// Next is the value the counter would generate now (at least 1).
func (a *AutoCounter) Next() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return max(a.next, 1)
}

// NextLocked is Next with the lock held.
func (a *AutoCounter) NextLocked() uint64 { return max(a.next, 1) }

// Raise moves the counter to at least next.
func (a *AutoCounter) Raise(next uint64) {
	a.mu.Lock()
	a.next = max(a.next, next)
	a.mu.Unlock()
}

// Lock holds the counter while a statement assigns its values (Take,
// Passed); Unlock releases it. Values are taken in row order.
func (a *AutoCounter) Lock()   { a.mu.Lock() }
func (a *AutoCounter) Unlock() { a.mu.Unlock() }

// Take returns the next value and moves past it; ok is false when the
// next value is above limit (the column's largest value): the counter
// then stays at limit+1 and nothing is taken. Call with the lock held.
func (a *AutoCounter) Take(limit uint64) (v uint64, ok bool) {
	v = max(a.next, 1)
	if v > limit || v == 0 {
		return 0, false
	}
	a.next = v + 1
	return v, true
}

// Passed records an explicit value v: the counter moves past it. Call with
// the lock held.
func (a *AutoCounter) Passed(v uint64) {
	a.next = max(a.next, After(v))
}

// After is v+1, saturating at the largest uint64 (a counter past
// 18446744073709551615 stays there: nothing more can be generated).
func After(v uint64) uint64 {
	if v == math.MaxUint64 {
		return v
	}
	return v + 1
}

// GiveBack moves the counter from after back to before, when a statement
// that took the values between them failed and no one has taken a value
// since (a later value would otherwise be handed out twice).
func (a *AutoCounter) GiveBack(before, after uint64) {
	a.mu.Lock()
	if a.next == after && before < after {
		a.next = before
	}
	a.mu.Unlock()
}

// SetCounter sets the named table's counter to next, lower or higher
// (ALTER TABLE ... AUTO_INCREMENT = N; the caller keeps it past the values
// in use), as a change of the catalog that a database directory writes.
func (c *Catalog) SetCounter(table string, next uint64) {
	a := c.Counter(table)
	a.mu.Lock()
	a.next = next
	a.mu.Unlock()
	c.mu.Lock()
	c.version++
	c.mu.Unlock()
}

// Counter returns the named table's counter, made on first use (at 1).
func (c *Catalog) Counter(table string) *AutoCounter {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key(table)
	if c.counters == nil {
		c.counters = map[string]*AutoCounter{}
	}
	a, ok := c.counters[k]
	if !ok {
		a = &AutoCounter{}
		c.counters[k] = a
	}
	return a
}

// ShareCounters makes c (a transaction's clone) use src's counters, so
// values a transaction takes are taken for every session and never given
// back by its ROLLBACK.
func (c *Catalog) ShareCounters(src *Catalog) {
	src.mu.Lock()
	if src.counters == nil {
		src.counters = map[string]*AutoCounter{}
	}
	for k := range c.Tables() {
		if _, ok := src.counters[k]; !ok {
			src.counters[k] = &AutoCounter{}
		}
	}
	shared := make(map[string]*AutoCounter, len(src.counters))
	for k, a := range src.counters {
		shared[k] = a
	}
	src.mu.Unlock()
	c.mu.Lock()
	c.counters = shared
	c.mu.Unlock()
}

// CountersMoved reports whether a counter is past the value st holds for
// it: values were taken since st was written (by a statement that failed
// or a transaction rolled back, which change no table).
func (c *Catalog) CountersMoved(st State) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for k, n := range c.counterValues() {
		if n > st.AutoIncrement[k] {
			return true
		}
	}
	return false
}

// counterValues are the counters' next values, by lower-cased table name,
// for tables that have generated or been raised (State). Call with c.mu
// held.
func (c *Catalog) counterValues() map[string]uint64 {
	out := map[string]uint64{}
	for k, a := range c.counters {
		if _, ok := c.tables[k]; !ok {
			continue
		}
		if n := a.Next(); n > 1 {
			out[k] = n
		}
	}
	return out
}

// restoreCounters raises the counters to the given next values (a
// database opened from disk; a restored state never moves one back).
func (c *Catalog) restoreCounters(values map[string]uint64) {
	if c.counters == nil {
		c.counters = map[string]*AutoCounter{}
	}
	for k, n := range values {
		k = strings.ToLower(k)
		a, ok := c.counters[k]
		if !ok {
			a = &AutoCounter{}
			c.counters[k] = a
		}
		a.Raise(n)
	}
}

// dropCounter forgets a dropped table's counter; moveCounter follows a
// rename. Call with c.mu held.
func (c *Catalog) dropCounter(k string) { delete(c.counters, k) }

func (c *Catalog) moveCounter(from, to string) {
	if a, ok := c.counters[from]; ok {
		c.counters[to] = a
		delete(c.counters, from)
	}
}

// ColumnMax is the largest positive value of column c of t (0 if none),
// from the chunk statistics where they are current; BIGINT UNSIGNED
// chunks holding values past 2^63 (negative as int64) are scanned.
func ColumnMax(t *columnar.Table, c int) uint64 {
	col := t.Columns[c]
	big := t.Fields[c].Type.IsBigUnsigned()
	var best uint64
	scan := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if col.IsNull(i) {
				continue
			}
			v := col.Int64At(i)
			if (v > 0 || big) && uint64(v) > best {
				best = uint64(v)
			}
		}
	}
	if len(t.Stats) != len(t.Columns) || len(t.Stats[c]) != t.NumChunks() {
		scan(0, t.Rows)
		return best
	}
	for k, st := range t.Stats[c] {
		lo := k * columnar.ChunkRows
		hi := min(lo+columnar.ChunkRows, t.Rows)
		switch {
		case st.NullCount == hi-lo:
		case big && st.Min < 0:
			scan(lo, hi)
		case st.Max > 0 && uint64(st.Max) > best:
			best = uint64(st.Max)
		}
	}
	return best
}

// AutoIncrementNext is the value t's AUTO_INCREMENT column would generate
// next (0: t has none): the counter, raised past the largest value t holds.
func (c *Catalog) AutoIncrementNext(t *columnar.Table) uint64 {
	for i, f := range t.Fields {
		if f.AutoIncrement {
			return max(c.Counter(t.Name).Next(), After(ColumnMax(t, i)))
		}
	}
	return 0
}
