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
		AutoComplete:           &completer{db: s.db},
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
	if onTerminal(stdin) {
		// Fit results to the screen, as duckdb does.
		s.width, s.maxRows = readline.GetScreenWidth(), 40
	}
	s.rebuildPrinter()
	defer s.closeOutput()
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

	// run runs SQL text; "" dir is the working directory.
	run := func(text, dir string) {
		if dir == "" {
			dir, _ = os.Getwd()
		}
		s.runCancellable(text, dir, &mu, &cancel)
	}
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
			if c := strings.TrimSpace(line); strings.HasPrefix(c, `\`) || strings.HasPrefix(c, ".") {
				rl.SaveHistory(c)
			}
			switch s.command(line, run) {
			case quit:
				return 0
			case handled:
				continue
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

		run(text, "")
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
		if code := errorCode(err); code != "" {
			fmt.Fprintf(s.stderr, "%s%v\n", code, err)
			return
		}
		fmt.Fprintln(s.stderr, "ERROR:", err)
	}
}

// onTerminal reports whether r is a terminal.
func onTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && readline.IsTerminal(int(f.Fd()))
}
