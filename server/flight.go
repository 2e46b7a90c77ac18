package server

import (
	"errors"
	"net"
)

// ServeFlight serves Arrow Flight SQL on l.
func (s *Server) ServeFlight(l net.Listener) error {
	return errors.New("server: Arrow Flight SQL is not built yet")
}
