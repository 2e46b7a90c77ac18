package sql

import (
	"strings"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// QueryReads are what binding a query took from outside its text and the
// session's settings, so that a cache of bound plans (engine/plan_cache.go)
// can tell whether binding the same text again would give the same plan:
// the table snapshots and views it resolved, by lower-cased name. Binding
// reads a table's snapshot, dictionaries and statistics as they are at
// that moment (string literals become the snapshot's dictionary codes),
// so a plan is valid exactly while every name still resolves to the same
// snapshot or view definition.
//
// Volatile names the first construct whose bound value may differ on the
// next run of the same text — the clock (NOW(), CURDATE()), a user
// variable, a system variable, the connection (CONNECTION_ID(), USER()),
// a file in FROM, information_schema, WITH RECURSIVE — all fixed as
// constants or temporary tables at bind time; "" when there is none. Such
// a query must be bound afresh on every run.
//
// Locking is set by a locking read (SELECT ... FOR UPDATE, FOR SHARE, LOCK
// IN SHARE MODE): inside a transaction the tables the query reads then
// join the tables its COMMIT checks for other sessions' changes
// (catalog.Publish), which is what such a read guarantees under snapshot
// isolation: no other session's change to what it read can commit in
// between unnoticed. Nothing waits (NOWAIT and SKIP LOCKED change
// nothing), and outside a transaction it is a plain read.
type QueryReads struct {
	Tables   map[string]*columnar.Table
	Views    map[string]catalog.View
	Volatile string
	Locking  bool
}

func (r *QueryReads) table(t *columnar.Table) {
	if r.Tables == nil {
		r.Tables = map[string]*columnar.Table{}
	}
	r.Tables[strings.ToLower(t.Name)] = t
}

func (r *QueryReads) view(v catalog.View) {
	if r.Views == nil {
		r.Views = map[string]catalog.View{}
	}
	r.Views[strings.ToLower(v.Name)] = v
}

// volatile records why the statement must be bound on every run (the
// first reason is kept).
func (b *binder) volatile(why string) {
	if b.reads.Volatile == "" {
		b.reads.Volatile = why
	}
}
