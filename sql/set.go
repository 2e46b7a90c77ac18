package sql

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"gpusql/storage/columnar"
)

// Set assigns system variables: SET [SESSION|GLOBAL] name = value, ...
// Each Value is a one-row query computing the new value (a literal, or an
// expression such as REPLACE(@@sql_mode, 'ONLY_FULL_GROUP_BY', "")); the
// engine runs it and applies the assignments in order.
type Set struct {
	Assignments []Assignment
	// Vars receive the user variable assignments (SET @x = ...).
	Vars *UserVars
}

// Assignment is one name = value of SET. Default is SET name = DEFAULT.
// User marks a user variable (@name).
type Assignment struct {
	Name    string // lower case
	Value   *Query
	Default bool
	User    bool
	Global  bool // SET GLOBAL / SET @@global.name
	// Collation is a user variable's string value's collation, which
	// the variable keeps (MySQL's user variables carry it).
	Collation string
}

func (*Set) statement() {}

// namesCollation checks SET NAMES cs COLLATE name as MySQL does: a
// collation gpusql does not know of is 1273, one of another character set
// 1253. gpusql compares by each column's collation, so a valid one
// changes nothing.
func (b *binder) namesCollation(cs string, coll ast.ValueExpr) error {
	v, ok := coll.(*driver.ValueExpr)
	if !ok || v == nil || cs == "default" || cs == "" {
		return nil
	}
	typed := v.GetString()
	name := strings.ToLower(typed)
	prefixes := map[string][]string{"utf8mb4": {"utf8mb4_"}, "utf8": {"utf8mb3_", "utf8_"}, "utf8mb3": {"utf8mb3_", "utf8_"}, "ascii": {"ascii_"}}[cs]
	switch {
	case !knownCollationPrefix(name):
		return b.errCode(b.start, ErUnknownCollation, "Unknown collation: '%s'", typed)
	case !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p) }):
		return b.errCode(b.start, ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET '%s'", typed, cs)
	}
	return nil
}

func (b *binder) set(n *ast.SetStmt) (Statement, error) {
	st := &Set{Vars: b.vars}
	for _, v := range n.Variables {
		switch {
		case v.Name == ast.SetNames || v.Name == ast.SetCharset:
			// SET NAMES / CHARACTER SET: gpusql speaks UTF-8 only.
			cs := ""
			if val, ok := v.Value.(*driver.ValueExpr); ok {
				cs = strings.ToLower(val.GetString())
			}
			switch cs {
			case "utf8", "utf8mb4", "utf8mb3", "ascii", "default", "":
				if err := b.namesCollation(cs, v.ExtendValue); err != nil {
					return nil, err
				}
				continue
			}
			return nil, b.errf(b.start, "unsupported: character set '%s' (gpusql uses utf8mb4)", cs)
		case !v.IsSystem && b.vars == nil:
			return nil, b.errf(b.start, "unsupported: user variables (@%s) outside a connection", v.Name)
		}
		a := Assignment{Name: strings.ToLower(v.Name), User: !v.IsSystem, Global: v.IsGlobal}
		if a.Name == "tx_isolation_one_shot" || a.Name == "tx_isolation" && v.IsSystem && b.wordPos(v.Name, -1) < 0 {
			// SET [SESSION] TRANSACTION ISOLATION LEVEL ..., as the parser
			// names it: gpusql has one level, which transaction_isolation
			// takes. A tx_isolation the user typed is the name MySQL 8
			// removed: unknown, as there.
			a.Name = "transaction_isolation"
		}
		if a.Name == "tx_read_only" && v.IsSystem && b.wordPos(v.Name, -1) < 0 {
			// SET [SESSION] TRANSACTION READ WRITE | READ ONLY: the parser
			// gives the text '0' / '1' of transaction_read_only (gpusql's
			// sessions read and write; START TRANSACTION READ ONLY is one
			// transaction's). A tx_read_only the user typed is the name
			// MySQL 8 removed: unknown, as there.
			a.Name = "transaction_read_only"
			if val, ok := v.Value.(*driver.ValueExpr); ok && (val.GetString() == "0" || val.GetString() == "1") {
				v.Value = ast.NewValueExpr(int64(val.GetString()[0]-'0'), "", "")
			}
		}
		if !a.User && !b.knownVariable(a.Name) {
			err := b.errCode(b.wordPos(v.Name, -1), ErUnknownSystemVariable, "Unknown system variable '%s'", v.Name)
			err.Detail = "gpusql's own: " + strings.Join(engineVariables, ", ") + "; SHOW VARIABLES lists MySQL's it has"
			return nil, err
		}
		if !a.User && readOnlyVariables[a.Name] {
			return nil, b.errCode(b.wordPos(v.Name, -1), ErIncorrectGlobalLocalVar, "Variable '%s' is a read only variable", v.Name)
		}
		if !a.User && !a.Global && sessionReadOnlyVariables[a.Name] {
			return nil, b.errCode(b.wordPos(v.Name, -1), ErVariableIsReadonly, "SESSION variable '%s' is read-only. Use SET GLOBAL to assign the value", a.Name)
		}
		if !a.User && a.Global && sessionOnlyVariables[a.Name] {
			// MySQL checks the scope after read-only (set_var::check).
			return nil, b.errCode(b.wordPos(v.Name, -1), ErLocalVariable, "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", v.Name)
		}
		if _, ok := v.Value.(*ast.DefaultExpr); ok && a.User {
			return nil, b.errf(b.start, "a user variable cannot be SET to DEFAULT (@%s)", v.Name)
		} else if ok {
			a.Default = true
		} else {
			e, err := b.setValue(v)
			if err != nil {
				return nil, err
			}
			a.Value = &Query{Plan: newProject(&Values{Rows: [][]Expr{{}}}, []Expr{e}, []string{a.Name}), Names: []string{a.Name}}
			if a.User && e.Type().ID == columnar.String {
				_, a.Collation, _ = describeCollation(e, v.Value)
			}
		}
		st.Assignments = append(st.Assignments, a)
	}
	return st, nil
}

// variable binds @@name (SESSION and GLOBAL alike) to its current value.
func (b *binder) variable(n *ast.VariableExpr, pos int) (Expr, error) {
	if !n.IsSystem {
		return b.userVariable(n, pos)
	}
	b.volatile("a system variable")
	if n.IsGlobal && sessionOnlyVariables[strings.ToLower(n.Name)] {
		return nil, b.errCode(pos, ErIncorrectGlobalLocalVar, "Variable '%s' is a SESSION variable", n.Name)
	}
	if strings.EqualFold(n.Name, "autocommit") && b.vars != nil && !n.IsGlobal {
		on := int64(0)
		if b.vars.Autocommit() {
			on = 1
		}
		return &Const{T: columnar.TInt64, I: on}, nil
	}
	if id := b.vars.ConnectionID(); id != 0 && strings.EqualFold(n.Name, "pseudo_thread_id") {
		return &Const{T: columnar.TInt64, I: id}, nil // CONNECTION_ID()
	}
	if strings.EqualFold(n.Name, "warning_count") || strings.EqualFold(n.Name, "error_count") {
		// The previous statement's (warnings.go).
		count := b.vars.LastWarnings().Count()
		if strings.EqualFold(n.Name, "error_count") {
			count = b.vars.LastWarnings().Errors()
		}
		return &Const{T: columnar.TInt64, I: count}, nil
	}
	if strings.EqualFold(n.Name, "sql_log_bin") && n.IsGlobal {
		// MySQL 8 refuses to read sql_log_bin's global value.
		return nil, b.errCode(pos, ErIncorrectGlobalLocalVar, "Variable '%s' is a SESSION variable", n.Name)
	}
	if v, ok := b.session.GlobalVariable(n.Name); ok && n.IsGlobal {
		return v, nil
	}
	v, ok := b.session.Variable(n.Name)
	if !ok && IsMySQLVariable(strings.ToLower(n.Name)) {
		return nil, b.errf(pos, "unsupported: @@%s (a MySQL variable gpusql does not have; gpusql has %s)", n.Name, strings.Join(b.session.Variables(), ", "))
	}
	if !ok {
		err := b.errCode(pos, ErUnknownSystemVariable, "Unknown system variable '%s'", n.Name)
		err.Detail = "gpusql has " + strings.Join(b.session.Variables(), ", ")
		return nil, err
	}
	c := *v
	return &c, nil
}

// setValue binds the value of one assignment. A system variable takes a
// bare word as the name of its value, as MySQL does (SET sql_mode = ANSI,
// SET plan_cache = off, SET autocommit = ON).
func (b *binder) setValue(v *ast.VariableAssignment) (Expr, error) {
	if c, ok := v.Value.(*ast.ColumnNameExpr); ok && v.IsSystem && c.Name.Table.O == "" {
		return &Const{T: columnar.TString, S: c.Name.Name.O}, nil
	}
	return b.expr(v.Value, &scope{plan: &Values{Rows: [][]Expr{{}}}})
}

// engineVariables are gpusql's own variables, which the engine sets (SET
// join_algorithm = merge); some have no @@name.
var engineVariables = []string{"memory_limit", "tmpdir", "max_spill_bytes", "gpu_memory", "gpus", "join_algorithm", "epsilon_join", "plan_cache", "gpu_packing"}

// knownVariable reports whether SET may name the system variable name
// (lower case): one of gpusql's, or one of MySQL's, which the engine
// refuses as unsupported where gpusql cannot set it. Any other name is
// MySQL's 1193, before a value is computed.
func (b *binder) knownVariable(name string) bool {
	if _, ok := b.session.Variable(name); ok {
		return true
	}
	return IsMySQLVariable(name) || slices.Contains(engineVariables, name)
}
