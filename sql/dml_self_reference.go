package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// selfReference rejects an UPDATE or DELETE whose WHERE or SET reads the
// table it changes through a subquery, as MySQL does (error 1093):
//
//	DELETE FROM t WHERE a IN (SELECT a FROM t WHERE b > 5)
//
// fails with "You can't specify target table 't' for update in FROM
// clause". MySQL refuses it because the subquery would read rows the
// statement is changing; gpusql reads a snapshot and could answer, but
// an answer where MySQL gives an error is not MySQL's behaviour. A derived
// table is materialized before the change (FROM (SELECT a FROM t) AS x), so
// MySQL allows the table there, and so does this check.
func (b *binder) selfReference(table string, nodes ...ast.Node) error {
	var err error
	for _, n := range nodes {
		walkAST(n, func(x ast.Node) bool {
			sq, ok := x.(*ast.SubqueryExpr)
			if !ok || err != nil {
				return err == nil
			}
			walkAST(sq.Query, func(y ast.Node) bool {
				switch y := y.(type) {
				case *ast.TableSource:
					if _, named := y.Source.(*ast.TableName); !named {
						return false // a derived table: materialized first
					}
				case *ast.TableName:
					if err == nil && strings.EqualFold(y.Name.O, table) {
						err = b.errCode(b.start, ErUpdateTableUsed, "You can't specify target table '%s' for update in FROM clause", y.Name.O)
					}
				}
				return err == nil
			})
			return false
		})
	}
	return err
}
