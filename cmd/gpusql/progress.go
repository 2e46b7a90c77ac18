package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chzyer/readline"
	"github.com/dustin/go-humanize"

	"gpusql/engine"
)

// progressBar draws a running statement's progress on a terminal's
// stderr: nothing during its first second (most statements finish
// sooner), then one line redrawn at most ten times a second —
//
//	load lineorder.tbl [=========>          ]  45%  312 MB/s  ETA 4s
//	query 3.2 s (Ctrl-C cancels)
//
// — and erased when the statement ends, before its output is printed.
// Work of unknown size (a query) shows its elapsed time.
type progressBar struct {
	w     io.Writer
	width int
	mu    sync.Mutex
	cur   engine.Progress
	start time.Time
	drawn bool
	last  time.Time
	stop  chan struct{}
}

// progressDelay is how long a statement runs before its bar appears.
const progressDelay = time.Second

// newProgressBar returns a bar on w when w is a terminal and progress is
// wanted, else nil.
func newProgressBar(w io.Writer, off bool) *progressBar {
	f, ok := w.(*os.File)
	if off || !ok || !readline.IsTerminal(int(f.Fd())) {
		return nil
	}
	width := readline.GetScreenWidth()
	if width <= 0 {
		width = 80 // the terminal did not say
	}
	return &progressBar{w: w, width: min(max(width, 40), 100)}
}

// report is an engine.ProgressFunc.
func (b *progressBar) report(p engine.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case p.Finished:
		if b.stop != nil {
			close(b.stop)
			b.stop = nil
		}
		b.clear()
		return
	case b.stop == nil:
		// A new statement: redraw its elapsed time even when nothing
		// reports, until it finishes.
		b.start, b.stop = time.Now(), make(chan struct{})
		go b.tick(b.stop)
	}
	b.cur = p
	if time.Since(b.last) >= 100*time.Millisecond {
		b.draw()
	}
}

func (b *progressBar) tick(stop chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			b.mu.Lock()
			b.draw()
			b.mu.Unlock()
		}
	}
}

func (b *progressBar) draw() {
	elapsed := time.Since(b.start)
	if elapsed < progressDelay {
		return
	}
	b.last = time.Now()
	line := progressLine(b.cur, elapsed, b.width)
	fmt.Fprintf(b.w, "\r%s\x1b[K", line)
	b.drawn = true
}

func (b *progressBar) clear() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
}

// progressLine renders one report in at most width columns.
func progressLine(p engine.Progress, elapsed time.Duration, width int) string {
	task := p.Task
	if task == "" {
		task = "running"
	}
	secs := elapsed.Seconds()
	if p.Total <= 0 || p.Done <= 0 {
		return fitWidth(fmt.Sprintf("%s %.1f s (Ctrl-C cancels)", task, secs), width)
	}
	frac := min(float64(p.Done)/float64(p.Total), 1)
	rate := float64(p.Done) / secs
	rateText := humanize.Bytes(uint64(rate)) + "/s"
	if p.Unit == "rows" {
		rateText = humanize.Comma(int64(rate)) + " rows/s"
	}
	eta := time.Duration(float64(p.Total-p.Done) / rate * float64(time.Second)).Round(time.Second)
	tail := fmt.Sprintf(" %3.0f%%  %s  ETA %s", frac*100, rateText, eta)
	barWidth := width - len([]rune(task)) - len(tail) - 4
	if barWidth < 10 {
		return fitWidth(task+tail, width)
	}
	filled := int(frac * float64(barWidth))
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	return fitWidth(fmt.Sprintf("%s [%s]%s", task, bar, tail), width)
}

func fitWidth(s string, width int) string {
	if r := []rune(s); len(r) > width-1 {
		return string(r[:width-1])
	}
	return s
}
