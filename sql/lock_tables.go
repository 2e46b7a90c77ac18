package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// LockTables is LOCK TABLES t READ | WRITE, ...; UnlockTables is UNLOCK
// TABLES. Scripts and mysqldump's output wrap their inserts in them. In
// gpusql every statement's change of a table is one atomic swap of its
// snapshot, so the locks take nothing: LOCK TABLES checks the tables
// exist and, as in MySQL, commits the open transaction; other sessions
// are not made to wait. The locking session is held to what it locked,
// as MySQL holds it (engine/lock_tables.go): Write[i] tells whether
// Tables[i] was locked WRITE (or WRITE LOCAL), not READ.
type LockTables struct {
	Tables []string
	Write  []bool
}

// UnlockTables ends LOCK TABLES.
type UnlockTables struct{}

func (*LockTables) statement()   {}
func (*UnlockTables) statement() {}

func (b *binder) lockTables(n *ast.LockTablesStmt) (Statement, error) {
	st := &LockTables{}
	for _, l := range n.TableLocks {
		t, err := b.table(l.Table)
		if err != nil {
			return nil, err
		}
		st.Tables = append(st.Tables, t.Name)
		st.Write = append(st.Write, l.Type == ast.TableLockWrite || l.Type == ast.TableLockWriteLocal)
	}
	return st, nil
}

// KeysToggle is ALTER TABLE t DISABLE KEYS or ENABLE KEYS, which dumps
// wrap around a table's inserts: MySQL's InnoDB ignores it with Note 1031
// ("Table storage engine for 't' doesn't have this option"), and so does
// gpusql, whose indexes are kept current by every write.
type KeysToggle struct{ Table string }

func (*KeysToggle) statement() {}
