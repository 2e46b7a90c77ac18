package server

import (
	"net"
	"sync/atomic"
)

// The server's part of SHOW STATUS (engine/status.go): connections and the
// bytes that crossed the network, counted per connection and in all.

// traffic counts the bytes of a connection or of the server.
type traffic struct{ received, sent atomic.Int64 }

// countingConn counts what a client connection reads and writes, in its
// own counts and the server's.
type countingConn struct {
	net.Conn
	own, all *traffic
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.own.received.Add(int64(n))
	c.all.received.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.own.sent.Add(int64(n))
	c.all.sent.Add(int64(n))
	return n, err
}

// status is what a session's SHOW [GLOBAL] STATUS adds: the server's
// connections, and the bytes of the server (global) or of the session.
func (s *Server) status(own *traffic, global bool) map[string]int64 {
	s.mu.Lock()
	open, connections, maxUsed := len(s.sessions), s.connections, s.maxUsed
	s.mu.Unlock()
	t := own
	if global {
		t = &s.traffic
	}
	return map[string]int64{"Threads_connected": int64(open), "Connections": connections,
		"Max_used_connections": int64(maxUsed), "Bytes_received": t.received.Load(), "Bytes_sent": t.sent.Load()}
}
