package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// ParamColumnNames gives the result column names MySQL uses for a
// prepared SELECT's items that hold '?' placeholders. MySQL names an
// unaliased item by its text as written at PREPARE, so SELECT ? + 1 is
// column `? + 1` whatever the value; gpusql substitutes the values as
// literals before binding, which would name it `1 + 1`. The map is by
// result column position; nil where nothing needs renaming, or where a
// * makes positions unknown before binding.
func ParamColumnNames(query string) map[int]string {
	if Placeholders(query) == 0 {
		return nil
	}
	ps, err := Parse(query)
	if err != nil || len(ps) != 1 {
		return nil
	}
	var sel *ast.SelectStmt
	switch n := ps[0].Node.(type) {
	case *ast.SelectStmt:
		sel = n
	case *ast.SetOprStmt: // a UNION is named by its first SELECT
		if n.SelectList != nil && len(n.SelectList.Selects) > 0 {
			sel, _ = n.SelectList.Selects[0].(*ast.SelectStmt)
		}
	}
	if sel == nil || sel.Fields == nil {
		return nil
	}
	var names map[int]string
	for i, f := range sel.Fields.Fields {
		if f.WildCard != nil {
			return nil
		}
		text := strings.TrimSpace(f.Text())
		if f.AsName.O != "" || Placeholders(text) == 0 {
			continue
		}
		if names == nil {
			names = map[int]string{}
		}
		names[i] = text
	}
	return names
}

// RenameColumns is names with ParamColumnNames' map applied, a copy where
// it changes anything: the names may be a cached plan's, shared with the
// same text run unprepared.
func RenameColumns(names []string, written map[int]string) []string {
	if len(written) == 0 {
		return names
	}
	out := append([]string(nil), names...)
	for i, n := range written {
		if i < len(out) {
			out[i] = n
		}
	}
	return out
}
