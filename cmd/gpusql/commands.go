package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gpusql/storage/columnar"
)

// The REPL's own commands: psql's backslash commands and the sqlite3 /
// duckdb shell's dot commands, for the things users of those reach for
// first. They are whole lines, need no ';' and run only at the start of a
// statement.

const replHelp = `Statements end with ';' and may span lines. Besides SQL:
  \d                      list tables and views (also .tables)
  \d TABLE                a table's columns
  .schema [TABLE]         CREATE TABLE statements
  .mode MODE              result format: table, csv, json, markdown or line
  .output [FILE]          send results to FILE (no FILE: back to the screen)
  .once FILE              send the next result to FILE
  \timing, .timer on|off  print each statement's elapsed time and executor
  \i FILE, .read FILE     run a script (paths in it resolve against its folder)
  \help, \?, .help        this help
  \q, .quit, exit, quit   leave (Ctrl-D too)
  SHOW TABLES;  DESCRIBE t;  EXPLAIN [ANALYZE] SELECT ...;
  SELECT * FROM 'f.csv';  COPY (SELECT ...) TO 'out.parquet';
Tab completes keywords, functions, tables and columns.
Ctrl-C cancels the running statement (or clears the line being typed).
`

// replAction says what command did with a line.
type replAction int

const (
	notCommand replAction = iota
	handled
	quit
)

// command runs line when it is a REPL command. run executes SQL text (the
// REPL's cancellable runner).
func (s *session) command(line string, run func(text, dir string)) replAction {
	cmd := strings.TrimSuffix(strings.TrimSpace(line), ";")
	word, arg, _ := strings.Cut(cmd, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(word) {
	case "":
		return handled
	case `\q`, ".quit", ".exit", "exit", "quit":
		if arg == "" {
			return quit
		}
	case `\timing`:
		s.timing = !s.timing
		fmt.Fprintf(s.stdout, "Timing is %s.\n", onOff(s.timing))
		return handled
	case ".timer":
		s.timing = strings.EqualFold(arg, "on")
		fmt.Fprintf(s.stdout, "Timing is %s.\n", onOff(s.timing))
		return handled
	case `\help`, `\?`, ".help", "help":
		fmt.Fprint(s.stdout, replHelp)
		return handled
	case `\d`, ".tables":
		if arg == "" {
			run("SHOW TABLES", "")
		} else {
			run("DESCRIBE "+quoteIdent(arg), "")
		}
		return handled
	case ".schema":
		s.schema(arg)
		return handled
	case ".mode":
		s.setMode(arg)
		return handled
	case ".output", ".once":
		s.setOutput(arg, strings.ToLower(word) == ".once")
		return handled
	case `\i`, ".read", "source":
		if arg != "" {
			s.source(strings.Trim(arg, `'"`), run)
			return handled
		}
	}
	if strings.HasPrefix(cmd, `\`) || strings.HasPrefix(cmd, ".") {
		fmt.Fprintf(s.stderr, "unknown command %s (\\help lists them)\n", cmd)
		return handled
	}
	return notCommand
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func quoteIdent(s string) string {
	s = strings.Trim(s, "`\"")
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// schema prints CREATE TABLE statements for one table or all of them.
func (s *session) schema(name string) {
	cat := s.db.Catalog()
	names := cat.Names()
	if name != "" {
		names = []string{strings.Trim(name, "`\"")}
	}
	sort.Strings(names)
	for _, n := range names {
		t, ok := cat.Table(n)
		if !ok {
			if _, isView := cat.View(n); !isView {
				fmt.Fprintf(s.stderr, "ERROR: unknown table '%s'\n", n)
			}
			continue
		}
		fmt.Fprintln(s.stdout, createTableText(n, t.Fields))
	}
}

func createTableText(name string, fields []columnar.Field) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", quoteIdent(name))
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", quoteIdent(f.Name), f.Type)
		if !f.Nullable {
			b.WriteString(" NOT NULL")
		}
	}
	b.WriteString(");")
	return b.String()
}

// setMode switches the result format.
func (s *session) setMode(mode string) {
	if mode == "" {
		fmt.Fprintf(s.stdout, "mode %s (table, csv, json, markdown, line)\n", s.format)
		return
	}
	mode = strings.ToLower(mode)
	if _, err := newPrinter(mode, s.stdout); err != nil {
		fmt.Fprintln(s.stderr, "ERROR:", err)
		return
	}
	s.format = mode
	s.rebuildPrinter()
}

// setOutput sends results to file (once: for the next result only), or
// back to the screen when file is "".
func (s *session) setOutput(file string, once bool) {
	s.closeOutput()
	if file == "" {
		if once {
			fmt.Fprintln(s.stderr, "ERROR: .once wants a file name")
		}
		s.rebuildPrinter()
		return
	}
	f, err := os.Create(strings.Trim(file, `'"`))
	if err != nil {
		fmt.Fprintln(s.stderr, "ERROR:", err)
		return
	}
	s.outFile, s.once = f, once
	s.rebuildPrinter()
}

func (s *session) closeOutput() {
	if s.outFile != nil {
		if err := s.outFile.Close(); err != nil {
			fmt.Fprintln(s.stderr, "ERROR:", err)
		}
		s.outFile, s.once = nil, false
	}
}

// rebuildPrinter makes the printer for the current format and output.
func (s *session) rebuildPrinter() {
	w := s.stdout
	if s.outFile != nil {
		w = s.outFile
	}
	s.resultOut = w
	p, _ := newPrinter(s.format, w)
	if tp, ok := p.(tablePrinter); ok && s.outFile == nil {
		tp.width, tp.maxRows = s.width, s.maxRows
		p = tp
	}
	s.out = p
}

// afterResult ends a .once redirection.
func (s *session) afterResult() {
	if s.once {
		s.closeOutput()
		s.rebuildPrinter()
	}
}

// source runs a script file; its relative paths resolve against its folder.
func (s *session) source(file string, run func(text, dir string)) {
	b, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(s.stderr, "ERROR:", err)
		return
	}
	run(string(b), filepath.Dir(file))
}
