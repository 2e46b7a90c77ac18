package cpu

import (
	"sort"
	"sync"

	"gpusql/sql"
)

// morselWarnings lists a pipeline's warnings in row order, as MySQL does,
// though workers read morsels at once and finish them in any order: each
// worker's evaluators note into the worker's own list, which it hands over
// as each morsel ends; a morsel's list joins the statement's once every
// morsel before it has. MySQL keeps the first @@max_error_count (1024) in
// row order, so which 1024 are kept depends on this order too.
type morselWarnings struct {
	stmt    *sql.Warnings
	workers []*sql.Warnings // the list of the morsel each worker reads
	mu      sync.Mutex
	done    map[int]*sql.Warnings // morsels ended past next
	next    int                   // the first morsel not yet merged
}

// newMorselWarnings is nil where rows come in order anyway (one worker) or
// no statement collects warnings.
func (x *executor) newMorselWarnings(workers int) *morselWarnings {
	if x.warn == nil || workers < 2 {
		return nil
	}
	mw := &morselWarnings{stmt: x.warn, workers: make([]*sql.Warnings, workers), done: map[int]*sql.Warnings{}}
	for w := range mw.workers {
		mw.workers[w] = sql.NewAttempt()
	}
	return mw
}

// building points x.warn at worker w's list while its operators are made
// (they keep the list they are made with); the returned func restores it
// and notes at once what making them noted (a literal's warning, noted
// once per statement, before any row's).
func (mw *morselWarnings) building(x *executor, w int) func() {
	if mw == nil {
		return func() {}
	}
	x.warn = mw.workers[w]
	return func() {
		x.warn = mw.stmt
		mw.stmt.Merge(mw.workers[w].Take())
	}
}

// ended hands over worker w's warnings of morsel m and merges every
// morsel whose turn has come.
func (mw *morselWarnings) ended(w, m int) {
	if mw == nil {
		return
	}
	t := mw.workers[w].Take()
	mw.mu.Lock()
	defer mw.mu.Unlock()
	mw.done[m] = t
	for {
		t, ok := mw.done[mw.next]
		if !ok {
			return
		}
		mw.stmt.Merge(t)
		delete(mw.done, mw.next)
		mw.next++
	}
}

// finish merges what is left after the workers stop (a LIMIT met or an
// error leaves morsels unread and some half read) in morsel order.
func (mw *morselWarnings) finish(current []int) {
	if mw == nil {
		return
	}
	for w, m := range current {
		if m >= 0 {
			mw.done[m] = mw.workers[w].Take()
		}
	}
	ms := make([]int, 0, len(mw.done))
	for m := range mw.done {
		ms = append(ms, m)
	}
	sort.Ints(ms)
	for _, m := range ms {
		mw.stmt.Merge(mw.done[m])
	}
	mw.done = nil
}
