package exec

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// waitUntilWaiting spins until o waits for a lock (its Get runs in another
// goroutine).
func waitUntilWaiting(o *LockOwner) {
	for {
		o.locks.mu.Lock()
		w := o.waiting
		o.locks.mu.Unlock()
		if w != "" {
			return
		}
		runtime.Gosched()
	}
}

// TestUserLocksReentrantAndExclusive: a holder takes its lock again and
// must release it as often; another owner gets 0 without waiting at
// timeout 0, NULL-like (ok false) releasing a free lock, and the lock
// once all holds are released.
func TestUserLocksReentrantAndExclusive(t *testing.T) {
	u := NewUserLocks()
	a, b := u.Owner(1), u.Owner(2)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if ok, err := a.Get(ctx, "x", 0); !ok || err != nil {
			t.Fatalf("a.Get #%d = %v, %v", i, ok, err)
		}
	}
	if ok, _ := b.Get(ctx, "x", 0); ok {
		t.Fatal("b took a's lock")
	}
	if h := b.Holder("x"); h != a {
		t.Fatalf("holder %v, want a", h)
	}
	if rel, held := b.Release("x"); rel || !held {
		t.Fatalf("b.Release(a's lock) = %v, %v; want 0", rel, held)
	}
	if rel, held := a.Release("x"); !rel || !held {
		t.Fatal("a's first release failed")
	}
	if ok, _ := b.Get(ctx, "x", 0); ok {
		t.Fatal("b took the lock a still holds once")
	}
	a.Release("x")
	if _, held := a.Release("x"); held {
		t.Fatal("a released a free lock")
	}
	if ok, _ := b.Get(ctx, "x", 0); !ok {
		t.Fatal("b cannot take the freed lock")
	}
	if n := b.ReleaseAll(); n != 1 || b.Holder("x") != nil {
		t.Fatalf("ReleaseAll = %d, holder %v", n, b.Holder("x"))
	}
}

// TestUserLocksWaitAndDeadlock: a waiter gets the lock when its holder
// releases it; a wait that would close a cycle fails with the deadlock
// error; a cancelled context ends a wait.
func TestUserLocksWaitAndDeadlock(t *testing.T) {
	u := NewUserLocks()
	a, b := u.Owner(1), u.Owner(2)
	ctx := context.Background()
	a.Get(ctx, "x", 0)
	b.Get(ctx, "y", 0)
	got := make(chan error, 1)
	go func() {
		ok, err := b.Get(ctx, "x", -1)
		if err == nil && !ok {
			err = errors.New("timed out without a timeout")
		}
		got <- err
	}()
	waitUntilWaiting(b)
	if _, err := a.Get(ctx, "y", -1); !errors.Is(err, ErrUserLockDeadlock) {
		t.Fatalf("a waiting for b's lock while b waits for a's: %v, want the deadlock error", err)
	}
	if n := a.ReleaseAll(); n != 1 {
		t.Fatalf("a.ReleaseAll = %d", n)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if b.Holder("x") != b {
		t.Fatal("b does not hold x after its wait")
	}

	cctx, cancel := context.WithCancel(ctx)
	go func() {
		_, err := a.Get(cctx, "x", -1)
		got <- err
	}()
	waitUntilWaiting(a)
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
}

func TestLockName(t *testing.T) {
	long := string(make([]rune, 65))
	for _, c := range []struct {
		name string
		null bool
		ok   bool
	}{{"AbC", false, true}, {"", false, false}, {"x", true, false}, {long, false, false}, {long[:64], false, true}} {
		key, err := LockName(c.name, c.null)
		if (err == nil) != c.ok {
			t.Errorf("LockName(%q, %v): %v", c.name, c.null, err)
		}
		if c.name == "AbC" && key != "abc" {
			t.Errorf("key %q, want abc", key)
		}
	}
}
