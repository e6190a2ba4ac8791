package proc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ReplyPrefix starts every reply line a Server's child writes on its
// standard output; other lines (a driver's chatter) are kept as log, never
// read as replies.
const ReplyPrefix = "AIRPIPE-REPLY "

// Server is a long-lived contained child that answers requests one at a
// time: each request is written to its standard input as one line, each
// reply is one line ReplyPrefix+payload on its standard output. The child
// runs in its own process group, memory-limited as Spec says; a call that
// passes its timeout, or whose context ends, kills the group, and a child
// that dies (a driver crash) takes only the call in flight with it: the next
// Call starts a fresh child. Starting a process per request is what it
// saves (a Vulkan driver takes ~100 ms to open). Safe for concurrent use;
// calls are serialised.
type Server struct {
	spec Spec
	mu   sync.Mutex
	live *serverChild
}

// serverChild is one running child.
type serverChild struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // reply payloads, closed when stdout ends
	stderr *callLog
	log    *callLog
	done   chan struct{} // closed once the child has been waited for
	// started is when the child started.
	started time.Time
}

// callLog is a capped writer that each Call empties when it begins, so an
// Outcome's Stderr (and the log of stdout lines that were no reply) is what
// the child wrote during that call: a crash's words, not an earlier
// request's.
type callLog struct {
	mu sync.Mutex
	c  capped
}

func (l *callLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c.Write(p)
}

func (l *callLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.c.buf.Reset()
	l.c.over = false
}

// read returns a copy of what the log holds and whether it was capped.
func (l *callLog) read() ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.c.buf.Bytes()), l.c.over
}

// NewServer returns a Server for the child s describes (s.Stdin and
// s.Timeout are ignored: each Call brings its own).
func NewServer(s Spec) *Server { return &Server{spec: s} }

// Call sends one request line (without its newline) and waits up to timeout
// (0: only ctx) for the reply. answered reports that reply holds the
// child's payload; otherwise the Outcome says how the child ended (killed
// after the timeout, cancelled, crashed or exited, with its stderr), and the
// child is gone. The error is non-nil only when the child could not be
// started (ErrNotFound when the program is absent).
func (s *Server) Call(ctx context.Context, request []byte, timeout time.Duration) (reply []byte, answered bool, out Outcome, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.IndexByte(request, '\n') >= 0 {
		return nil, false, Outcome{}, fmt.Errorf("%s: a request must be one line", s.spec.Path)
	}
	if s.live == nil {
		if s.live, err = s.startChild(); err != nil {
			return nil, false, Outcome{}, err
		}
	} else {
		// What a running child wrote before this call is no part of it.
		s.live.stderr.reset()
		s.live.log.reset()
	}
	c := s.live
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	began := time.Now()
	// A write to a dead child fails; its reply channel is closed then too.
	_, _ = c.stdin.Write(append(append([]byte(nil), request...), '\n'))
	select {
	case line, ok := <-c.lines:
		if ok {
			out := Outcome{Duration: time.Since(began)}
			if s.spec.MaxRSS > 0 && residentBytes(c.cmd.Process.Pid) > s.spec.MaxRSS {
				s.retire(c)
				out.Retired = true
			}
			return line, true, out, nil
		}
		out = s.reap(c)
	case <-ctx.Done():
		out = s.reap(c)
		out.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		out.Cancelled = !out.TimedOut
	}
	out.Duration = time.Since(began)
	return nil, false, out, nil
}

// Close stops the child, if one runs, and waits for it.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live != nil {
		s.retire(s.live)
	}
}

// retire ends c, which is between requests, as the end of its requests
// does (its stdin closed); one that does not end within 2 s is killed.
func (s *Server) retire(c *serverChild) {
	_ = c.stdin.Close()
	select {
	case <-c.done:
	case <-time.After(2 * time.Second):
	}
	s.reap(c)
}

// residentBytes is the resident set of process pid (VmRSS: the second field
// of /proc/PID/statm, in pages, which the kernel writes in less than half
// the time of /proc/PID/status), or 0 where it cannot be read (not Linux,
// or the process is gone).
func residentBytes(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// reap kills c's process group, waits for it and forgets it, describing how
// it ended.
func (s *Server) reap(c *serverChild) Outcome {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	go func() {
		for range c.lines { // a reply that came too late
		}
	}()
	<-c.done
	if s.live == c {
		s.live = nil
	}
	stderr, overErr := c.stderr.read()
	log, overLog := c.log.read()
	out := Outcome{Stderr: stderr, Stdout: log, Truncated: overErr || overLog}
	out.ExitCode = c.cmd.ProcessState.ExitCode()
	if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		out.Signal = ws.Signal().String()
	}
	count(s.spec, c.cmd.ProcessState, time.Since(c.started))
	return out
}

// startChild starts the program in its own process group.
func (s *Server) startChild() (*serverChild, error) {
	path, err := exec.LookPath(s.spec.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.spec.Path, ErrNotFound)
	}
	argv := append([]string{path}, s.spec.Args...)
	if s.spec.MemoryLimit > 0 {
		kib := strconv.FormatUint(s.spec.MemoryLimit/1024, 10)
		argv = append([]string{"/bin/sh", "-c", `ulimit -v "$0" && exec "$@"`, kib}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.spec.Dir
	if s.spec.Env != nil {
		cmd.Env = append(cmd.Environ(), s.spec.Env...)
	}
	limit := s.spec.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	c := &serverChild{cmd: cmd, lines: make(chan []byte), stderr: &callLog{c: capped{max: 64 << 10}}, log: &callLog{c: capped{max: 64 << 10}}, done: make(chan struct{})}
	cmd.Stderr = c.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.spec.Path, err)
	}
	c.started = time.Now()
	// One goroutine reads the replies to the end of the stream and only
	// then waits for the child, as exec requires of a pipe's reader.
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := readLine(r, limit)
			if p, ok := bytes.CutPrefix(line, []byte(ReplyPrefix)); ok {
				c.lines <- p
			} else if len(line) > 0 {
				_, _ = c.log.Write(append(line, '\n'))
			}
			if err != nil {
				break
			}
		}
		close(c.lines)
		_ = cmd.Wait() // how it ended is read off ProcessState
		close(c.done)
	}()
	return c, nil
}

// readLine reads one line without its newline, refusing (as the end of the
// stream) a line longer than limit.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, fmt.Errorf("a line of more than %d bytes", limit)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}
