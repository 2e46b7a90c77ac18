package sql

import "github.com/pingcap/tidb/pkg/parser/ast"

// AnalyzeTable is ANALYZE TABLE: statistics are kept current by every
// statement that changes a table, so it only checks the tables exist and
// answers in MySQL's shape (Table, Op, Msg_type, Msg_text).
type AnalyzeTable struct{ Tables []string }

func (*AnalyzeTable) statement() {}

func (b *binder) analyzeTable(n *ast.AnalyzeTableStmt) (Statement, error) {
	st := &AnalyzeTable{}
	for _, tn := range n.TableNames {
		t, err := b.table(tn)
		if err != nil {
			return nil, err
		}
		st.Tables = append(st.Tables, t.Name)
	}
	return st, nil
}
