package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/internal/mysqljson"
	"gpusql/storage/columnar"
)

// jtType is the column type a JSON_TABLE column declares.
func jtType(c jtColumn) (columnar.Type, error) {
	stmt, err := parser.New().ParseOneStmt("CREATE TABLE t (c "+c.typ+")", "", "")
	if err != nil {
		return columnar.Type{}, fmt.Errorf("JSON_TABLE: bad type %q of column %s", c.typ, c.name)
	}
	ct, ok := stmt.(*ast.CreateTableStmt)
	if !ok || len(ct.Cols) != 1 {
		return columnar.Type{}, fmt.Errorf("JSON_TABLE: bad type %q of column %s", c.typ, c.name)
	}
	t, bad := columnType(ct.Cols[0].Tp)
	if bad != "" {
		return columnar.Type{}, fmt.Errorf("unsupported: %s (JSON_TABLE column %s)", bad, c.name)
	}
	return t, nil
}

// jsonTable binds file source fs, a JSON_TABLE call, to a temporary table.
func (b *binder) jsonTable(fs fileSource, alias string) (Plan, []scopeCol, error) {
	spec, err := parseJSONTable(fs.text)
	if err != nil {
		return nil, nil, b.errf(fs.pos, "%v", err)
	}
	if alias == "" {
		return nil, nil, b.errf(fs.pos, "Every table function must have an alias.")
	}
	if strings.HasPrefix(spec.doc, "@") && !strings.HasPrefix(spec.doc, "@@") && b.vars != nil {
		// SET @j = '[...]'; ... JSON_TABLE(@j, ...): the variable's text
		// now (a NULL one gives no rows).
		v, ok := b.vars.Get(strings.TrimSpace(spec.doc[1:]))
		switch {
		case !ok || v.Null:
			spec.doc = "'[]'"
			spec.path = "'$.none'"
		case v.T.ID == columnar.String:
			spec.doc = "'" + strings.ReplaceAll(strings.ReplaceAll(v.S, `\`, `\\`), "'", "''") + "'"
		}
	}
	t, err := buildJSONTable(spec, alias)
	if err != nil {
		return nil, nil, b.errf(fs.pos, "%v", err)
	}
	scan := newScan(t, alias)
	names := make([]string, len(scan.Out))
	for i, c := range scan.Out {
		names[i] = c.Name
	}
	return scan, qualify(names, alias), nil
}

// buildJSONTable evaluates spec, over its literal document, into a table
// named alias.
func buildJSONTable(spec jsonTableSpec, alias string) (*columnar.Table, error) {
	doc, ok := literalString(spec.doc)
	if !ok {
		return nil, fmt.Errorf("unsupported: JSON_TABLE over %s (the document must be a string literal or a user variable)", spec.doc)
	}
	return buildJSONTableFrom(spec, alias, []string{doc}, false)
}

// buildJSONTableDocs evaluates spec over each of docs, each row led by
// its document's text (jsonTableDocColumn; json_table_lateral.go).
func buildJSONTableDocs(spec jsonTableSpec, alias string, docs []string) (*columnar.Table, error) {
	return buildJSONTableFrom(spec, alias, docs, true)
}

// maxJSONTableRows bounds the rows a JSON_TABLE builds at bind time,
// outside the executors' memory accounting (at most a few hundred MiB).
const maxJSONTableRows = 1 << 22

func buildJSONTableFrom(spec jsonTableSpec, alias string, docs []string, withDoc bool) (*columnar.Table, error) {
	pathText, ok := literalString(spec.path)
	if !ok {
		return nil, fmt.Errorf("JSON_TABLE: the path must be a string literal")
	}
	pt, err := mysqljson.ParsePath(pathText)
	if err != nil {
		return nil, err
	}
	if err := unquotePaths(spec.cols); err != nil {
		return nil, err
	}
	width := jtLayout(spec.cols, 0)
	flat := jtFlat(spec.cols)
	var fields []columnar.Field
	if withDoc {
		fields = append(fields, columnar.Field{Name: jsonTableDocColumn, Type: columnar.TString, Nullable: true})
		flat = append([]jtColumn{{name: jsonTableDocColumn}}, flat...)
	}
	for _, c := range flat[len(fields):] {
		t, err := jtType(c)
		if err != nil {
			return nil, err
		}
		fields = append(fields, columnar.Field{Name: c.name, Type: t, Nullable: true})
	}
	ev := &jtEval{width: width, table: alias}
	var rows [][]*string
	for _, doc := range docs {
		v, err := mysqljson.Parse(doc)
		if err != nil {
			return nil, fmt.Errorf("Invalid JSON text in argument 1 to function json_table: %v.", err)
		}
		for i, m := range pt.Seek(v) {
			r, err := ev.rows(spec.cols, m.Val, i+1)
			if err != nil {
				return nil, err
			}
			if len(rows)+len(r) > maxJSONTableRows {
				return nil, fmt.Errorf("JSON_TABLE %s: more than %d rows (it is built in memory as the statement is bound; filter the documents first)", alias, maxJSONTableRows)
			}
			for _, row := range r {
				if withDoc {
					d := doc
					row = append([]*string{&d}, row...)
				}
				rows = append(rows, row)
			}
		}
	}
	return jtColumns(alias, fields, flat, rows)
}

// unquotePaths reads the path literals of cols in place.
func unquotePaths(cols []jtColumn) error {
	for i := range cols {
		c := &cols[i]
		if c.ordinality {
			continue
		}
		p, ok := literalString(c.path)
		if !ok {
			return fmt.Errorf("JSON_TABLE: the path of column %s must be a string literal", c.name)
		}
		c.path = p
		if c.isNested {
			if err := unquotePaths(c.nested); err != nil {
				return err
			}
		}
	}
	return nil
}

// jtColumns builds the table's columns from the rows' texts; a text the
// column's type cannot read is the column's ON ERROR (NULL by default).
func jtColumns(alias string, fields []columnar.Field, flat []jtColumn, rows [][]*string) (*columnar.Table, error) {
	t := &columnar.Table{Name: alias, Fields: fields, Rows: len(rows)}
	ev := &jtEval{table: alias}
	for j, f := range fields {
		bld := columnar.NewBuilder(f.Type)
		for _, r := range rows {
			v := r[j]
			if v != nil && f.Type.ID == columnar.String { // length, UTF-8, JSON text
				if s, err := f.Type.FitString(*v); err == nil {
					v = &s
				} else if v, err = ev.onError(flat[j], err); err != nil {
					return nil, err
				}
			}
			if v == nil {
				bld.AppendNull()
				continue
			}
			if err := bld.AppendText([]byte(*v)); err != nil {
				d, err := ev.onError(flat[j], fmt.Errorf("Invalid value for JSON_TABLE column '%s': %v", flat[j].name, err))
				if err != nil {
					return nil, err
				}
				if d == nil || bld.AppendText([]byte(*d)) != nil {
					bld.AppendNull()
				}
			}
		}
		col := bld.Column()
		columnar.RoundStoredFloats(col, 0) // FLOAT, FLOAT(M,D) columns
		t.Columns = append(t.Columns, col)
	}
	columnar.ComputeStats(t)
	return t, nil
}
