package engine

import (
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// SHOW [GLOBAL | SESSION] STATUS [LIKE '...']: MySQL's server status
// counters that mean something here. Uptime is the seconds since the
// database opened; Questions and Queries count the statements clients
// sent (the SHOW STATUS itself included, as MySQL counts it), Com_select,
// Com_insert, Com_replace, Com_update, Com_delete and Com_set_option those
// of each kind; GLOBAL sums every connection of the database, SESSION
// (the default, as in MySQL) the asking connection's. A server adds
// Threads_connected, Connections, Max_used_connections, Bytes_received and
// Bytes_sent (SessionOptions.Status); without one, the asking connection
// is the one thread connected and no bytes travel.

// statusCounters count the statements of a connection or a database.
type statusCounters struct {
	questions, selects, inserts, replaces, updates, deletes, sets atomic.Int64
}

// count notes one statement of node's kind.
func (s *statusCounters) count(node ast.StmtNode) {
	s.questions.Add(1)
	switch n := node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		s.selects.Add(1)
	case *ast.InsertStmt:
		if n.IsReplace {
			s.replaces.Add(1)
		} else {
			s.inserts.Add(1)
		}
	case *ast.UpdateStmt:
		s.updates.Add(1)
	case *ast.DeleteStmt:
		s.deletes.Add(1)
	case *ast.SetStmt:
		s.sets.Add(1)
	}
}

func (s *statusCounters) values() map[string]int64 {
	q := s.questions.Load()
	return map[string]int64{"Questions": q, "Queries": q, "Com_select": s.selects.Load(),
		"Com_insert": s.inserts.Load(), "Com_replace": s.replaces.Load(), "Com_update": s.updates.Load(),
		"Com_delete": s.deletes.Load(), "Com_set_option": s.sets.Load()}
}

// countStatement notes a statement in the connection's and the database's
// counters.
func (c *Conn) countStatement(node ast.StmtNode) {
	c.status.count(node)
	c.db.status.count(node)
}

// showStatus answers SHOW [GLOBAL | SESSION] STATUS [LIKE pattern].
func (c *Conn) showStatus(s *sql.ShowStatus) *StatementResult {
	vals := c.status.values()
	if s.Global {
		vals = c.db.status.values()
	}
	uptime := int64(time.Since(c.db.opened).Seconds())
	vals["Uptime"], vals["Uptime_since_flush_status"] = uptime, uptime
	vals["Threads_connected"], vals["Connections"], vals["Max_used_connections"] = 1, 1, 1
	vals["Bytes_received"], vals["Bytes_sent"] = 0, 0
	if c.opts.Status != nil {
		for k, v := range c.opts.Status(s.Global) {
			vals[k] = v
		}
	}
	names := make([]string, 0, len(vals))
	for n := range vals {
		if s.Pattern == "" || sql.LikeMatch(strings.ToLower(n), strings.ToLower(s.Pattern)) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	values := make([]string, len(names))
	for i, n := range names {
		values[i] = strconv.FormatInt(vals[n], 10)
	}
	return &StatementResult{Kind: KindRows, Result: &exec.Result{
		Names:   []string{"Variable_name", "Value"},
		Columns: []*columnar.Column{stringColumn(names), stringColumn(values)},
		Rows:    len(names),
	}}
}
