//go:build cuda

package gpu

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// hostSteps, switched on by a test or benchmark, adds up the wall time a
// warm query spends in each step of the star path (plan, dimension
// builds or their cache, parameters, launches, the wait for the kernels
// and the copy back, decoding, the host tail, the final synchronization),
// so that the host time bench reports (warm − kernel time) can be taken
// apart on a GPU machine without a profiler. Off, a step costs one atomic
// load.
var hostSteps stepClock

type stepClock struct {
	on    atomic.Bool
	mu    sync.Mutex
	last  time.Time
	total map[string]time.Duration
	order []string
}

// start begins a query's steps.
func (c *stepClock) start() {
	if !c.on.Load() {
		return
	}
	c.mu.Lock()
	c.last = time.Now()
	c.mu.Unlock()
}

// mark ends step name: the time since the last mark (or start) is its.
func (c *stepClock) mark(name string) {
	if !c.on.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.last.IsZero() {
		c.last = now
		return
	}
	if c.total == nil {
		c.total = map[string]time.Duration{}
	}
	if _, ok := c.total[name]; !ok {
		c.order = append(c.order, name)
	}
	c.total[name] += now.Sub(c.last)
	c.last = now
}

// take returns the steps in first-seen order with their summed times,
// and clears them.
func (c *stepClock) take() ([]string, map[string]time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	order, total := c.order, c.total
	c.order, c.total, c.last = nil, nil, time.Time{}
	return order, total
}

// stepsTrace (GPUSQL_STEPS_TRACE=1) switches hostSteps on for every query
// and prints each one's steps to stderr when it ends: the host side of a
// query taken apart where only the gpusql binary runs (bench, the REPL).
var stepsTrace = stepTrace{on: os.Getenv("GPUSQL_STEPS_TRACE") != ""}

type stepTrace struct {
	on    bool
	start time.Time
}

func (t *stepTrace) begin() {
	if t.on {
		hostSteps.on.Store(true)
		hostSteps.take()
		t.start = time.Now()
	}
}

func (t *stepTrace) end() {
	if !t.on {
		return
	}
	wall := time.Since(t.start)
	order, total := hostSteps.take()
	var b strings.Builder
	fmt.Fprintf(&b, "gpu steps: %.3f ms:", wall.Seconds()*1e3)
	for _, s := range order {
		fmt.Fprintf(&b, " %s %.1f", s, total[s].Seconds()*1e6)
	}
	fmt.Fprintln(os.Stderr, b.String()+" µs")
}
