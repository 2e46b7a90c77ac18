package engine

import (
	"context"
	"time"
)

// Progress is what a running statement reports to the ProgressFunc in its
// context: the REPL draws it as a bar on a terminal, a program using the
// database/sql driver passes a context made by WithProgress to QueryContext
// or ExecContext and gets the same reports.
type Progress struct {
	// Line is the statement's first line in the text given to Exec.
	Line int
	// Task says what runs: "load lineorder.tbl", "query", ...
	Task string
	// Done and Total count Unit ("bytes" or "rows"); Total is 0 when the
	// work's size is unknown (a query), so only the elapsed time means
	// anything.
	Done, Total int64
	Unit        string
	// Elapsed is the time since the statement started.
	Elapsed time.Duration
	// Finished is set on the statement's last report.
	Finished bool
}

// ProgressFunc receives progress reports. It is called from the goroutine
// doing the work, so it must be quick; it is called at least at a
// statement's start and end, and as loads advance.
type ProgressFunc func(Progress)

type progressKey struct{}

// WithProgress returns a context whose statements report to fn. Run one
// statement (or script) at a time under it.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, &progressState{fn: fn})
}

// progressState is the reporter of the statement running under a context.
type progressState struct {
	fn    ProgressFunc
	line  int
	task  string
	start time.Time
}

func progressOf(ctx context.Context) *progressState {
	p, _ := ctx.Value(progressKey{}).(*progressState)
	return p
}

// begin reports a statement's start.
func (p *progressState) begin(line int, task string) {
	if p == nil {
		return
	}
	p.line, p.task, p.start = line, task, time.Now()
	p.fn(Progress{Line: line, Task: task, Elapsed: 0})
}

// step reports work done within the statement; task "" keeps the task.
func (p *progressState) step(task string, done, total int64, unit string) {
	if p == nil {
		return
	}
	if task != "" {
		p.task = task
	}
	p.fn(Progress{Line: p.line, Task: p.task, Done: done, Total: total, Unit: unit, Elapsed: time.Since(p.start)})
}

// end reports the statement's end.
func (p *progressState) end() {
	if p == nil {
		return
	}
	p.fn(Progress{Line: p.line, Task: p.task, Elapsed: time.Since(p.start), Finished: true})
}

// stepper returns the loaders' progress callback for task, or nil.
func (p *progressState) stepper(task, unit string) func(done, total int64) {
	if p == nil {
		return nil
	}
	return func(done, total int64) { p.step(task, done, total, unit) }
}
