//go:build cuda

package gpu

import (
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
