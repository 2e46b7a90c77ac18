package sql

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// Bind resolves names against the catalog, types every expression and
// builds the logical plan of one parsed statement. Errors are *Error with
// the line and column of the offending construct in the text given to Parse.
// Bind reads table snapshots (and their dictionaries) from the catalog as
// they are now: bind a statement right before running it.
func Bind(cat *catalog.Catalog, p Parsed) (Statement, error) {
	return BindSession(cat, NewSession(), p)
}

// BindSession is Bind under a session's variables (SQL mode, @@ values).
func BindSession(cat *catalog.Catalog, sess *Session, p Parsed) (st Statement, err error) {
	return BindConn(cat, sess, nil, p)
}

// BindConn is BindSession for a connection whose user variables (@name)
// are vars (nil: user variables are refused).
func BindConn(cat *catalog.Catalog, sess *Session, vars *UserVars, p Parsed) (st Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			line := max(p.Line, 1)
			st, err = nil, &Error{Line: line, Col: 1, Msg: fmt.Sprintf("internal error binding statement: %v", r)}
		}
		if errors.Is(err, errNeedNested) {
			st, err = nil, &Error{Line: max(p.Line, 1), Col: 1, Msg: err.Error()}
		}
	}()
	return bind(cat, sess, vars, p)
}

// binder holds the state of binding one statement.
type binder struct {
	cat     *catalog.Catalog
	session *Session
	// exactDecimals: see Parsed.ExactDecimals.
	exactDecimals bool
	// soundsLike: the statement's ILIKE are its SOUNDS LIKE (sounds_like.go).
	soundsLike bool
	// likeEscapes: the statement's multibyte LIKE escapes
	// (like_escape_multibyte.go).
	likeEscapes map[byte]string
	// derivedCols: the column lists of the statement's derived tables
	// (derived_columns.go).
	derivedCols []derivedColumns
	// src is the text AST offsets index; [start,end) is this statement.
	src        string
	start, end int
	// lineBase is added to lines when src is only the statement's own text
	// (a Parsed built by hand, without the text Parse saw).
	lineBase int
	// lastPos is the most recent valid AST offset, used for nodes that carry
	// none (the parser records offsets on expressions only).
	lastPos int
	// clause is the clause being bound, for MySQL's messages (inClause);
	// exprIndex the 1-based position of the expression in it.
	clause    string
	exprIndex int
	// nullToDefault: a lenient single-table UPDATE stores a NULL constant
	// of a NOT NULL column as the type's implicit default (warning 1048).
	nullToDefault bool
	// checkStores: a strict single-table UPDATE words the error of a SET
	// constant its column cannot take (storeError; update_store.go).
	checkStores   bool
	storeError    *Error
	storeWarnings []StoreWarning
	// ddlWarnings are what a DDL statement notes when it runs (a comment
	// cut to MySQL's bound: comment_length.go).
	ddlWarnings []Warning
	// ctes are the WITH definitions in scope, innermost last.
	ctes []*cteDef
	// depth bounds recursion on adversarial nesting.
	depth int
	// queries counts the query blocks being bound, one inside another: 1
	// for the statement's own (shownDigits rounds its columns only).
	queries int
	// storeRows marks the query block bound next as one whose rows MySQL
	// stores in a temporary table, at the printed scale (a set operation's
	// arm, a materialized derived table: materialized_derived.go).
	storeRows bool
	// capture is the parameter capture of the subquery being bound nested
	// (its blocks are those whose parent is capture.parent); nextParam
	// numbers Params within the statement.
	capture   *paramCapture
	nextParam int
	// files are the statement's file sources; dir is where relative file
	// names resolve.
	files []fileSource
	dir   string
	// views are the views being expanded, outermost first (a view that
	// reaches itself is an error, not a loop).
	views []string
	// vars are the connection's user variables (nil: none).
	vars *UserVars
	// recursive are the WITH RECURSIVE definitions bound so far; the top
	// query takes them (Query.Recursive).
	recursive []*RecursiveCTE
	// now is the statement's clock (stmtNow), read once.
	now time.Time
	// target is the table whose rows INSERT or UPDATE writes: DEFAULT(col)
	// in their values names its columns (nil elsewhere).
	target *columnar.Table
	// dmlSources are the tables a multi-table UPDATE or DELETE may change,
	// by their place in its FROM: they are scanned with their row numbers
	// (dml_multi.go).
	dmlSources map[*ast.TableSource]*dmlSource
	// values is set while ON DUPLICATE KEY UPDATE is bound: VALUES(col)
	// reads the proposed row.
	values *valuesRow
	// reads are the tables and views the statement resolved and what
	// makes it volatile (query_reads.go); views bound for it share them.
	reads *QueryReads
	// assigning is the state of the user variables the statement assigns
	// with := (user_var_assign.go); nil when it assigns none.
	assigning *varAssignments
	// outerHaving are the HAVING names MySQL reads from an enclosing
	// query although the block's FROM has them (having_names.go).
	outerHaving map[*ast.ColumnName]bool
}

const maxDepth = 2000

func bind(cat *catalog.Catalog, sess *Session, vars *UserVars, p Parsed) (Statement, error) {
	if p.Node != nil && vars != nil {
		if names := assignedVars(p.Node); names != nil {
			return bindAssigning(p, names, func(va *varAssignments) (Statement, error) {
				return bindPass(cat, sess, vars, p, va)
			})
		}
	}
	return bindPass(cat, sess, vars, p, nil)
}

// bindPass binds p once.
func bindPass(cat *catalog.Catalog, sess *Session, vars *UserVars, p Parsed, assigning *varAssignments) (Statement, error) {
	b := &binder{assigning: assigning, cat: cat, session: sess, vars: vars, src: p.src, start: p.start, files: p.files, dir: p.Dir, reads: &QueryReads{}, soundsLike: p.soundsLike, likeEscapes: p.likeEscapes, exactDecimals: p.ExactDecimals, derivedCols: p.derivedCols}
	if b.src == "" {
		b.src, b.start, b.lineBase = p.Text, 0, max(p.Line-1, 0)
	}
	b.end = min(len(b.src), max(b.start+len(p.Text), p.end))
	b.lastPos = b.start
	if databaseCommands[p.routine] {
		return b.bindDatabaseCommand(p.routine, p.Text)
	}
	if p.copy != nil {
		return b.copyStatement(p)
	}
	if p.routine != "" {
		return nil, b.errf(b.start, "unsupported: %s (triggers, stored procedures, functions and events are not supported)", p.routine)
	}
	if p.Node == nil {
		return nil, b.errf(b.start, "empty statement")
	}
	var st Statement
	var err error
	if ins, ok := p.Node.(*ast.InsertStmt); ok && p.rowAlias != nil {
		if err := b.applyRowAlias(ins, p.rowAlias); err != nil {
			return nil, err
		}
	}
	if err := b.checkSchemas(p.Node); err != nil { // schema_names.go
		return nil, err
	}
	if len(p.into) > 0 {
		st, err = b.selectIntoVars(p.Node, p.into)
	} else {
		st, err = b.statement(p.Node)
	}
	if err == nil {
		b.handOverRecursive(st)
		if r, ok := st.(interface{ dmlReads() *DMLReads }); ok {
			r.dmlReads().TablesRead = b.reads.Tables
		}
		if w, ok := st.(interface{ ddlWarnings() *DDLWarnings }); ok {
			w.ddlWarnings().Warnings = b.ddlWarnings
		}
	}
	if err == nil && len(b.recursive) > 0 {
		return nil, b.errf(b.start, "unsupported: WITH RECURSIVE in this statement (SELECT, EXPLAIN, CREATE TABLE ... AS SELECT, INSERT ... SELECT, UPDATE and DELETE are supported)")
	}
	return st, err
}

// handOverRecursive gives a DML statement the WITH RECURSIVE tables its
// source reads, for the engine to compute before running it.
func (b *binder) handOverRecursive(st Statement) {
	switch s := st.(type) {
	case *Insert:
		s.Recursive, b.recursive = b.recursive, nil
	case *Update:
		s.Recursive, b.recursive = b.recursive, nil
	case *Delete:
		s.Recursive, b.recursive = b.recursive, nil
	case *MultiUpdate:
		s.Recursive, b.recursive = b.recursive, nil
	case *MultiDelete:
		s.Recursive, b.recursive = b.recursive, nil
	}
}

func (b *binder) enter() error {
	b.depth++
	if b.depth > maxDepth {
		return b.errf(-1, "statement nested too deeply")
	}
	return nil
}

func (b *binder) leave() { b.depth-- }

func (b *binder) statement(n ast.StmtNode) (Statement, error) {
	switch n := n.(type) {
	case *ast.SelectStmt:
		if n.SelectIntoOpt != nil {
			return b.intoOutfile(n)
		}
		return b.selectLimited(n, n.Limit)
	case *ast.SetOprStmt:
		return b.selectLimited(n, n.Limit)
	case *ast.DoStmt:
		return b.doStmt(n)
	case *ast.ExplainStmt:
		return b.explain(n)
	case *ast.CreateTableStmt:
		return b.createTable(n)
	case *ast.DropTableStmt:
		return b.dropTable(n)
	case *ast.AnalyzeTableStmt:
		return b.analyzeTable(n)
	case *ast.LockTablesStmt:
		return b.lockTables(n)
	case *ast.CreateDatabaseStmt:
		return b.createDatabase(n)
	case *ast.DropDatabaseStmt:
		return b.dropDatabase(n)
	case *ast.AlterDatabaseStmt:
		return b.alterDatabase(n)
	case *ast.UnlockTablesStmt:
		return &UnlockTables{}, nil
	case *ast.CreateViewStmt:
		return b.createView(n)
	case *ast.CreateIndexStmt:
		return b.createIndex(n)
	case *ast.DropIndexStmt:
		return b.dropIndex(n)
	case *ast.AlterTableStmt:
		return b.alterTable(n)
	case *ast.RenameTableStmt:
		return b.renameTable(n)
	case *ast.TruncateTableStmt:
		return b.truncateTable(n)
	case *ast.InsertStmt:
		return b.insert(n)
	case *ast.UpdateStmt:
		return b.update(n)
	case *ast.DeleteStmt:
		return b.deleteStmt(n)
	case *ast.LoadDataStmt:
		return b.loadData(n)
	case *ast.ImportIntoStmt:
		return b.importInto(n)
	case *ast.ShowStmt:
		return b.show(n)
	case *ast.SetStmt:
		return b.set(n)
	case *ast.BeginStmt:
		return b.begin(n)
	case *ast.CommitStmt:
		return b.commit(n)
	case *ast.RollbackStmt:
		return b.rollback(n)
	case *ast.SavepointStmt:
		return b.savepoint(n)
	case *ast.ReleaseSavepointStmt:
		return b.releaseSavepoint(n)
	case *ast.CreateUserStmt:
		return b.createUser(n)
	case *ast.DropUserStmt:
		return b.dropUser(n)
	case *ast.GrantStmt:
		return b.grant(n.Privs, n.Level, n.Users, false)
	case *ast.RevokeStmt:
		return b.grant(n.Privs, n.Level, n.Users, true)
	case *ast.KillStmt:
		return b.kill(n)
	case *ast.UseStmt:
		return b.use(n)
	case *ast.PrepareStmt:
		return b.prepare(n)
	case *ast.ExecuteStmt:
		return b.execute(n)
	case *ast.DeallocateStmt:
		return &Deallocate{Name: strings.ToLower(n.Name)}, nil
	}
	return nil, b.errf(b.start, "unsupported statement: %s", firstWords(b.src[b.start:b.end]))
}

// firstWords names a statement by its leading keyword, for messages.
func firstWords(s string) string { return strings.ToUpper(firstN(s, 1)) }

// firstN is the first n words of a statement's text, for errors that name
// it; the statement's ending ';' is no part of a word (SHOW GRANTS;).
func firstN(s string, n int) string {
	f := strings.Fields(strings.TrimRight(s, "; \t\r\n"))
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

func (b *binder) topQuery(n ast.Node) (*Query, error) {
	blk, err := b.query(n, nil)
	if err != nil {
		return nil, err
	}
	q := &Query{Plan: blk.plan, Names: blk.names, Recursive: b.recursive, Reads: *b.reads, MaxExecutionMS: maxExecutionHint(n)}
	b.recursive = nil
	return q, nil
}

// selectLimited binds a SELECT statement (not one inside another): one
// without a LIMIT of its own returns at most @@sql_select_limit rows, as
// MySQL's do. The limit is part of the plan, so the plan cache keys on it.
func (b *binder) selectLimited(n ast.Node, limit *ast.Limit) (Statement, error) {
	q, err := b.topQuery(n)
	if err != nil {
		return nil, err
	}
	if max := b.session.Limit("sql_select_limit"); limit == nil && max < math.MaxInt64 {
		q.Plan = &Limit{Input: q.Plan, Count: max}
	}
	return q, nil
}

func (b *binder) explain(n *ast.ExplainStmt) (Statement, error) {
	if show, ok := n.Stmt.(*ast.ShowStmt); ok && show.Tp == ast.ShowColumns {
		return b.show(show) // DESC t / DESCRIBE t
	}
	switch n.Stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
	default:
		return nil, b.errf(b.start, "unsupported: EXPLAIN of a statement other than SELECT")
	}
	q, err := b.topQuery(n.Stmt)
	if err != nil {
		return nil, err
	}
	return &Explain{Query: q, Analyze: n.Analyze}, nil
}

// errf builds an *Error at byte offset pos of src; pos < 0 (or an offset
// outside the statement) means the most recent known position.
func (b *binder) errf(pos int, format string, args ...any) *Error {
	if pos < b.start || pos > b.end {
		pos = b.lastPos
	}
	line, col := lineCol(b.src, pos)
	return &Error{Line: line + b.lineBase, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// pos returns the offset of an expression node, or -1 when the parser
// recorded none. Every statement starts with a keyword, so no expression
// starts at the statement's first byte: offset 0 / start means unknown.
func (b *binder) pos(n ast.Node) int {
	if n == nil {
		return -1
	}
	off := n.OriginTextPosition()
	if off <= b.start || off >= b.end {
		return -1
	}
	b.lastPos = off
	return off
}

// posOr is pos with a fallback.
func (b *binder) posOr(n ast.Node, fallback int) int {
	if p := b.pos(n); p >= 0 {
		return p
	}
	return fallback
}

// findWord locates an identifier in the statement text at or after from
// (for AST nodes without offsets, such as table names): a case-insensitive,
// whole-word match outside string literals, optionally back-quoted. It
// returns -1 when not found.
func (b *binder) findWord(word string, from int) int {
	if from < b.start {
		from = b.start
	}
	s := b.src
	lw := strings.ToLower(word)
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c >= 0x80 || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
	}
	for i := b.start; i < b.end; i++ {
		c := s[i]
		if c == '\'' || c == '"' {
			j := i + 1
			for j < b.end && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
			continue
		}
		if i < from || (i > 0 && isIdent(s[i-1])) {
			continue
		}
		j := i
		if c == '`' {
			j++
		}
		if j+len(lw) <= b.end && strings.ToLower(s[j:j+len(lw)]) == lw {
			k := j + len(lw)
			if k == b.end || !isIdent(s[k]) {
				return i
			}
		}
	}
	return -1
}

// wordPos is findWord falling back to the last known position.
func (b *binder) wordPos(word string, from int) int {
	if p := b.findWord(word, from); p >= 0 {
		return p
	}
	return -1
}

// maxExecutionHint is a top SELECT's /*+ MAX_EXECUTION_TIME(N) */ (0:
// none; the last one wins, as in MySQL).
func maxExecutionHint(n ast.Node) int64 {
	s, ok := n.(*ast.SelectStmt)
	if !ok {
		return 0
	}
	ms := int64(0)
	for _, h := range s.TableHints {
		if v, ok := h.HintData.(uint64); ok && h.HintName.L == "max_execution_time" {
			ms = int64(min(v, 1<<62))
		}
	}
	return ms
}
