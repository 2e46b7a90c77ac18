package engine

import (
	"fmt"
	"strings"

	"gpusql/exec"
	"gpusql/sql"
)

// showMoreColumns are the columns of the SHOW statements that list what
// gpusql does not have (sql/show_more.go): no rows, MySQL 8's names.
var showMoreColumns = map[string][]string{
	"triggers": {"Trigger", "Event", "Table", "Statement", "Timing", "Created", "sql_mode", "Definer",
		"character_set_client", "collation_connection", "Database Collation"},
	"procedure status": {"Db", "Name", "Type", "Definer", "Modified", "Created", "Security_type", "Comment",
		"character_set_client", "collation_connection", "Database Collation"},
	"events": {"Db", "Name", "Definer", "Time zone", "Type", "Execute at", "Interval value", "Interval field",
		"Starts", "Ends", "Status", "Originator", "character_set_client", "collation_connection", "Database Collation"},
}

// showMore answers sql/show_more.go's statements; ok is false for the
// others.
func (db *DB) showMore(s *sql.ShowCatalogTable) (*StatementResult, bool) {
	var names, row []string
	switch s.What {
	case "create view":
		v, _ := db.cat.View(s.Name)
		names = []string{"View", "Create View", "character_set_client", "collation_connection"}
		algorithm := "UNDEFINED"
		if v.Temptable {
			algorithm = "TEMPTABLE"
		}
		// The column list, where CREATE VIEW gave one, as MySQL prints it:
		// the text must read back into the same view.
		cols := viewColumnList(v.Columns, ",")
		row = []string{v.Name, fmt.Sprintf("CREATE ALGORITHM=%s DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW %s%s AS %s", algorithm, quoteIdent(v.Name), cols, v.SQL),
			"utf8mb4", "utf8mb4_0900_ai_ci"}
	case "create database":
		names = []string{"Database", "Create Database"}
		row = []string{s.Name, fmt.Sprintf("CREATE DATABASE `%s` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE %s */ /*!80016 DEFAULT ENCRYPTION='N' */", s.Name, sql.DatabaseCollation)}
	case "function status":
		names = showMoreColumns["procedure status"]
	default:
		cols, ok := showMoreColumns[s.What]
		if !ok {
			return nil, false
		}
		names = cols
	}
	res := &exec.Result{Names: names}
	for i := range names {
		var vals []string
		if row != nil {
			vals = []string{row[i]}
		}
		res.Columns = append(res.Columns, stringColumn(vals))
	}
	if row != nil {
		res.Rows = 1
	}
	return &StatementResult{Kind: KindRows, Result: res}, true
}

// viewColumnList is a view's column list as CREATE VIEW writes it, " (`a`,
// `b`)" with sep between the names; "" when the view names none.
func viewColumnList(cols []string, sep string) string {
	if len(cols) == 0 {
		return ""
	}
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return " (" + strings.Join(q, sep) + ")"
}
