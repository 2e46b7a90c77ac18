package sql

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/storage/columnar"
)

// Prepared statements in SQL text: PREPARE name FROM 'text' | FROM @var,
// EXECUTE name [USING @a, @b, ...], DEALLOCATE | DROP PREPARE name. They
// live on the connection (engine.Conn) beside its user variables. The text
// is checked when it is prepared (it must parse, as one statement that is
// not itself PREPARE / EXECUTE / DEALLOCATE, whose tables and columns
// exist: checkPrepared) and bound afresh at each
// EXECUTE with the USING values written into its '?' placeholders as
// literals: the same substitution the database/sql driver and the server's
// binary protocol use (SubstituteParams), so a value has the type of its
// literal. Binding at EXECUTE also means a table created or altered after
// PREPARE is seen as it is then, as MySQL re-prepares on a schema change.

// Prepare stores Text under Name (lower case) on the connection, replacing
// a statement of that name. Params is the number of its '?' placeholders.
type Prepare struct {
	Name   string
	Text   string
	Params int
}

// Execute runs the statement prepared as Name with Args (the USING
// variables' values, in order) in its placeholders.
type Execute struct {
	Name string
	Args []*Const
}

// Deallocate drops the statement prepared as Name.
type Deallocate struct{ Name string }

func (*Prepare) statement()    {}
func (*Execute) statement()    {}
func (*Deallocate) statement() {}

func (b *binder) prepare(n *ast.PrepareStmt) (Statement, error) {
	text := n.SQLText
	if n.SQLVar != nil {
		v, err := b.userVariable(n.SQLVar, b.start)
		if err != nil {
			return nil, err
		}
		c := v.(*Const)
		if c.Null {
			return nil, b.errf(b.start, "PREPARE %s FROM @%s: the variable is NULL (SET it to the statement's text first)", n.Name, n.SQLVar.Name)
		}
		text = preparedText(c)
	}
	stmts, err := Parse(text)
	if code, msg := MySQLCode(err); code != 0 {
		// The text's own error, as MySQL gives it (1064 near its words).
		e := b.errCode(b.start, code, "%s", msg)
		e.Detail = "in the text of PREPARE " + n.Name
		return nil, e
	}
	if err != nil {
		return nil, b.errf(b.start, "PREPARE %s: %v", n.Name, err)
	}
	if len(stmts) > 1 {
		// MySQL's parser takes one statement and stops at what follows
		// its ';' (1064 near 'SELECT 2' at line 1).
		e := b.errCode(b.start, ErParse, "%s", parseErrorText(stmts[1].src[stmts[1].start:], 1))
		e.Detail = fmt.Sprintf("the text of PREPARE %s must be one statement; it has %d", n.Name, len(stmts))
		return nil, e
	}
	if len(stmts) != 1 {
		return nil, b.errf(b.start, "PREPARE %s: the text must be exactly one statement (it has %d)", n.Name, len(stmts))
	}
	switch stmts[0].Node.(type) {
	case *ast.PrepareStmt, *ast.ExecuteStmt, *ast.DeallocateStmt:
		e := b.errCode(b.start, ErUnsupportedPS, "This command is not supported in the prepared statement protocol yet")
		e.Detail = fmt.Sprintf("PREPARE %s: a prepared statement cannot be PREPARE, EXECUTE or DEALLOCATE", n.Name)
		return nil, e
	}
	if err := b.checkPrepared(n.Name, stmts[0]); err != nil {
		return nil, err
	}
	return &Prepare{Name: strings.ToLower(n.Name), Text: stmts[0].Text, Params: Placeholders(stmts[0].Text)}, nil
}

// checkPrepared resolves a prepared query's or write's names as MySQL does
// at PREPARE: it is bound with 0 in each placeholder, and an unknown table
// (1146), an unknown column (1054) or an ambiguous one (1052) is PREPARE's
// error. Other errors wait for EXECUTE, whose values may make or unmake
// them (LIMIT ?, a value a column cannot take).
func (b *binder) checkPrepared(name string, p Parsed) error {
	switch p.Node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
	default:
		return nil
	}
	text, err := substitute(p.Text, Placeholders(p.Text), func(int) (string, error) { return "0", nil })
	if err != nil {
		return nil
	}
	ps, err := Parse(text)
	if err != nil || len(ps) != 1 {
		return nil
	}
	_, err = BindConn(b.cat, b.session, b.vars, ps[0])
	switch code, msg := MySQLCode(err); code {
	case ErBadField, ErNoSuchTable, ErNonUniqError:
		e := b.errCode(b.start, code, "%s", msg)
		e.Detail = "in the text of PREPARE " + name
		return e
	}
	return nil
}

func (b *binder) execute(n *ast.ExecuteStmt) (Statement, error) {
	st := &Execute{Name: strings.ToLower(n.Name)}
	for _, u := range n.UsingVars {
		v, ok := u.(*ast.VariableExpr)
		if !ok || v.IsSystem {
			return nil, b.errf(b.start, "EXECUTE %s USING takes user variables (@name)", n.Name)
		}
		e, err := b.userVariable(v, b.start)
		if err != nil {
			return nil, err
		}
		st.Args = append(st.Args, e.(*Const))
	}
	return st, nil
}

// Bind substitutes args into the text of a prepared statement, checking
// their number as MySQL does (error 1210, "Incorrect arguments to EXECUTE").
func (p *Prepare) Bind(args []*Const) (string, error) {
	if len(args) != p.Params {
		return "", &Error{Code: ErWrongArguments, Msg: "Incorrect arguments to EXECUTE",
			Detail: fmt.Sprintf("%s: the statement has %d '?' placeholders and USING gives %d values", p.Name, p.Params, len(args))}
	}
	limits := limitPlaceholders(p.Text)
	return substitute(p.Text, len(args), func(i int) (string, error) {
		if limits[i] {
			return limitLiteral(constValue(args[i]), "EXECUTE")
		}
		return paramLiteral(args[i]), nil
	})
}

// paramLiteral writes a user variable's value as the literal that has its
// type: a DOUBLE with an exponent (1.5 alone would read as DECIMAL), a
// DECIMAL with its scale, a binary string in hex, a JSON value through
// CAST so that it stays JSON.
func paramLiteral(c *Const) string {
	if c.Null {
		return "NULL"
	}
	switch {
	case c.T.ID == columnar.Float64:
		return strconv.FormatFloat(c.F, 'e', -1, 64)
	case c.T.ID == columnar.String && c.T.JSON:
		return "CAST(" + quote(c.S) + " AS JSON)"
	case c.T.ID == columnar.String && (c.T.Binary || c.hex):
		return "x'" + hex.EncodeToString([]byte(c.S)) + "'"
	case c.T.ID == columnar.String || c.T.ID == columnar.Vector:
		return quote(preparedText(c))
	case c.T.ID == columnar.Int32 || c.T.ID == columnar.Int64:
		if c.I < 0 {
			return "(" + strconv.FormatInt(c.I, 10) + ")"
		}
	case c.T.ID == columnar.Decimal && c.I < 0:
		return "(" + constString(c) + ")"
	}
	return constString(c)
}

// preparedText is a non-NULL value as text (what a statement's text in a
// variable is read as).
func preparedText(c *Const) string {
	switch c.T.ID {
	case columnar.String:
		return c.S
	case columnar.Vector:
		return columnar.VectorText(c.V)
	case columnar.Date:
		return FormatDate(int32(c.I))
	case columnar.Datetime:
		return columnar.FormatDatetime(c.I, c.T.Scale)
	}
	return constString(c)
}
