package engine

import (
	"context"
	"fmt"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Multi-table UPDATE and DELETE run their joined row-selecting query, then
// change every target table in one catalog.UpdateTables: all tables change
// or none does (a duplicate key in any of them fails the statement).

// multiUpdate runs UPDATE t1 JOIN t2 ... SET ....
func (db *DB) multiUpdate(ctx context.Context, s *sql.MultiUpdate) (*StatementResult, error) {
	res, err := db.runSource(ctx, s.Source, s.Recursive)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(s.Targets))
	for i, t := range s.Targets {
		names[i] = t.Table
	}
	matched, changed := 0, 0
	err = db.cat.UpdateTablesWith(names, db.inPlaceOptions(), func(old []*columnar.Table) ([]*columnar.Table, error) {
		matched, changed = 0, 0
		next := make([]*columnar.Table, len(old))
		for i, target := range s.Targets {
			if old[i] != target.Snapshot {
				return nil, fmt.Errorf("table %s changed while the UPDATE ran; run it again", target.Table)
			}
			var lenient func([]*columnar.Column, []columnar.Field, []int) []*columnar.Column
			if db.lenientWrites(false) {
				lenient = func(cols []*columnar.Column, fs []columnar.Field, ids []int) []*columnar.Column {
					return lenientValues(ctx, cols, fs, func(i int) int { return ids[i] + 1 }, nil, db.session.Strict())
				}
			}
			t, m, c, err := updateTarget(res, target, old[i], s.Now, db.zone(), lenient)
			if err != nil {
				return nil, fmt.Errorf("UPDATE %s: %w", target.Table, err)
			}
			next[i], matched, changed = t, matched+m, changed+c
		}
		return next, nil
	})
	if err != nil {
		return nil, err
	}
	return updateMessage(ctx, matched, changed), nil
}

// updateTarget is the next snapshot of one table of a multi-table UPDATE
// and its matched and changed row counts. Each row is set once, from the
// first result row that holds its row number. Outside strict mode lenient
// adjusts the new values first, as a one-table UPDATE's (lenientUpdate).
func updateTarget(res *exec.Result, u sql.UpdateTarget, old *columnar.Table, now int64, z *sql.TimeZone,
	lenient func([]*columnar.Column, []columnar.Field, []int) []*columnar.Column) (*columnar.Table, int, int, error) {
	picks, ids, err := firstRows(res.Columns[u.RowID], res.Rows, old)
	if err != nil {
		return nil, 0, 0, err
	}
	t := &columnar.Table{Name: old.Name, Fields: old.Fields, Rows: old.Rows,
		Columns: append([]*columnar.Column(nil), old.Columns...)}
	diff := make([]bool, len(ids))
	news := make([]*columnar.Column, len(u.Columns))
	fs := make([]columnar.Field, len(u.Columns))
	for i, k := range u.Columns {
		news[i], fs[i] = gatherColumn(res.Columns[u.Values[i]], picks), old.Fields[k]
	}
	if lenient != nil {
		news = lenient(news, fs, ids)
	}
	for i, k := range u.Columns {
		vals, err := storedValues(news[i], len(picks), old.Fields[k], z)
		if err != nil {
			return nil, 0, 0, err
		}
		if t.Columns[k], err = setColumn(old.Columns[k], ids, vals, old.Fields[k], diff); err != nil {
			return nil, 0, 0, err
		}
	}
	if err := touchColumns(t, old, ids, diff, u.Touch, now, z); err != nil {
		return nil, 0, 0, err
	}
	changed := 0
	for _, d := range diff {
		if d {
			changed++
		}
	}
	columnar.ComputeStats(t)
	return t, len(ids), changed, nil
}

// firstRows reads a row-number column of n result rows: ids are the
// distinct row numbers of t it holds (NULL, from the outer side of a LEFT
// JOIN, names no row) and picks the result row where each first appears.
func firstRows(col *columnar.Column, n int, t *columnar.Table) (picks, ids []int, err error) {
	if col.Type.Physical() != columnar.PhysInt64 {
		return nil, nil, fmt.Errorf("internal error: the row-selecting query of %s returned no row numbers", t.Name)
	}
	seen := make([]bool, t.Rows)
	for i := 0; i < n; i++ {
		if col.IsNull(i) {
			continue
		}
		id := col.I64[i]
		if id < 0 || id >= int64(t.Rows) {
			return nil, nil, fmt.Errorf("internal error: row number %d of %s out of range", id, t.Name)
		}
		if !seen[id] {
			seen[id] = true
			picks = append(picks, i)
			ids = append(ids, int(id))
		}
	}
	return picks, ids, nil
}

// multiDelete runs DELETE t1, t2 FROM ... / DELETE FROM t1, t2 USING ....
func (db *DB) multiDelete(ctx context.Context, s *sql.MultiDelete) (*StatementResult, error) {
	res, err := db.runSource(ctx, s.Source, s.Recursive)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(s.Targets))
	for i, t := range s.Targets {
		names[i] = t.Table
	}
	deleted := 0
	err = db.cat.UpdateTablesWith(names, db.finishOptions(), func(old []*columnar.Table) ([]*columnar.Table, error) {
		deleted = 0
		next := make([]*columnar.Table, len(old))
		for i, target := range s.Targets {
			if old[i] != target.Snapshot {
				return nil, fmt.Errorf("table %s changed while the DELETE ran; run it again", target.Table)
			}
			gone := make([]bool, old[i].Rows)
			for _, c := range target.RowIDs {
				_, ids, err := firstRows(res.Columns[c], res.Rows, old[i])
				if err != nil {
					return nil, err
				}
				for _, id := range ids {
					gone[id] = true
				}
			}
			keep := make([]int, 0, old[i].Rows)
			for r, g := range gone {
				if !g {
					keep = append(keep, r)
				}
			}
			deleted += old[i].Rows - len(keep)
			next[i] = gatherTable(old[i], keep)
		}
		return next, nil
	})
	if err != nil {
		return nil, err
	}
	r := message("%d %s affected", deleted, plural(deleted, "row"))
	r.RowsAffected = int64(deleted)
	return r, nil
}

// updateMessage is an UPDATE's result: MySQL counts the rows changed as
// affected, and reports the rows matched beside them.
func updateMessage(ctx context.Context, matched, changed int) *StatementResult {
	r := message("%d %s affected (Rows matched: %d  Changed: %d  Warnings: %d)", changed, plural(changed, "row"), matched, changed, sql.WarningsFrom(ctx).Count())
	r.RowsAffected = int64(changed)
	r.RowsFound, r.Found = int64(matched), true
	return r
}
