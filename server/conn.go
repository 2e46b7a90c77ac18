package server

import (
	"bufio"
	"errors"
	"net"
	"os"
	"sync"
	"time"
)

// guardedConn is the network connection under the MySQL protocol library.
// It adds two things the library lacks:
//
//   - a bound on what a client may send for one command: the bytes read
//     since the server last wrote (one command packet, split or not) may
//     not pass maxPacket, so an oversized or endless packet closes that
//     connection instead of growing the server's memory;
//   - noticing a client that goes away while its query runs: MySQL clients
//     send nothing while they wait for a result, so during a query a
//     background read that ends in an error means the client is gone and
//     the query is cancelled. A byte read there (a client that pipelines)
//     is kept and handed to the next Read;
//   - buffering what the server writes once the client is logged in: the
//     library writes every row as its own packet, one system call each,
//     which caps a large result at a few MB/s; the serving loop flushes
//     after each command's answer.
type guardedConn struct {
	net.Conn
	maxPacket int64
	bw        *bufio.Writer // nil until buffered() (the handshake is not)

	mu      sync.Mutex
	read    int64  // bytes read since the last write
	pending []byte // read by the watcher, not yet handed out
}

var errPacketTooLarge = errors.New("packet too large (max_allowed_packet)")

func (c *guardedConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.read += int64(n)
	over := c.read > c.maxPacket
	c.mu.Unlock()
	if over {
		return n, errPacketTooLarge
	}
	return n, err
}

func (c *guardedConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.read = 0
	c.mu.Unlock()
	if c.bw != nil {
		return c.bw.Write(p)
	}
	return c.Conn.Write(p)
}

// buffered starts buffering writes; flush sends them.
func (c *guardedConn) buffered() { c.bw = bufio.NewWriterSize(c.Conn, 64<<10) }

func (c *guardedConn) flush() error {
	if c.bw == nil {
		return nil
	}
	return c.bw.Flush()
}

// watch calls gone if the client closes the connection before stop is
// called; stop ends the watch and returns once the background read has.
// Bytes that arrive meanwhile (a pipelined command, a TLS alert before
// the close) are kept for the next Read and the watch goes on; more than
// a packet's worth of them is a client to drop.
func (c *guardedConn) watch(gone func()) (stop func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := c.Conn.Read(buf)
			c.mu.Lock()
			c.pending = append(c.pending, buf[:n]...)
			flood := int64(len(c.pending)) > c.maxPacket
			c.mu.Unlock()
			if flood || err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				gone()
				return
			}
			if err != nil {
				return // stopped
			}
		}
	}()
	return func() {
		// A deadline in the past wakes the read; then none again.
		_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
		<-done
		_ = c.Conn.SetReadDeadline(time.Time{})
	}
}
