package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// MySQL's named user-level locks (GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK,
// IS_USED_LOCK, RELEASE_ALL_LOCKS). A lock is exclusive to one session and
// re-entrant: a session may take a name it holds again, and must release
// it as many times. Locks are not transactional (COMMIT and ROLLBACK keep
// them) and end with the session (LockOwner.ReleaseAll when a connection
// closes). Names are compared case-insensitively (MySQL lower-cases them)
// and hold 1 to 64 characters.
//
// A session waits for a lock another holds until the timeout, until its
// query's context ends (KILL, a client gone), or until the wait would close
// a cycle of sessions each waiting for a lock the next holds: MySQL's
// deadlock error, raised for the session that would close it.

// UserLocks is one database's table of named locks, shared by all its
// sessions.
type UserLocks struct {
	mu   sync.Mutex
	held map[string]*userLock
}

type userLock struct {
	owner *LockOwner
	count int
	// freed is closed (and replaced) whenever the lock is released, to
	// wake the sessions waiting for it.
	freed chan struct{}
}

// LockOwner is one session's side of the table: the locks it holds and
// the one it waits for (for deadlock detection).
type LockOwner struct {
	locks *UserLocks
	// ID is what IS_USED_LOCK returns: the session's connection id.
	ID      int64
	waiting string // the lock name this session waits for, "" when none
	holds   map[string]int
}

// NewUserLocks returns an empty lock table.
func NewUserLocks() *UserLocks { return &UserLocks{held: map[string]*userLock{}} }

// Owner returns a session's handle on the table.
func (u *UserLocks) Owner(id int64) *LockOwner {
	return &LockOwner{locks: u, ID: id, holds: map[string]int{}}
}

// ErrUserLockDeadlock is MySQL's ER_USER_LOCK_DEADLOCK (3058).
var ErrUserLockDeadlock = errors.New("Deadlock found when trying to get user-level lock; try rolling back transaction/releasing locks and restarting lock acquisition.")

// maxLockName is MySQL's limit on a lock name's length in characters.
const maxLockName = 64

// LockName checks a lock name as MySQL does (ER_USER_LOCK_WRONG_NAME for
// NULL, ” and names over 64 characters) and returns the key it is held
// under.
func LockName(name string, null bool) (string, error) {
	switch {
	case null:
		return "", fmt.Errorf("Incorrect user-level lock name 'NULL'.")
	case name == "" || len([]rune(name)) > maxLockName:
		return "", fmt.Errorf("Incorrect user-level lock name '%s'.", name)
	}
	return strings.ToLower(name), nil
}

// Get takes the lock key (from LockName), waiting up to timeout (negative:
// without limit) while another session holds it. It returns true when the
// lock is taken, false on timeout; ctx's end and a deadlock are errors.
func (o *LockOwner) Get(ctx context.Context, key string, timeout time.Duration) (bool, error) {
	u := o.locks
	var deadline <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	u.mu.Lock()
	defer func() { o.waiting = ""; u.mu.Unlock() }()
	for {
		l := u.held[key]
		if l == nil {
			l = &userLock{freed: make(chan struct{})}
			u.held[key] = l
		}
		if l.owner == nil || l.owner == o {
			l.owner = o
			l.count++
			o.holds[key]++
			return true, nil
		}
		if timeout == 0 {
			return false, nil
		}
		o.waiting = key
		if u.closesCycle(o, l.owner) {
			return false, ErrUserLockDeadlock
		}
		freed := l.freed
		u.mu.Unlock()
		select {
		case <-freed:
			u.mu.Lock()
		case <-deadline:
			u.mu.Lock()
			return false, nil
		case <-ctx.Done():
			u.mu.Lock()
			return false, ctx.Err()
		}
	}
}

// closesCycle reports whether o waiting for a lock holder h closes a
// cycle: h waits for a lock whose holder waits ... for a lock o holds.
// Called with u.mu held; each session waits for at most one lock, so the
// walk is a path.
func (u *UserLocks) closesCycle(o, h *LockOwner) bool {
	for seen := 0; h != nil && seen <= len(u.held); seen++ {
		if h == o {
			return true
		}
		if h.waiting == "" {
			return false
		}
		l := u.held[h.waiting]
		if l == nil {
			return false
		}
		h = l.owner
	}
	return false
}

// Release gives up one hold of key: 1 when o held it, 0 when another
// session holds it, and ok false (NULL) when no one does.
func (o *LockOwner) Release(key string) (released bool, ok bool) {
	u := o.locks
	u.mu.Lock()
	defer u.mu.Unlock()
	l := u.held[key]
	if l == nil || l.owner == nil {
		return false, false
	}
	if l.owner != o {
		return false, true
	}
	l.count--
	o.holds[key]--
	if l.count == 0 {
		delete(o.holds, key)
		u.free(key, l)
	}
	return true, true
}

// free drops a lock no one holds any more and wakes its waiters.
func (u *UserLocks) free(key string, l *userLock) {
	l.owner = nil
	close(l.freed)
	l.freed = make(chan struct{})
	delete(u.held, key)
}

// ReleaseAll gives up every lock o holds and returns how many holds that
// was (RELEASE_ALL_LOCKS counts a re-entered lock once per GET_LOCK).
func (o *LockOwner) ReleaseAll() int64 {
	u := o.locks
	u.mu.Lock()
	defer u.mu.Unlock()
	var n int64
	for key, c := range o.holds {
		n += int64(c)
		if l := u.held[key]; l != nil && l.owner == o {
			u.free(key, l)
		}
	}
	o.holds = map[string]int{}
	return n
}

// Holder returns the session holding key, or nil when it is free.
func (o *LockOwner) Holder(key string) *LockOwner {
	u := o.locks
	u.mu.Lock()
	defer u.mu.Unlock()
	if l := u.held[key]; l != nil {
		return l.owner
	}
	return nil
}

// Waiting returns the name of the lock o waits for, "" when none.
func (o *LockOwner) Waiting() string {
	o.locks.mu.Lock()
	defer o.locks.mu.Unlock()
	return o.waiting
}

type lockOwnerKey struct{}

// WithLockOwner returns ctx carrying the session's lock owner, which the
// executors' GET_LOCK and its kin act for.
func WithLockOwner(ctx context.Context, o *LockOwner) context.Context {
	return context.WithValue(ctx, lockOwnerKey{}, o)
}

// LockOwnerFrom returns the lock owner ctx carries, or nil.
func LockOwnerFrom(ctx context.Context) *LockOwner {
	o, _ := ctx.Value(lockOwnerKey{}).(*LockOwner)
	return o
}
