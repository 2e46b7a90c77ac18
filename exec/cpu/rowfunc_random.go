package cpu

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"gpusql/sql"
)

// RAND, UUID, UUID_SHORT and SLEEP (sql/functions_random.go).

func init() {
	stringBodies["rand_row_seed"] = func(f *rowFunc, a []val) val {
		r := newMyRand(a[0].i) // NULL reads as 0, as MySQL's val_int
		return val{f: r.next()}
	}
	stringBodies["uuid"] = func(f *rowFunc, a []val) val { return sv(uuidV1()) }
	stringBodies["uuid_short"] = func(f *rowFunc, a []val) val { return iv(int64(uuidShort.Add(1) - 1)) }
	nullSafeRowFuncs["rand_row_seed"] = true
	nullSafeRowFuncs["sleep"] = true
}

// compiledBodies make the bodies that need the run: RAND(N)'s shared
// sequence, SLEEP's cancellation.
var compiledBodies = map[string]func(c *compiler, e *sql.Func) func(f *rowFunc, a []val) val{
	"rand":  (*compiler).randBody,
	"sleep": (*compiler).sleepBody,
}

// sleepBody makes SLEEP's body: it waits n seconds, or until the query's
// context ends (then 1, and the executor reports the cancellation).
func (c *compiler) sleepBody(_ *sql.Func) func(f *rowFunc, a []val) val {
	ctx := context.Background()
	if c.x != nil {
		ctx = c.x.ctx
	}
	return func(f *rowFunc, a []val) val {
		if a[0].null || a[0].f < 0 || math.IsNaN(a[0].f) {
			raise(fmt.Errorf("Incorrect arguments to sleep"))
		}
		t := time.NewTimer(time.Duration(min(a[0].f, 1e9) * float64(time.Second)))
		defer t.Stop()
		select {
		case <-t.C:
			return iv(0)
		case <-ctx.Done():
			return iv(1)
		}
	}
}

// myRand is MySQL's my_rnd generator (mysys/my_rnd.cc): two seeds below
// 2^30-1, as RAND(N) initializes them from N.
type myRand struct{ seed1, seed2 uint64 }

const myRandMax = 0x3FFFFFFF

func newMyRand(n int64) *myRand {
	t := uint32(n) // MySQL: (uint32) args[0]->val_int()
	return &myRand{seed1: uint64(t*0x10001+55555555) % myRandMax, seed2: uint64(t*0x10000001) % myRandMax}
}

func (r *myRand) next() float64 {
	r.seed1 = (r.seed1*3 + r.seed2) % myRandMax
	r.seed2 = (r.seed1 + r.seed2 + 33) % myRandMax
	return float64(r.seed1) / float64(myRandMax)
}

// randBody makes RAND's body: unseeded, a uniform double per row; with a
// constant seed, one my_rnd sequence for the whole run, which the
// pipeline's workers draw from in turn (so no two rows repeat it).
func (c *compiler) randBody(e *sql.Func) func(f *rowFunc, a []val) val {
	if len(e.Args) == 0 {
		return func(f *rowFunc, a []val) val { return val{f: rand.Float64()} }
	}
	k, _ := e.Args[0].(*sql.Const)
	seed := int64(0)
	if k != nil {
		seed = k.I
	}
	seq := &randSeq{r: newMyRand(seed)}
	if c.x != nil {
		c.x.mu.Lock()
		if c.x.rands == nil {
			c.x.rands = map[*sql.Func]*randSeq{}
		}
		if s, ok := c.x.rands[e]; ok {
			seq = s
		} else {
			c.x.rands[e] = seq
		}
		c.x.mu.Unlock()
	}
	return func(f *rowFunc, a []val) val { return val{f: seq.next()} }
}

// randSeq is one RAND(N)'s sequence in a run, shared by the workers.
type randSeq struct {
	mu sync.Mutex
	r  *myRand
}

func (s *randSeq) next() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.next()
}

// uuidState is the process's version 1 UUID generator: a random node
// (multicast bit set, as RFC 4122 4.5 asks of a node that is not a MAC
// address) and clock sequence, and the last timestamp, kept strictly
// increasing so that two calls in one clock tick differ.
var uuidState struct {
	mu    sync.Mutex
	node  [6]byte
	clock uint16
	last  uint64
	init  bool
}

// uuidEpoch is 1582-10-15 (the Gregorian reform) in 100 ns units before
// 1970-01-01.
const uuidEpoch = 0x01B21DD213814000

func uuidV1() string {
	s := &uuidState
	s.mu.Lock()
	if !s.init {
		var b [8]byte
		_, _ = crand.Read(b[:])
		copy(s.node[:], b[:6])
		s.node[0] |= 0x01
		s.clock = (uint16(b[6])<<8 | uint16(b[7])) & 0x3FFF
		s.init = true
	}
	t := uint64(time.Now().UnixNano()/100) + uuidEpoch
	if t <= s.last {
		t = s.last + 1
	}
	s.last = t
	node, clock := s.node, s.clock
	s.mu.Unlock()
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", uint32(t), uint16(t>>32), uint16(t>>48)&0x0FFF|0x1000,
		clock|0x8000, node[:])
}

// uuidShort is UUID_SHORT's counter: server_id 1 in the top byte, the
// process's start in seconds from bit 24.
var uuidShort = func() *atomic.Uint64 {
	var u atomic.Uint64
	u.Store(1<<56 + uint64(time.Now().Unix())<<24)
	return &u
}()
