package engine

import (
	"context"
	"fmt"
	"sync"

	"gpusql/sql"
)

// maxPreparedStatements bounds the statements one connection may hold
// prepared, as MySQL's max_prepared_stmt_count does (its default), so a
// client that never deallocates cannot grow memory without bound.
const maxPreparedStatements = 16382

// preparedStatements are a connection's PREPAREd statements by name (lower
// case). The zero value is empty and ready.
type preparedStatements struct {
	mu sync.Mutex
	m  map[string]*sql.Prepare
}

func (p *preparedStatements) put(st *sql.Prepare) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]*sql.Prepare{}
	}
	if _, ok := p.m[st.Name]; !ok && len(p.m) >= maxPreparedStatements {
		return fmt.Errorf("can't create more than %d prepared statements on one connection (DEALLOCATE PREPARE some)", maxPreparedStatements)
	}
	p.m[st.Name] = st
	return nil
}

func (p *preparedStatements) get(name, command string) (*sql.Prepare, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.m[name]
	if !ok {
		return nil, sql.Errorf(sql.ErUnknownStmtHandler, "Unknown prepared statement handler (%s) given to %s", name, command)
	}
	return st, nil
}

func (p *preparedStatements) drop(name string) error {
	if _, err := p.get(name, "DEALLOCATE PREPARE"); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.m, name)
	return nil
}

// preparedStatement runs PREPARE, EXECUTE and DEALLOCATE PREPARE. EXECUTE
// parses the statement's text with the USING values in its placeholders
// and runs it as the connection runs any statement (rights, transaction,
// durability), so it behaves as if the client had sent that text.
func (c *Conn) preparedStatement(ctx context.Context, stmt sql.Statement, baseDir string) (*StatementResult, bool, error) {
	switch s := stmt.(type) {
	case *sql.Prepare:
		if err := c.prepared.put(s); err != nil {
			return nil, true, err
		}
		return message("statement prepared"), true, nil
	case *sql.Deallocate:
		if err := c.prepared.drop(s.Name); err != nil {
			return nil, true, err
		}
		return message("statement deallocated"), true, nil
	case *sql.Execute:
		p, err := c.prepared.get(s.Name, "EXECUTE")
		if err != nil {
			return nil, true, err
		}
		text, err := p.Bind(s.Args)
		if err != nil {
			return nil, true, err
		}
		stmts, err := sql.Parse(text)
		if err == nil && len(stmts) != 1 {
			err = fmt.Errorf("the text is %d statements", len(stmts))
		}
		if err == nil {
			var r *StatementResult
			if r, err = c.execParsed(ctx, stmts[0], baseDir); err == nil {
				if r.Kind == KindRows && r.Result != nil {
					r.Result.Names = sql.RenameColumns(r.Result.Names, sql.ParamColumnNames(p.Text))
				}
				return r, true, nil
			}
		}
		return nil, true, fmt.Errorf("EXECUTE %s: %w", s.Name, err)
	}
	return nil, false, nil
}
