package exec

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/dustin/go-humanize"
)

// Memory is a memory accountant: operators reserve the bytes they are about
// to hold (hash tables, sort buffers, materialized intermediate results) and
// release them when done. A reservation that would take the bytes in use
// past the limit fails with a *MemoryLimitError naming the operator, so a
// query that would exhaust the machine stops with a clear error instead of
// being killed, and the session goes on. Each query has its own Memory
// whose parent is the database's, so concurrent queries share one limit.
// Counters are atomic: the workers of a pipeline reserve concurrently.
//
// The accounting is of the large buffers only (vectors, tables), not of
// every Go object, so the real heap runs somewhat above Used; the limit is
// a bound on what a query may hold, not a promise about RSS.
type Memory struct {
	limit  atomic.Int64 // 0: unlimited
	used   atomic.Int64
	peak   atomic.Int64
	parent *Memory
}

// NewMemory returns an accountant with limit bytes (0: unlimited) that also
// charges parent (nil: none).
func NewMemory(limit int64, parent *Memory) *Memory {
	m := &Memory{parent: parent}
	m.limit.Store(limit)
	return m
}

// Limit is the accountant's own limit (0: unlimited).
func (m *Memory) Limit() int64 { return m.limit.Load() }

// SetLimit changes the limit (0: unlimited) for the reservations to come;
// what is reserved already stays.
func (m *Memory) SetLimit(n int64) { m.limit.Store(n) }

// Used is the number of bytes reserved now.
func (m *Memory) Used() int64 { return m.used.Load() }

// Peak is the largest number of bytes reserved at once.
func (m *Memory) Peak() int64 { return m.peak.Load() }

// Reserve takes n more bytes for operator op (its EXPLAIN name, as
// "HashJoin#3"). When that would pass this accountant's limit or an
// ancestor's, nothing is taken and the error names op and the limit.
func (m *Memory) Reserve(n int64, op string) error {
	if m == nil || n <= 0 {
		return nil
	}
	u := m.used.Add(n)
	if limit := m.limit.Load(); limit > 0 && u > limit {
		m.used.Add(-n)
		return &MemoryLimitError{Limit: limit, Op: op}
	}
	if err := m.parent.Reserve(n, op); err != nil {
		m.used.Add(-n)
		return err
	}
	for {
		p := m.peak.Load()
		if u <= p || m.peak.CompareAndSwap(p, u) {
			break
		}
	}
	return nil
}

// Release gives back n bytes reserved earlier.
func (m *Memory) Release(n int64) {
	if m == nil || n <= 0 {
		return
	}
	m.used.Add(-n)
	m.parent.Release(n)
}

// Close releases everything still reserved (a query's accountant at the
// end of the query: its buffers become garbage together).
func (m *Memory) Close() {
	if m == nil {
		return
	}
	m.Release(m.used.Swap(0))
}

// MemoryLimitError is the error of a query stopped by the memory limit.
type MemoryLimitError struct {
	Limit int64
	Op    string
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("memory limit of %s exceeded by %s (raise it with SET memory_limit = '4GB' or --memory-limit)",
		FormatBytes(e.Limit), e.Op)
}

type memoryKey struct{}

// WithMemory returns ctx carrying a query's accountant, which the
// executors charge.
func WithMemory(ctx context.Context, m *Memory) context.Context {
	return context.WithValue(ctx, memoryKey{}, m)
}

// MemoryFrom returns the accountant ctx carries, or nil (no accounting).
func MemoryFrom(ctx context.Context) *Memory {
	m, _ := ctx.Value(memoryKey{}).(*Memory)
	return m
}

// ParseBytes reads a byte size: a number with an optional unit, as "2GB",
// "512MiB", "1.5 GiB", "64M" or "1048576". K, M, G and T count in powers of
// 1024 whether written KB or KiB, as MySQL's size options do (and as
// memory sizes are usually meant); go-humanize, which does the parsing,
// reads "GB" as 10^9, so the unit is rewritten to its binary name first.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) })
	num, unit := t, ""
	if i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.ToUpper(strings.TrimSpace(t[i:]))
	}
	switch unit {
	case "", "B":
		unit = "B"
	case "K", "KB", "KIB":
		unit = "KiB"
	case "M", "MB", "MIB":
		unit = "MiB"
	case "G", "GB", "GIB":
		unit = "GiB"
	case "T", "TB", "TIB":
		unit = "TiB"
	default:
		return 0, fmt.Errorf("bad byte size %q: unknown unit %q (want B, KB, MB, GB or TB)", s, t[i:])
	}
	if _, err := strconv.ParseFloat(num, 64); err != nil || strings.HasPrefix(num, "-") {
		return 0, fmt.Errorf("bad byte size %q: want a non-negative number and a unit, as 2GB or 512MiB", s)
	}
	n, err := humanize.ParseBytes(num + " " + unit)
	if err != nil || n > 1<<62 {
		return 0, fmt.Errorf("bad byte size %q: want a number and a unit, as 2GB or 512MiB", s)
	}
	return int64(n), nil
}

// FormatBytes prints a byte size as "2.0 GiB" (0 is "unlimited").
func FormatBytes(n int64) string {
	if n <= 0 {
		return "unlimited"
	}
	return humanize.IBytes(uint64(n))
}

// DefaultMemoryLimit is 75% of the machine's RAM (MemTotal of
// /proc/meminfo), leaving room for the OS, the Go runtime's slack and the
// tables themselves; 4 GiB where the size cannot be read.
func DefaultMemoryLimit() int64 {
	if total := memTotal(); total > 0 {
		return total / 4 * 3
	}
	return 4 << 30
}

// HostMemory is the machine's RAM (MemTotal of /proc/meminfo), 0 where
// it cannot be read.
func HostMemory() int64 { return memTotal() }

func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// BindingLimit is the limit of the accountant, this one or an ancestor,
// with the fewest bytes free (0 where none has a limit): the one an error
// about a reservation that does not fit names (a query's own accountant
// is unlimited under the database's limit).
func (m *Memory) BindingLimit() int64 {
	free, binding := int64(math.MaxInt64), int64(0)
	for ; m != nil; m = m.parent {
		if limit := m.limit.Load(); limit > 0 && max(0, limit-m.used.Load()) < free {
			free, binding = max(0, limit-m.used.Load()), limit
		}
	}
	return binding
}

// Free is the bytes that can still be reserved before this accountant or
// an ancestor reaches its limit (math.MaxInt64 where none has one).
// Operators that spill size their buffers by it; it is a snapshot, as the
// other workers of a query reserve concurrently.
func (m *Memory) Free() int64 {
	free := int64(math.MaxInt64)
	for ; m != nil; m = m.parent {
		if limit := m.limit.Load(); limit > 0 {
			free = min(free, max(0, limit-m.used.Load()))
		}
	}
	return free
}
