package engine

import (
	"fmt"
	"strings"

	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// Foreign keys are enforced, like CHECK constraints, on the snapshot a
// statement commits, as InnoDB enforces them row by row:
//
//   - as a child: every row whose key columns are all non-NULL must find
//     its key among the parent's rows (else error 1452);
//   - as a parent: a child row whose key the new snapshot no longer holds
//     is an error (1451) under RESTRICT / NO ACTION, is deleted under ON
//     DELETE CASCADE, gets the parent row's new key under ON UPDATE
//     CASCADE, or NULL keys under SET NULL. The changed child is then
//     checked in turn (it may be a parent too), up to MySQL's depth of 15.
//
// A parent key vanished by an UPDATE (same rows, a key changed in place)
// takes ON UPDATE's action and the key in the same row of the new snapshot;
// one vanished otherwise (DELETE, REPLACE) takes ON DELETE's. The changes
// to other tables go back to the catalog as Cascades, committed with the
// statement's snapshot or not at all. Each check hashes the whole parent
// key column set and scans the whole child table: one pass per statement
// on tables with foreign keys, none on tables without.

// maxCascadeDepth is InnoDB's limit on nested cascades (error 3008).
const maxCascadeDepth = 15

// fkChange is a table's snapshot before and after the statement.
type fkChange struct {
	name     string
	old, new *columnar.Table
	depth    int
	inPlace  bool  // rows changed where they are (catalog.FinishOptions.InPlace)
	deleted  []int // old rows deleted though their keys came back (REPLACE)
	from     int   // rows before it are old's, unchanged (an append)
}

// fkRun holds the snapshots a statement and its cascades produce.
type fkRun struct {
	cat     *catalog.Catalog
	root    string
	pending map[string]*columnar.Table // lower-cased name → new snapshot
	base    map[string]*columnar.Table // → snapshot it replaces
	order   []string
}

// current is the table's snapshot as the statement leaves it so far.
func (r *fkRun) current(name string) (*columnar.Table, bool) {
	if t, ok := r.pending[strings.ToLower(name)]; ok {
		return t, true
	}
	return r.cat.Table(name)
}

// enforceForeignKeys checks the statement's change root against the
// foreign keys of cat and returns the root's final snapshot and the
// cascades.
func enforceForeignKeys(cat *catalog.Catalog, root fkChange) (*columnar.Table, []catalog.Cascade, error) {
	r := &fkRun{cat: cat, root: strings.ToLower(root.name), pending: map[string]*columnar.Table{}, base: map[string]*columnar.Table{}}
	r.pending[r.root] = root.new
	work := []fkChange{root}
	for len(work) > 0 {
		ch := work[0]
		work = work[1:]
		if r.pending[strings.ToLower(ch.name)] != ch.new {
			continue // changed again by a cascade, which is queued
		}
		// The actions first: a self-referencing SET NULL or CASCADE
		// changes the rows the child check then reads.
		more, err := r.checkParent(ch)
		if err != nil {
			return nil, nil, err
		}
		work = append(work, more...)
		if r.pending[strings.ToLower(ch.name)] != ch.new {
			continue
		}
		if err := r.checkChild(ch.old, ch.new, ch.from); err != nil {
			return nil, nil, err
		}
	}
	var out []catalog.Cascade
	for _, k := range r.order {
		out = append(out, catalog.Cascade{Table: r.pending[k].Name, Base: r.base[k], Next: r.pending[k]})
	}
	return r.pending[r.root], out, nil
}

// checkChild fails with 1452 when a row of t has a key its parent lacks.
// Rows before from are old ones (an append), not checked again; of the
// others, only keys old did not hold count: rows left from before
// foreign_key_checks = 0 are not the statement's to answer for, as in
// InnoDB, which checks the rows a statement writes (old nil: every row, for
// ALTER TABLE ADD FOREIGN KEY).
func (r *fkRun) checkChild(old, t *columnar.Table, from int) error {
	for _, fk := range r.cat.ForeignKeys(t.Name) {
		cols, err := columnIndexes(t, fk.Columns)
		if err != nil {
			return err
		}
		var keys map[string]int
		if parent, ok := r.current(fk.RefTable); ok {
			pcols, err := columnIndexes(parent, fk.RefColumns)
			if err != nil {
				return err
			}
			keys = keySet(parent, pcols)
		}
		missing := missingKeys(t, cols, keys, from)
		if len(missing) == 0 {
			continue
		}
		if old != nil && from == 0 {
			// Keys old held already are orphans from before, not this
			// statement's: look them up only now that some are missing.
			if ocols, err := columnIndexes(old, fk.Columns); err == nil {
				before := keySet(old, ocols)
				kept := missing[:0]
				for _, k := range missing {
					if _, was := before[k]; !was {
						kept = append(kept, k)
					}
				}
				missing = kept
			}
		}
		if len(missing) > 0 {
			return catalog.ChildRowError(sql.DatabaseName, t.Name, fk)
		}
	}
	return nil
}

// missingKeys are the keys of t's rows from from on (over cols, NULLs
// skipped: MATCH SIMPLE) that keys lacks.
func missingKeys(t *columnar.Table, cols []int, keys map[string]int, from int) []string {
	var out []string
	var buf []byte
	for row := from; row < t.Rows; row++ {
		var ok bool
		if buf, ok = catalog.AppendKey(buf[:0], t, cols, row); !ok {
			continue
		}
		if _, found := keys[string(buf)]; !found {
			out = append(out, string(buf))
		}
	}
	return out
}

// checkParent applies the referential actions of the keys referencing
// ch's table to the child rows whose parent key vanished.
func (r *fkRun) checkParent(ch fkChange) ([]fkChange, error) {
	var more []fkChange
	for _, ref := range r.cat.ReferencesTo(ch.name) {
		parent := r.pending[strings.ToLower(ch.name)]
		pcols, err := columnIndexes(parent, ref.Key.RefColumns)
		if err != nil {
			return nil, err
		}
		child, ok := r.current(ref.Child)
		if !ok {
			continue
		}
		ccols, err := columnIndexes(child, ref.Key.Columns)
		if err != nil {
			return nil, err
		}
		orphans, newRow := vanishedKeys(ch, parent, pcols, child, ccols)
		if len(orphans) == 0 {
			continue
		}
		if ch.depth >= maxCascadeDepth {
			return nil, &catalog.ConstraintError{Code: 3008, Msg: fmt.Sprintf("Foreign key cascade delete/update exceeds max depth of %d.", maxCascadeDepth)}
		}
		next, err := applyAction(ref, child, ccols, parent, pcols, orphans, newRow)
		if err != nil {
			return nil, err
		}
		k := strings.ToLower(child.Name)
		if _, seen := r.base[k]; !seen && k != r.root {
			r.base[k] = child
			r.order = append(r.order, k)
		}
		r.pending[k] = next
		// SET NULL and ON UPDATE CASCADE change child rows in place; a
		// cascaded DELETE removes them.
		inPlace := next.Rows == child.Rows
		more = append(more, fkChange{name: child.Name, old: child, new: next, depth: ch.depth + 1, inPlace: inPlace})
	}
	return more, nil
}

// vanishedKeys finds the child rows whose parent row the statement took
// away. For an in-place change (UPDATE) that is each parent row whose key
// changed, and newRow gives that row (ON UPDATE applies, with its new
// key); otherwise each key old held and parent no longer does, newRow -1
// (ON DELETE). A key missing from old too is an orphan from before
// foreign_key_checks = 0, left alone.
func vanishedKeys(ch fkChange, parent *columnar.Table, pcols []int, child *columnar.Table, ccols []int) (orphans, newRow []int) {
	old := ch.old
	if old == nil || old.Rows == 0 || ch.from > 0 && len(ch.deleted) == 0 {
		return nil, nil // nothing old, or an append: no parent row went
	}
	ocols, err := columnIndexes(old, namesOf(parent, pcols))
	if err != nil {
		return nil, nil
	}
	var gone map[string]int // old key → the parent row now in its place, or -1
	if ch.inPlace && old.Rows <= parent.Rows {
		gone = changedKeys(old, ocols, parent, pcols)
	} else {
		gone = lostKeys(old, ocols, parent, pcols)
	}
	for _, r := range ch.deleted {
		if k, ok := catalog.KeyOf(old, ocols, r); ok {
			gone[k] = -1
		}
	}
	if len(gone) == 0 {
		return nil, nil // an INSERT into the parent, or a change of other columns
	}
	var buf []byte
	for row := 0; row < child.Rows; row++ {
		var ok bool
		if buf, ok = catalog.AppendKey(buf[:0], child, ccols, row); !ok {
			continue
		}
		if pr, hit := gone[string(buf)]; hit {
			orphans = append(orphans, row)
			newRow = append(newRow, pr)
		}
	}
	return orphans, newRow
}

// changedKeys maps the old keys of the rows whose key an in-place change
// changed to those rows.
func changedKeys(old *columnar.Table, ocols []int, parent *columnar.Table, pcols []int) map[string]int {
	out := map[string]int{}
	for pr := 0; pr < old.Rows; pr++ {
		ok, okOld := catalog.KeyOf(old, ocols, pr)
		nk, okNew := catalog.KeyOf(parent, pcols, pr)
		if okOld && (!okNew || ok != nk) {
			out[ok] = pr
		}
	}
	return out
}

// lostKeys are the keys old held and parent no longer does (-1: deleted).
func lostKeys(old *columnar.Table, ocols []int, parent *columnar.Table, pcols []int) map[string]int {
	keys := keySet(parent, pcols)
	out := map[string]int{}
	for pr := 0; pr < old.Rows; pr++ {
		if k, ok := catalog.KeyOf(old, ocols, pr); ok {
			if _, kept := keys[k]; !kept {
				out[k] = -1
			}
		}
	}
	return out
}

func namesOf(t *columnar.Table, cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = t.Fields[c].Name
	}
	return out
}

// applyAction returns child after ref's action on the orphaned rows.
func applyAction(ref catalog.Reference, child *columnar.Table, ccols []int, parent *columnar.Table, pcols []int, orphans, newRow []int) (*columnar.Table, error) {
	var deleted, updated []int // indexes into orphans
	for i := range orphans {
		if newRow[i] < 0 {
			deleted = append(deleted, i)
		} else {
			updated = append(updated, i)
		}
	}
	out := child
	if len(updated) > 0 {
		var err error
		if out, err = applyRule(ref, ref.Key.OnUpdate, out, ccols, parent, pcols, pick(orphans, updated), pick(newRow, updated)); err != nil {
			return nil, err
		}
	}
	if len(deleted) > 0 {
		var err error
		if out, err = applyRule(ref, ref.Key.OnDelete, out, ccols, parent, pcols, pick(orphans, deleted), nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// applyRule applies one action to rows of child; parentRows (UPDATE only)
// are the parent rows with the new keys.
func applyRule(ref catalog.Reference, action string, child *columnar.Table, ccols []int, parent *columnar.Table, pcols []int, rows, parentRows []int) (*columnar.Table, error) {
	switch {
	case action == catalog.SetNull:
		return setKeyColumns(child, ccols, rows, nil, nil)
	case action == catalog.CascadeAction && parentRows == nil:
		return deleteRows(child, rows), nil
	case action == catalog.CascadeAction:
		return setKeyColumns(child, ccols, rows, parent, gatherKeys(parent, pcols, parentRows))
	}
	return nil, catalog.ParentRowError(sql.DatabaseName, ref.Child, ref.Key)
}

// setKeyColumns returns t with the key columns of rows set to vals[i]
// (a column per key column, in rows order), or to NULL when vals is nil.
func setKeyColumns(t *columnar.Table, cols, rows []int, parent *columnar.Table, vals []*columnar.Column) (*columnar.Table, error) {
	out := &columnar.Table{Name: t.Name, Fields: t.Fields, Rows: t.Rows, Columns: append([]*columnar.Column(nil), t.Columns...)}
	diff := make([]bool, len(rows))
	for i, c := range cols {
		f := t.Fields[c]
		src := columnar.NewColumn(f.Type, len(rows), true) // all NULL
		if vals != nil {
			src = vals[i]
		} else if f.Type.ID == columnar.String {
			src.Dict = columnar.BuildDictionary(nil)
		}
		col, err := setColumn(t.Columns[c], rows, src, f, diff)
		if err != nil {
			return nil, fmt.Errorf("foreign key cascade into %s: %w", t.Name, err)
		}
		out.Columns[c] = col
	}
	columnar.ComputeStats(out)
	return out, nil
}

// gatherKeys copies the key columns of rows of t.
func gatherKeys(t *columnar.Table, cols, rows []int) []*columnar.Column {
	out := make([]*columnar.Column, len(cols))
	for i, c := range cols {
		out[i] = gatherColumn(t.Columns[c], rows)
	}
	return out
}

// deleteRows is t without rows (sorted ascending).
func deleteRows(t *columnar.Table, rows []int) *columnar.Table {
	drop := make(map[int]bool, len(rows))
	for _, r := range rows {
		drop[r] = true
	}
	keep := make([]int, 0, t.Rows-len(rows))
	for r := 0; r < t.Rows; r++ {
		if !drop[r] {
			keep = append(keep, r)
		}
	}
	return gatherTable(t, keep)
}

func pick(xs, at []int) []int {
	out := make([]int, len(at))
	for i, k := range at {
		out[i] = xs[k]
	}
	return out
}

// keySet holds the keys of t's rows over cols (rows with a NULL left out).
func keySet(t *columnar.Table, cols []int) map[string]int {
	keys := make(map[string]int, t.Rows)
	for row := 0; row < t.Rows; row++ {
		if k, ok := catalog.KeyOf(t, cols, row); ok {
			keys[k] = row
		}
	}
	return keys
}

// columnIndexes resolves a key's column names in t.
func columnIndexes(t *columnar.Table, names []string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = -1
		for j, f := range t.Fields {
			if strings.EqualFold(f.Name, n) {
				out[i] = j
			}
		}
		if out[i] < 0 {
			return nil, fmt.Errorf("foreign key column '%s' is missing from table %s", n, t.Name)
		}
	}
	return out, nil
}
