package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// multiUpdate binds UPDATE t1 JOIN t2 ... SET ... [WHERE ...] (see
// dml_multi.go): every value is bound over the joined row.
func (b *binder) multiUpdate(n *ast.UpdateStmt) (Statement, error) {
	if err := b.multiRefused("UPDATE", n.Order, n.Limit); err != nil {
		return nil, err
	}
	pop, err := b.pushCTEs(n.With) // WITH ... UPDATE: a CTE may be joined or read by a subquery
	if err != nil {
		return nil, err
	}
	defer pop()
	sc, sources, err := b.multiTableScope(n.TableRefs, n.Where)
	if err != nil {
		return nil, err
	}
	sets, err := b.multiAssignments(sc, sources, n.List)
	if err != nil {
		return nil, err
	}
	self := []ast.Node{n.Where, n.TableRefs.TableRefs}
	for _, a := range n.List {
		self = append(self, a.Expr)
	}
	u := &MultiUpdate{}
	var out []Expr
	var outNames []string
	for _, src := range sources {
		s := sets[src]
		if s == nil {
			continue
		}
		for _, t := range u.Targets {
			if strings.EqualFold(t.Table, src.table.Name) {
				return nil, b.errf(b.start, "unsupported: table %s is updated under two names in one UPDATE", t.Table)
			}
		}
		if err := b.selfReference(src.table.Name, self...); err != nil {
			return nil, err
		}
		t := UpdateTarget{Table: src.table.Name, Snapshot: src.table, RowID: len(out), Columns: s.cols}
		out = append(out, rowIDRef(sc, src.alias))
		outNames = append(outNames, src.alias+" "+RowIDColumn)
		for _, k := range s.cols {
			f := src.table.Fields[k]
			e := s.vals[k]
			// The engine stores numbers, not text; it reads a TIME's text
			// itself, a constant's too, naming column and row (outside
			// strict mode the limit with 1264, not a cast's 1292).
			if e.Type().ID == columnar.String && f.Type.ID != columnar.String && f.Type.ID != columnar.Time {
				e = storeCast(e, f.Type)
			}
			t.Values = append(t.Values, len(out))
			out = append(out, e)
			outNames = append(outNames, src.alias+"."+f.Name)
		}
		for k, f := range src.table.Fields {
			if f.OnUpdateNow && !containsInt(s.cols, k) {
				t.Touch = append(t.Touch, k)
				u.Now = b.stmtMicros(columnar.MaxFsp)
			}
		}
		u.Targets = append(u.Targets, t)
	}
	u.Source = newProject(sc.plan, out, outNames)
	return u, nil
}

// assigned are the SET assignments to one table: the columns in first
// assigned order, and each one's value (the last assignment's).
type assigned struct {
	cols []int
	vals map[int]Expr
}

// multiAssignments binds SET [q.]c = v, ... of a multi-table UPDATE, every
// value over the joined row sc, grouped by the table assigned.
func (b *binder) multiAssignments(sc *scope, sources []*dmlSource, list []*ast.Assignment) (map[*dmlSource]*assigned, error) {
	sets := map[*dmlSource]*assigned{}
	for _, a := range list {
		src, k, err := b.multiAssignTarget(sc, sources, a.Column)
		if err != nil {
			return nil, err
		}
		e, err := b.assignValue(src.table, src.table.Fields[k], a.Expr, sc)
		if err != nil {
			return nil, err
		}
		s := sets[src]
		if s == nil {
			s = &assigned{vals: map[int]Expr{}}
			sets[src] = s
		}
		if _, ok := s.vals[k]; !ok {
			s.cols = append(s.cols, k)
		}
		s.vals[k] = e
	}
	return sets, nil
}

// multiAssignTarget finds the table and column SET [q.]c = ... names: a
// qualified name by the table's alias (or name), an unqualified one in the
// only table that has such a column.
func (b *binder) multiAssignTarget(sc *scope, sources []*dmlSource, c *ast.ColumnName) (*dmlSource, int, error) {
	pos := b.wordPos(c.Name.O, b.findWord("SET", b.start))
	if q := c.Table.O; q != "" {
		src := findSource(sources, q)
		if src == nil {
			if err := b.notUpdatable(sc, q, "UPDATE", pos); err != nil {
				return nil, 0, err
			}
			return nil, 0, b.errCode(pos, ErBadField, "Unknown column '%s.%s' in 'field list'", q, c.Name.O)
		}
		k, err := b.assignTarget(src.table, src.alias, c)
		return src, k, err
	}
	var found *dmlSource
	k := -1
	for _, src := range sources {
		for i, f := range src.table.Fields {
			if !strings.EqualFold(f.Name, c.Name.O) {
				continue
			}
			if found != nil {
				return nil, 0, b.errCode(pos, ErNonUniqError, "Column '%s' in field list is ambiguous", c.Name.O)
			}
			found, k = src, i
		}
	}
	if found == nil {
		return nil, 0, b.errCode(pos, ErBadField, "Unknown column '%s' in 'field list'", c.Name.O)
	}
	return found, k, nil
}
