package exec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Spill is a query's temporary-file space. Operators that pass the memory
// limit (an external sort's runs, a hash aggregate's partitions) write
// there instead of failing. The files live in one directory made on first
// use under SpillOptions.Dir and removed whole by Close, which the
// executor defers at the start of the query: it runs when the query ends,
// fails, is cancelled or recovers from a panic, so no file outlives its
// query. Disk use is bounded by SpillOptions.MaxBytes: a write that would
// pass it fails with a *SpillLimitError naming the operator.
type Spill struct {
	opts   SpillOptions
	used   atomic.Int64
	mu     sync.Mutex
	dir    string // made on first use
	closed bool
}

// SpillOptions say where a query's temporary files go and how many bytes
// they may hold at once.
type SpillOptions struct {
	// Dir is the parent of the query's spill directory ("": os.TempDir()).
	Dir string
	// MaxBytes bounds the bytes on disk at once (0: unlimited).
	MaxBytes int64
}

// NewSpill returns a query's spill space; nothing is made on disk until an
// operator spills.
func NewSpill(opts SpillOptions) *Spill { return &Spill{opts: opts} }

// Used is the bytes the query's spill files hold now.
func (s *Spill) Used() int64 { return s.used.Load() }

// Create makes a new temporary file for operator op (its EXPLAIN name).
func (s *Spill) Create(op string) (*SpillFile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("%s: spill space closed (the query has ended)", op)
	}
	if s.dir == "" {
		parent := s.opts.Dir
		if parent == "" {
			parent = os.TempDir()
		}
		d, err := os.MkdirTemp(parent, "gpusql-spill-")
		if err != nil {
			return nil, fmt.Errorf("%s: cannot spill to disk: %w (set another directory with SET tmpdir or --tmpdir)", op, err)
		}
		s.dir = d
	}
	f, err := os.CreateTemp(s.dir, "run-")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot spill to disk: %w", op, err)
	}
	return &SpillFile{f: f, s: s, op: op}, nil
}

// Dir is the query's spill directory ("" until an operator spilled).
func (s *Spill) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir
}

// Close removes every file of the query. Files still open are removed
// too (Linux keeps an open file's data until it is closed, and the
// operators holding them are done by then).
func (s *Spill) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir = ""
	s.used.Store(0)
	return err
}

// SpillFile is one temporary file: written once, then read from the start
// (possibly several times), then removed.
type SpillFile struct {
	f       *os.File
	s       *Spill
	op      string
	written int64
}

// Write appends p, charging its bytes to the query's disk limit.
func (f *SpillFile) Write(p []byte) (int, error) {
	n := int64(len(p))
	if u := f.s.used.Add(n); f.s.opts.MaxBytes > 0 && u > f.s.opts.MaxBytes {
		f.s.used.Add(-n)
		return 0, &SpillLimitError{Limit: f.s.opts.MaxBytes, Op: f.op}
	}
	m, err := f.f.Write(p)
	f.written += int64(m)
	f.s.used.Add(int64(m) - n)
	if err != nil {
		return m, fmt.Errorf("%s: writing spill file %s: %w", f.op, filepath.Base(f.f.Name()), err)
	}
	return m, nil
}

// Size is the bytes written.
func (f *SpillFile) Size() int64 { return f.written }

// Reader returns a reader of the file from its start.
func (f *SpillFile) Reader() (*os.File, error) {
	r, err := os.Open(f.f.Name())
	if err != nil {
		return nil, fmt.Errorf("%s: reading spill file: %w", f.op, err)
	}
	return r, nil
}

// Remove deletes the file and gives its bytes back to the disk limit.
func (f *SpillFile) Remove() {
	if f == nil || f.f == nil {
		return
	}
	f.f.Close()
	os.Remove(f.f.Name())
	f.s.used.Add(-f.written)
	f.f = nil
}

// SpillLimitError is the error of a query whose spill files would pass
// the disk limit.
type SpillLimitError struct {
	Limit int64
	Op    string
}

func (e *SpillLimitError) Error() string {
	return fmt.Sprintf("spill limit of %s exceeded by %s (raise it with SET max_spill_bytes = '10GB' or --max-spill, or raise the memory limit)",
		FormatBytes(e.Limit), e.Op)
}

type spillKey struct{}

// WithSpillOptions returns ctx carrying the options of the spill spaces
// the executors make for its queries.
func WithSpillOptions(ctx context.Context, o SpillOptions) context.Context {
	return context.WithValue(ctx, spillKey{}, o)
}

// SpillOptionsFrom returns the spill options ctx carries (the defaults:
// os.TempDir(), no disk limit, where it carries none).
func SpillOptionsFrom(ctx context.Context) SpillOptions {
	o, _ := ctx.Value(spillKey{}).(SpillOptions)
	return o
}
