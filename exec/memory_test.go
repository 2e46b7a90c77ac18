package exec

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestParseFormatBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"2GB", 2 << 30}, {"2G", 2 << 30}, {"2 gib", 2 << 30}, {"512MiB", 512 << 20}, {"512mb", 512 << 20},
		{"1.5 GiB", 3 << 29}, {"64K", 64 << 10}, {"1048576", 1 << 20}, {"10B", 10}, {"1TB", 1 << 40},
	} {
		got, err := ParseBytes(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GB", "-1GB", "2XB", "two GB", "1e400GB"} {
		if n, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", bad, n)
		}
	}
	for n, want := range map[int64]string{2 << 30: "2.0 GiB", 512 << 20: "512 MiB", 3 << 29: "1.5 GiB", 0: "unlimited"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestMemoryReserve(t *testing.T) {
	parent := NewMemory(1000, nil)
	a, b := NewMemory(0, parent), NewMemory(0, parent)
	if err := a.Reserve(600, "Sort#1"); err != nil {
		t.Fatal(err)
	}
	// The parent's limit binds the queries together.
	err := b.Reserve(600, "HashJoin#3")
	var me *MemoryLimitError
	if !errors.As(err, &me) || me.Op != "HashJoin#3" || me.Limit != 1000 {
		t.Fatalf("second reservation: %v", err)
	}
	if got := err.Error(); got[:len("memory limit of 1000 B exceeded by HashJoin#3")] != "memory limit of 1000 B exceeded by HashJoin#3" {
		t.Errorf("error text %q", got)
	}
	if b.Used() != 0 || parent.Used() != 600 {
		t.Errorf("a failed reservation was kept: b %d parent %d", b.Used(), parent.Used())
	}
	a.Close()
	if parent.Used() != 0 || a.Peak() != 600 {
		t.Errorf("after Close: parent %d, peak %d", parent.Used(), a.Peak())
	}
	parent.SetLimit(0)
	if err := b.Reserve(1<<40, "Sort#1"); err != nil {
		t.Errorf("unlimited: %v", err)
	}
	b.Close()
}

func TestMemoryConcurrent(t *testing.T) {
	m := NewMemory(1<<20, nil)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				if m.Reserve(100, "x") == nil {
					m.Release(100)
				}
			}
		}()
	}
	wg.Wait()
	if m.Used() != 0 || m.Peak() > 1<<20 {
		t.Errorf("used %d peak %d", m.Used(), m.Peak())
	}
	ctx := WithMemory(context.Background(), m)
	if MemoryFrom(ctx) != m || MemoryFrom(context.Background()) != nil {
		t.Error("WithMemory / MemoryFrom")
	}
}

// The limit an error names is the one that binds: a query's accountant is
// unlimited under the database's (qgen seed 5909: a window's "memory
// limit of unlimited exceeded" under a 64 KiB database limit).
func TestMemoryBindingLimit(t *testing.T) {
	db := NewMemory(64<<10, nil)
	q := NewMemory(0, db)
	if got := q.BindingLimit(); got != 64<<10 {
		t.Errorf("binding limit %d, want the database's %d", got, 64<<10)
	}
	if got := NewMemory(0, nil).BindingLimit(); got != 0 {
		t.Errorf("no limit anywhere: %d", got)
	}
	tight := NewMemory(1<<20, db)
	if err := db.Reserve(60<<10, "x"); err != nil {
		t.Fatal(err)
	}
	if got := tight.BindingLimit(); got != 64<<10 {
		t.Errorf("the parent has 4 KiB free, the child 1 MiB: binding %d, want the parent's", got)
	}
}
