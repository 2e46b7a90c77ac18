package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// VariableRows are SHOW [GLOBAL] VARIABLES' rows, in name order: each
// variable whose name matches pattern (LIKE; "" all) and its value as
// text. autocommit is the connection's; global shows the global time zone
// and limits.
func (s *Session) VariableRows(pattern string, autocommit, global bool) (names, values []string) {
	for _, n := range s.Variables() {
		if pattern != "" && !LikeMatch(n, strings.ToLower(pattern)) || global && sessionOnlyVariables[n] {
			continue
		}
		v, _ := s.Variable(n)
		if n == "autocommit" && !autocommit {
			v = &Const{T: columnar.TInt64, I: 0}
		}
		if g, ok := s.GlobalVariable(n); ok && global {
			v = g
		}
		names = append(names, n)
		switch {
		case switchVariables[n] && !v.Null && v.T.IsInteger() && (v.I == 0 || v.I == 1):
			values = append(values, [2]string{"OFF", "ON"}[v.I])
		case v.Null:
			values = append(values, "")
		case v.T.ID == columnar.String:
			values = append(values, v.S)
		default:
			values = append(values, v.String())
		}
	}
	return names, values
}

// sessionOnlyVariables have no global value in MySQL 8 (sys_var
// ONLY_SESSION): @@global.name is 1238 and SHOW GLOBAL VARIABLES leaves
// them out. sql_log_bin is not one: MySQL declares it a session variable
// with a global default, which SHOW GLOBAL VARIABLES lists though
// @@global.sql_log_bin is 1238 (set.go).
var sessionOnlyVariables = map[string]bool{
	"pseudo_thread_id": true, "warning_count": true, "error_count": true,
}

// sessionReadOnlyVariables have a session value that only the global one
// sets (sys_var SESSION_READONLY in MySQL 8): SET [SESSION] name is 1621,
// SET GLOBAL is accepted (gpusql ignores it: the server's packet limit is
// fixed).
var sessionReadOnlyVariables = map[string]bool{"max_allowed_packet": true, "net_buffer_length": true}

// switchVariables are MySQL's boolean variables: @@name reads 0 / 1, SHOW
// VARIABLES shows OFF / ON, as MySQL does.
var switchVariables = map[string]bool{
	"autocommit": true, "foreign_key_checks": true, "unique_checks": true,
	"transaction_read_only": true, "sql_log_bin": true, "sql_notes": true,
	"sql_warnings": true, "sql_safe_updates": true, "sql_auto_is_null": true,
	"explicit_defaults_for_timestamp": true, "performance_schema": true,
}

// showVariablesWhere binds SHOW [GLOBAL] VARIABLES WHERE as a SELECT over
// its rows with SHOW's column names, Variable_name and Value, as MySQL
// filters them (Connector/J 5.1 asks SHOW VARIABLES WHERE Variable_name =
// 'language' OR ...). The rows are the statement's, so its plan is never
// reused.
func (b *binder) showVariablesWhere(n *ast.ShowStmt) (Statement, error) {
	b.volatile("SHOW VARIABLES")
	autocommit := b.vars == nil || b.vars.Autocommit()
	names, values := b.session.VariableRows("", autocommit, n.GlobalScope)
	var rows strings.Builder
	for i := range names {
		if i > 0 {
			rows.WriteString(", ")
		}
		fmt.Fprintf(&rows, "ROW(%s, %s)", quoteString(names[i]), quoteString(values[i]))
	}
	// VALUES names its columns column_0, column_1 (a derived column list
	// is read by Parse into the Parsed, which this binder does not have).
	ps, err := Parse(fmt.Sprintf("SELECT * FROM (SELECT column_0 AS Variable_name, column_1 AS `Value` FROM (VALUES %s) AS v) AS show_rows", rows.String()))
	if err != nil {
		return nil, err
	}
	q := ps[0].Node.(*ast.SelectStmt)
	q.Where = n.Where
	return b.topQuery(q)
}
