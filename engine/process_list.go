package engine

import (
	"sort"

	"gpusql/exec"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// processList renders SHOW [FULL] PROCESSLIST in MySQL's columns: Id, User,
// Host, db, Command, Time, State, Info (NULL for an idle connection; cut
// to 100 characters unless FULL), by connection id.
func processList(ps []Process, full bool) *StatementResult {
	sort.Slice(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
	n := len(ps)
	id := columnar.NewColumn(columnar.TInt64, n, false)
	secs := columnar.NewColumn(columnar.TInt64, n, false)
	users, hosts, dbs, cmds, states, infos := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	idle := make([]bool, n)
	for i, p := range ps {
		id.I64[i], secs.I64[i] = int64(p.ID), p.Seconds
		users[i], hosts[i], dbs[i], cmds[i] = p.User, "", sql.DatabaseName, p.Command
		if p.Info == "" {
			idle[i] = true
			continue
		}
		states[i], infos[i] = "executing", p.Info
		if r := []rune(p.Info); !full && len(r) > 100 {
			infos[i] = string(r[:100])
		}
	}
	res := &exec.Result{Rows: n,
		Names:   []string{"Id", "User", "Host", "db", "Command", "Time", "State", "Info"},
		Columns: []*columnar.Column{id, stringColumn(users), stringColumn(hosts), stringColumn(dbs), stringColumn(cmds), secs, stringColumn(states), nullableStringColumn(infos, idle)}}
	return &StatementResult{Kind: KindRows, Result: res}
}
