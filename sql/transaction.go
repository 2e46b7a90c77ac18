package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Begin starts a transaction (BEGIN, START TRANSACTION); ReadOnly is START
// TRANSACTION READ ONLY, under which writes fail.
type Begin struct{ ReadOnly bool }

// Commit makes the open transaction's changes visible to every session.
type Commit struct{}

// Rollback discards the open transaction's changes.
type Rollback struct{}

func (*Begin) statement()    {}
func (*Commit) statement()   {}
func (*Rollback) statement() {}

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
		return nil, b.errf(b.start, "unsupported: ROLLBACK TO SAVEPOINT (gpusql has no savepoints)")
	case n.CompletionType != ast.CompletionTypeDefault:
		return nil, b.errf(b.start, "unsupported: ROLLBACK AND CHAIN / RELEASE")
	}
	return &Rollback{}, nil
}
