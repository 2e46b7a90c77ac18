//go:build linux || darwin

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestMain lets the REPL tests run this test binary as gpusql itself.
func TestMain(m *testing.M) {
	if os.Getenv("GPUSQL_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// terminal is gpusql running in a pseudo-terminal of a given size.
type terminal struct {
	t   *testing.T
	pty *os.File
	cmd *exec.Cmd
	mu  sync.Mutex
	out bytes.Buffer
}

func startTerminal(t *testing.T, cols uint16, args ...string) *terminal {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GPUSQL_TEST_MAIN=1", "HOME="+t.TempDir(), "TERM=xterm")
	cmd.Dir = t.TempDir()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: cols})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := &terminal{t: t, pty: f, cmd: cmd}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); f.Close() })
	return term
}

// expect waits until the output since the last expect holds want and
// returns that output.
func (term *terminal) expect(want string) string {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		term.mu.Lock()
		s := term.out.String()
		if i := strings.Index(s, want); i >= 0 {
			term.out.Next(i + len(want))
			term.mu.Unlock()
			return s[:i+len(want)]
		}
		term.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	term.t.Fatalf("no %q in the terminal's output:\n%s", want, term.out.String())
	return ""
}

func (term *terminal) send(keys string) {
	if _, err := io.WriteString(term.pty, keys); err != nil {
		term.t.Fatal(err)
	}
}

// The REPL as a user meets it in a 60-column terminal: tab completion of a
// table name, a wide result cut to the screen, \d, .mode, \q.
func TestReplInTerminal(t *testing.T) {
	term := startTerminal(t, 60, "--executor", "cpu")
	term.expect("gpusql> ")
	var cols, vals []string
	for i := 1; i <= 12; i++ {
		cols = append(cols, fmt.Sprintf("column_%02d bigint", i))
		vals = append(vals, fmt.Sprint(i*1000000))
	}
	term.send("create table widetable (" + strings.Join(cols, ", ") + ");\r")
	term.expect("created table widetable")
	term.send("insert into widetable values (" + strings.Join(vals, ", ") + ");\r")
	term.expect("inserted 1 row")
	term.send("select * from widet\t;\r")
	out := term.expect("row in set")
	for _, want := range []string{"widetable;", "| column_01 |", "| … |", "| column_12 |", "(4 of 12 columns shown)"} {
		if !strings.Contains(out, want) {
			t.Errorf("wide result lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "|") && len([]rune(strings.TrimRight(l, "\r"))) > 60 {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
	term.send("\\d widetable\r")
	term.expect("column_12 | bigint")
	term.send(".mode csv\r")
	term.send("select column_01, column_12 from widetable;\r")
	term.expect("1000000,12000000")
	term.send("\\q\r")
	done := make(chan error, 1)
	go func() { done <- term.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("\\q did not leave the REPL")
	}
}
