package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chzyer/readline"

	"gpusql/engine"
)

const (
	prompt     = "gpusql> "
	contPrompt = "    -> "
)

const replHelp = `Statements end with ';' and may span lines. Besides SQL:
  \timing        toggle printing each statement's elapsed time
  \help, \?      this help
  \i FILE, source FILE   run a script (paths in it resolve against its folder)
  \q, exit, quit leave (Ctrl-D too)
  SHOW TABLES;   list tables          DESCRIBE t;  a table's columns
  EXPLAIN [ANALYZE] SELECT ...;       the physical plan (with actual rows and times)
  LOAD DATA INFILE 'f.tbl' INTO TABLE t FIELDS TERMINATED BY '|';
Ctrl-C cancels the running statement (or clears the line being typed).
`

// repl reads statements interactively. Errors are printed and the session
// goes on; Ctrl-C cancels the running statement only.
func (s *session) repl(stdin io.Reader) int {
	history := ""
	if home, err := os.UserHomeDir(); err == nil {
		history = filepath.Join(home, ".gpusql_history")
	}
	cfg := &readline.Config{
		Prompt:                 prompt,
		HistoryFile:            history,
		InterruptPrompt:        "^C",
		EOFPrompt:              "exit",
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
	}
	if stdin != os.Stdin {
		cfg.Stdin = io.NopCloser(stdin)
	}
	rl, err := readline.NewEx(cfg)
	if err != nil {
		fmt.Fprintln(s.stderr, "gpusql:", err)
		return 1
	}
	defer rl.Close()
	s.stdout, s.stderr = rl.Stdout(), rl.Stderr()
	if s.format == "table" {
		s.msgOut, s.explain = s.stdout, s.stdout
	} else {
		s.msgOut = s.stderr
	}
	p, _ := newPrinter(s.format, s.stdout)
	s.out = p
	fmt.Fprintf(s.stdout, "gpusql (executor %s). End statements with ';'. \\help for help, \\q to quit.\n", s.db.Executor())

	// While a statement runs the terminal is not in raw mode, so Ctrl-C is
	// SIGINT: cancel that statement's context instead of exiting.
	var mu sync.Mutex
	var cancel context.CancelFunc
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		for range sig {
			mu.Lock()
			if cancel != nil {
				cancel()
			}
			mu.Unlock()
		}
	}()

	var buf strings.Builder
	for {
		if buf.Len() == 0 {
			rl.SetPrompt(prompt)
		} else {
			rl.SetPrompt(contPrompt)
		}
		line, err := rl.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			buf.Reset()
			continue
		}
		if err != nil { // io.EOF: Ctrl-D
			return 0
		}
		if buf.Len() == 0 {
			if strings.HasPrefix(strings.TrimSpace(line), `\`) {
				rl.SaveHistory(strings.TrimSpace(line))
			}
			switch cmd := strings.TrimSuffix(strings.TrimSpace(line), ";"); strings.ToLower(cmd) {
			case "":
				continue
			case `\q`, "exit", "quit":
				return 0
			case `\timing`:
				s.timing = !s.timing
				fmt.Fprintf(s.stdout, "Timing is %s.\n", map[bool]string{true: "on", false: "off"}[s.timing])
				continue
			case `\help`, `\?`, "help":
				fmt.Fprint(s.stdout, replHelp)
				continue
			default:
				if file, ok := sourceFile(cmd); ok {
					s.source(file, &mu, &cancel)
					continue
				}
				if strings.HasPrefix(cmd, `\`) {
					fmt.Fprintf(s.stderr, "unknown command %s (\\help lists them)\n", cmd)
					continue
				}
			}
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		if !complete(buf.String()) {
			continue
		}
		text := buf.String()
		buf.Reset()
		saveHistory(rl, text)

		dir, _ := os.Getwd()
		s.runCancellable(text, dir, &mu, &cancel)
	}
}

// saveHistory stores a statement as one history entry (its lines joined)
// so that it comes back whole; a statement with a line comment keeps one
// entry per line, since joining would comment out the rest.
func saveHistory(rl *readline.Instance, text string) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for _, l := range lines {
		if strings.Contains(l, "--") || strings.Contains(l, "#") {
			for _, l := range lines {
				rl.SaveHistory(l)
			}
			return
		}
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	rl.SaveHistory(strings.Join(lines, " "))
}

// runCancellable runs text with a context that SIGINT cancels, printing
// any error (the session goes on).
func (s *session) runCancellable(text, dir string, mu *sync.Mutex, cancel *context.CancelFunc) {
	ctx, c := context.WithCancel(context.Background())
	mu.Lock()
	*cancel = c
	mu.Unlock()
	err := s.exec(ctx, text, dir)
	mu.Lock()
	*cancel = nil
	mu.Unlock()
	c()
	if err != nil {
		// A one-statement line needs no "statement at line 1" when the
		// error has its own position.
		var se *engine.StatementError
		if errors.As(err, &se) && strings.HasPrefix(se.Err.Error(), "line ") {
			err = se.Err
		}
		fmt.Fprintln(s.stderr, "ERROR:", err)
	}
}

// sourceFile recognizes "\i FILE" and "source FILE".
func sourceFile(cmd string) (string, bool) {
	for _, p := range []string{`\i `, "source ", "SOURCE "} {
		if strings.HasPrefix(cmd, p) {
			return strings.Trim(strings.TrimSpace(cmd[len(p):]), `'"`), true
		}
	}
	return "", false
}

// source runs a script file; its relative paths resolve against its folder.
func (s *session) source(file string, mu *sync.Mutex, cancel *context.CancelFunc) {
	b, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(s.stderr, "ERROR:", err)
		return
	}
	s.runCancellable(string(b), filepath.Dir(file), mu, cancel)
}
