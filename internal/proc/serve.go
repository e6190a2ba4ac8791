package proc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

// Serve is the child side of a Server: it reads requests, JSON values of
// type Q one a line, from r until r ends, and writes what answer makes of
// each as one reply line, ReplyPrefix + JSON, on w. A request that does not
// decode, or a reply that does not encode or cannot be written, ends it with
// the error (the parent sees the child gone).
func Serve[Q, R any](r io.Reader, w io.Writer, answer func(Q) R) error {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<20))
	out := bufio.NewWriter(w)
	for {
		var q Q
		if err := dec.Decode(&q); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading a request: %w", err)
		}
		b, err := json.Marshal(answer(q))
		if err != nil {
			return fmt.Errorf("writing a reply: %w", err)
		}
		// One line, marked as the reply: whatever else reaches stdout (a
		// driver's chatter) is kept as log, never read as a reply.
		_, _ = out.WriteString(ReplyPrefix)
		_, _ = out.Write(b)
		_ = out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return fmt.Errorf("writing a reply: %w", err)
		}
	}
}

// Pool is a set of Servers for one Spec shared by concurrent callers: each
// Call takes an idle Server or starts one, and keeps it for the next call
// while fewer than the pool's maximum are idle (a child lives on between
// calls; one that crashed or timed out is restarted by its next Call).
type Pool struct {
	spec Spec
	idle chan *Server
}

// NewPool returns a pool of Servers for s that keeps at most maxIdle idle.
func NewPool(s Spec, maxIdle int) *Pool {
	return &Pool{spec: s, idle: make(chan *Server, maxIdle)}
}

// Call is Server.Call on an idle Server of the pool, or on a new one.
func (p *Pool) Call(ctx context.Context, request []byte, timeout time.Duration) (reply []byte, answered bool, out Outcome, err error) {
	var s *Server
	select {
	case s = <-p.idle:
	default:
		s = NewServer(p.spec)
	}
	defer func() {
		select {
		case p.idle <- s:
		default:
			s.Close()
		}
	}()
	return s.Call(ctx, request, timeout)
}

// ServeIfChild is for a test binary that stands in for a child program
// (TestMain calls it first): when the environment variable env is "1" it
// runs serve on stdin and stdout and exits, with status 1 and the error on
// stderr when serve fails; otherwise it returns and the tests run.
func ServeIfChild(env string, serve func(io.Reader, io.Writer) error) {
	if os.Getenv(env) != "1" {
		return
	}
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}
