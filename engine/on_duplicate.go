package engine

import (
	"context"
	"fmt"

	"gpusql/catalog"
	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// INSERT ... ON DUPLICATE KEY UPDATE, as MySQL runs it: the proposed rows
// go in order; a row whose key of a unique index (PRIMARY first, then the
// others in creation order) is held by a row of the table — an old one, or
// one this statement inserted — updates that row with the assignments
// instead, and the next proposed row sees the result. Rows affected count
// 1 per inserted row, 2 per updated row whose values changed, 0 per one
// whose values did not.
//
// The assignments run as a query (sql.OnDuplicate.Bind) over a pairs table
// of matched and proposed rows, so updates are batched: a batch ends when a
// proposed row matches a row the batch already updates (the second update
// must see the first) and, when an assignment sets a key column, after
// every update (the new key decides what later rows match). Everything
// happens on a copy committed by catalog.Update: a failure anywhere leaves
// the table unchanged.

// dupMerge is the state of one statement: w holds the old rows and then
// the proposed ones (updates rewrite its columns); live marks the rows the
// table will keep.
type dupMerge struct {
	db     *DB
	ctx    context.Context
	od     *sql.OnDuplicate
	w      *columnar.Table
	live   []bool
	unique []catalog.Index
	owner  []map[string]int // per unique index: key → live row holding it
	// pending are the batch's (matched row, proposed row) pairs; busy
	// marks the matched rows.
	pending  [][2]int
	busy     map[int]bool
	affected int
}

// insertOnDuplicate runs INSERT ... ON DUPLICATE KEY UPDATE with the
// proposed rows res.
func (db *DB) insertOnDuplicate(ctx context.Context, s *sql.Insert, res *exec.Result) (*StatementResult, error) {
	affected := 0
	err := db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
		all, err := appendResult(old, s.Targets, res)
		if err != nil {
			return nil, err
		}
		m := &dupMerge{db: db, ctx: ctx, od: s.OnDuplicate, w: all, live: make([]bool, all.Rows), busy: map[int]bool{}}
		for _, ix := range db.cat.Indexes(s.Table) {
			if ix.Unique {
				m.unique = append(m.unique, ix)
				m.owner = append(m.owner, make(map[string]int, all.Rows))
			}
		}
		for r := 0; r < old.Rows; r++ {
			m.live[r] = true
			m.claim(r)
		}
		if err := m.run(old.Rows); err != nil {
			return nil, err
		}
		affected = m.affected
		keep := make([]int, 0, all.Rows)
		for r, l := range m.live {
			if l {
				keep = append(keep, r)
			}
		}
		return gatherTable(m.w, keep), nil
	})
	if err != nil {
		return nil, err
	}
	r := message("%d %s affected", affected, plural(affected, "row"))
	r.RowsAffected = int64(affected)
	return r, nil
}

// run merges the proposed rows first.. of w.
func (m *dupMerge) run(first int) error {
	for r := first; r < m.w.Rows; r++ {
		o, ok := m.match(r)
		if ok && m.busy[o] {
			if err := m.flush(); err != nil {
				return err
			}
			o, ok = m.match(r)
		}
		if !ok {
			m.live[r] = true
			m.claim(r)
			m.affected++
			continue
		}
		m.pending = append(m.pending, [2]int{o, r})
		m.busy[o] = true
		if m.od.KeyChange {
			if err := m.flush(); err != nil {
				return err
			}
		}
	}
	return m.flush()
}

// match finds the live row holding one of row r's unique keys.
func (m *dupMerge) match(r int) (int, bool) {
	for i, ix := range m.unique {
		if k, ok := catalog.KeyOf(m.w, ix.Columns, r); ok {
			if o, ok := m.owner[i][k]; ok {
				return o, true
			}
		}
	}
	return 0, false
}

// claim records live row r's keys.
func (m *dupMerge) claim(r int) {
	for i, ix := range m.unique {
		if k, ok := catalog.KeyOf(m.w, ix.Columns, r); ok {
			m.owner[i][k] = r
		}
	}
}

// flush applies the pending updates: the assignments' query over the
// pairs, then the new values into w, then (when keys may have changed)
// the matched rows' keys, failing as MySQL does when one now repeats
// another row's.
func (m *dupMerge) flush() error {
	if len(m.pending) == 0 {
		return nil
	}
	ids := make([]int, len(m.pending))
	proposed := make([]int, len(m.pending))
	for i, p := range m.pending {
		ids[i], proposed[i] = p[0], p[1]
	}
	m.pending, m.busy = m.pending[:0], map[int]bool{}
	pairs := &columnar.Table{Name: m.w.Name, Fields: sql.PairFields(m.w), Rows: len(ids)}
	for _, c := range m.w.Columns {
		pairs.Columns = append(pairs.Columns, gatherColumn(c, ids))
	}
	for _, c := range m.w.Columns {
		pairs.Columns = append(pairs.Columns, gatherColumn(c, proposed))
	}
	columnar.ComputeStats(pairs)
	plan, err := m.od.Bind(pairs)
	if err != nil {
		return err
	}
	res, err := m.db.runSource(m.ctx, plan)
	if err != nil {
		return err
	}
	if len(res.Columns) != len(m.od.Targets) || res.Rows != len(ids) {
		return fmt.Errorf("internal error: ON DUPLICATE KEY UPDATE computed %d rows of %d values for %d rows", res.Rows, len(res.Columns), len(ids))
	}
	var before [][]string
	if m.od.KeyChange {
		before = m.keys(ids)
	}
	diff := make([]bool, len(ids))
	for i, k := range m.od.Targets {
		if m.w.Columns[k], err = setColumn(m.w.Columns[k], ids, res.Columns[i], m.w.Fields[k], diff); err != nil {
			return fmt.Errorf("ON DUPLICATE KEY UPDATE %s: %w", m.w.Name, err)
		}
	}
	if err := touchColumns(m.w, m.w, ids, diff, m.od.Touch, m.od.Now); err != nil {
		return fmt.Errorf("ON DUPLICATE KEY UPDATE %s: %w", m.w.Name, err)
	}
	for _, d := range diff {
		if d {
			m.affected += 2
		}
	}
	if m.od.KeyChange {
		return m.rekey(ids, before)
	}
	return nil
}

// keys are the rows' keys of each unique index ("" when NULL).
func (m *dupMerge) keys(ids []int) [][]string {
	out := make([][]string, len(m.unique))
	for i, ix := range m.unique {
		out[i] = make([]string, len(ids))
		for j, r := range ids {
			if k, ok := catalog.KeyOf(m.w, ix.Columns, r); ok {
				out[i][j] = "\x01" + k
			}
		}
	}
	return out
}

// rekey moves the updated rows' keys from before to their new values.
func (m *dupMerge) rekey(ids []int, before [][]string) error {
	for i := range m.unique {
		for j, r := range ids {
			if k := before[i][j]; k != "" && m.owner[i][k[1:]] == r {
				delete(m.owner[i], k[1:])
			}
		}
	}
	after := m.keys(ids)
	for i, ix := range m.unique {
		for j, r := range ids {
			k := after[i][j]
			if k == "" {
				continue
			}
			if o, ok := m.owner[i][k[1:]]; ok && o != r {
				return catalog.DuplicateError(m.w, ix, r)
			}
			m.owner[i][k[1:]] = r
		}
	}
	return nil
}
