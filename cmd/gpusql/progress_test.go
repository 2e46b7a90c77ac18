package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"gpusql/engine"
)

func TestProgressLine(t *testing.T) {
	cases := []struct {
		p    engine.Progress
		el   time.Duration
		want string
	}{
		{engine.Progress{Task: "load lineorder.tbl", Done: 50e6, Total: 200e6, Unit: "bytes"}, 2 * time.Second,
			"load lineorder.tbl [=========>                          ]  25%  25 MB/s  ETA 6s"},
		{engine.Progress{Task: "load p.parquet", Done: 1000, Total: 1000, Unit: "rows"}, time.Second,
			"load p.parquet [===================================] 100%  1,000 rows/s  ETA 0s"},
		{engine.Progress{Task: "select"}, 3200 * time.Millisecond, "select 3.2 s (Ctrl-C cancels)"},
	}
	for _, c := range cases {
		got := progressLine(c.p, c.el, 80)
		if got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
		if len([]rune(got)) > 79 {
			t.Errorf("line longer than the terminal: %q", got)
		}
	}
}

// The bar stays silent for a statement's first second, draws after it,
// and erases itself when the statement ends.
func TestProgressBarDraws(t *testing.T) {
	var w bytes.Buffer
	b := &progressBar{w: &w, width: 80}
	b.report(engine.Progress{Task: "select"})
	b.mu.Lock()
	b.draw()
	quiet := w.Len()
	b.start = b.start.Add(-2 * time.Second)
	b.draw()
	b.mu.Unlock()
	b.report(engine.Progress{Finished: true})
	out := w.String()
	if quiet != 0 {
		t.Errorf("drawn within the first second: %q", out)
	}
	if !strings.Contains(out, "select 2.0 s") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("bar output %q", out)
	}
}
