package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Begin starts a transaction (BEGIN, START TRANSACTION); ReadOnly is START
// TRANSACTION READ ONLY, under which writes fail.
type Begin struct{ ReadOnly bool }

// Commit makes the open transaction's changes visible to every session.
type Commit struct{}

// Rollback discards the open transaction's changes.
type Rollback struct{}

// Savepoint marks the open transaction's state under Name (SAVEPOINT
// name); RollbackTo puts that state back (ROLLBACK TO [SAVEPOINT] name);
// ReleaseSavepoint forgets the mark (RELEASE SAVEPOINT name). Names are
// case-insensitive, as in MySQL: Name is lower case.
type Savepoint struct{ Name string }

// RollbackTo is ROLLBACK [WORK] TO [SAVEPOINT] name.
type RollbackTo struct{ Name string }

// ReleaseSavepoint is RELEASE SAVEPOINT name.
type ReleaseSavepoint struct{ Name string }

func (*Begin) statement()            {}
func (*Commit) statement()           {}
func (*Rollback) statement()         {}
func (*Savepoint) statement()        {}
func (*RollbackTo) statement()       {}
func (*ReleaseSavepoint) statement() {}

func (b *binder) begin(n *ast.BeginStmt) (Statement, error) {
	switch {
	case n.AsOf != nil:
		return nil, b.errf(b.start, "unsupported: START TRANSACTION ... AS OF")
	case n.Mode != "":
		return nil, b.errf(b.start, "unsupported: BEGIN %s (TiDB transaction modes)", n.Mode)
	}
	return &Begin{ReadOnly: n.ReadOnly}, nil
}

func (b *binder) commit(n *ast.CommitStmt) (Statement, error) {
	if n.CompletionType != ast.CompletionTypeDefault {
		return nil, b.errf(b.start, "unsupported: COMMIT AND CHAIN / RELEASE")
	}
	return &Commit{}, nil
}

func (b *binder) rollback(n *ast.RollbackStmt) (Statement, error) {
	switch {
	case n.SavepointName != "":
		return &RollbackTo{Name: strings.ToLower(n.SavepointName)}, nil
	case n.CompletionType != ast.CompletionTypeDefault:
		return nil, b.errf(b.start, "unsupported: ROLLBACK AND CHAIN / RELEASE")
	}
	return &Rollback{}, nil
}

func (b *binder) savepoint(n *ast.SavepointStmt) (Statement, error) {
	return &Savepoint{Name: strings.ToLower(n.Name)}, nil
}

func (b *binder) releaseSavepoint(n *ast.ReleaseSavepointStmt) (Statement, error) {
	return &ReleaseSavepoint{Name: strings.ToLower(n.Name)}, nil
}
