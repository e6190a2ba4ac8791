package device

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A driver that crashes on bad SPIR-V takes its process with it (RADV in Mesa 22.3 dereferences
// NULL on SPIR-V that spirv-val rejects). ChildCompiler therefore compiles in a child process
// that serves ServeCompileChild over pipes: a crash or a hang kills only the child, the module
// gets a *CrashError, and the next compile starts a new child.

// childRequest is one line the parent writes: open a target, or compile a module.
type childRequest struct {
	Open      string    `json:"open,omitempty"`
	SPIRV     []byte    `json:"spirv,omitempty"`
	Entry     string    `json:"entry,omitempty"`
	LocalSize [3]uint32 `json:"local_size"`

	// A graphics compile (CompileGraphics) sets Graphics and these.
	Graphics  bool     `json:"graphics,omitempty"`
	Vert      []byte   `json:"vert,omitempty"`
	Frag      []byte   `json:"frag,omitempty"`
	VertEntry string   `json:"vert_entry,omitempty"`
	FragEntry string   `json:"frag_entry,omitempty"`
	Formats   []Format `json:"formats,omitempty"`
}

// childReply is one line the child writes back.
type childReply struct {
	Target string    `json:"target,omitempty"`
	Facts  *Facts    `json:"facts,omitempty"`
	Stats  Stats     `json:"stats,omitempty"`
	Err    *childErr `json:"err,omitempty"`
}

// childErr carries a typed error across the pipe.
type childErr struct {
	Kind    string `json:"kind"` // driver, argument, spirv, unavailable, other
	Message string `json:"message"`
	Call    string `json:"call,omitempty"`
	Result  int32  `json:"result,omitempty"`
	Func    string `json:"func,omitempty"`
	Index   int    `json:"index,omitempty"`
	Offset  int    `json:"offset,omitempty"`
}

func encodeErr(err error) *childErr {
	if err == nil {
		return nil
	}
	ce := &childErr{Kind: "other", Message: err.Error()}
	var de *DriverError
	var ae *ArgumentError
	var se *SPIRVError
	switch {
	case errors.As(err, &de):
		ce.Kind, ce.Call, ce.Result, ce.Message = "driver", de.Call, de.Result, de.Message
	case errors.As(err, &ae):
		ce.Kind, ce.Func, ce.Index, ce.Message = "argument", ae.Func, ae.Index, ae.Reason
	case errors.As(err, &se):
		ce.Kind, ce.Offset, ce.Message = "spirv", se.Offset, se.What
	case errors.Is(err, ErrUnavailable):
		ce.Kind = "unavailable"
	}
	return ce
}

func (ce *childErr) decode() error {
	switch ce.Kind {
	case "driver":
		return &DriverError{Call: ce.Call, Result: ce.Result, Message: ce.Message}
	case "argument":
		return &ArgumentError{Func: ce.Func, Index: ce.Index, Reason: ce.Message}
	case "spirv":
		return &SPIRVError{Offset: ce.Offset, What: ce.Message}
	case "unavailable":
		return fmt.Errorf("%w: %s", ErrUnavailable, ce.Message)
	}
	return errors.New(ce.Message)
}

// ServeCompileChild is the child side of ChildCompiler: it reads requests from r and writes
// replies to w, one JSON object a line, until r ends. A program offers it as a hidden
// subcommand (airpipe __compile-child) whose main calls ServeCompileChild(os.Stdin, os.Stdout).
func ServeCompileChild(r io.Reader, w io.Writer) error {
	echoMessages(os.Stderr)
	dec := json.NewDecoder(bufio.NewReader(r))
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	var c *Compiler
	for {
		var req childRequest
		if err := dec.Decode(&req); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("compile child: reading request: %w", err)
		}
		var rep childReply
		switch {
		case req.Open != "":
			if c != nil {
				c.Close()
			}
			var err error
			c, err = OpenCompiler(req.Open)
			if err != nil {
				rep.Err = encodeErr(err)
			} else {
				f := c.Facts()
				if math.IsInf(f.Limits.TimestampPeriod, 0) || math.IsNaN(f.Limits.TimestampPeriod) {
					f.Limits.TimestampPeriod = -1 // JSON has no infinity; start() turns -1 back
				}
				rep.Target, rep.Facts = c.Target().Name, &f
			}
		case c == nil:
			rep.Err = &childErr{Kind: "other", Message: "compile child: compile before open"}
		case req.Graphics:
			st, err := c.CompileGraphics(req.Vert, req.Frag, req.VertEntry, req.FragEntry, req.Formats)
			rep.Stats, rep.Err = st, encodeErr(err)
		default:
			st, err := c.CompileCompute(req.SPIRV, req.Entry, req.LocalSize)
			rep.Stats, rep.Err = st, encodeErr(err)
		}
		if err := enc.Encode(&rep); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
}

// messagePrefix starts each driver message a compile child echoes to its stderr.
const messagePrefix = "driver-message: "

// CrashError is a compile whose child process died or was killed: the driver crashed or hung.
type CrashError struct {
	Target   string
	Timeout  bool     // killed after ChildCompiler.Timeout
	Status   string   // the process's end, e.g. "exit status 2 (SIGSEGV: segmentation violation)"
	Messages []string // what the driver reported (VK_EXT_debug_report) before it died
	Stderr   string   // the start of what the child wrote to stderr
}

func (e *CrashError) Error() string {
	msg := ""
	if len(e.Messages) > 0 {
		msg = ": " + strings.Join(e.Messages, "; ")
	}
	if e.Timeout {
		return fmt.Sprintf("compile child for %s: timed out and was killed (%s)%s", e.Target, e.Status, msg)
	}
	return fmt.Sprintf("compile child for %s: died: %s%s", e.Target, e.Status, msg)
}

// ChildCompiler compiles in a child process so that a driver crash or hang fails only the
// module being compiled. It is safe for concurrent use, but compiles one module at a time; use
// one per worker for parallelism.
type ChildCompiler struct {
	// Timeout, when positive, bounds each compile; the child is killed when it runs over.
	Timeout time.Duration

	argv, env []string
	spec      string
	target    Target
	facts     Facts

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	dec    *json.Decoder
	stderr *tailBuffer
}

// OpenChildCompiler starts argv (with env added to this process's environment) as a compile
// child for target and opens target in it. argv is a program that runs ServeCompileChild,
// such as {os.Args[0], "__compile-child"}.
func OpenChildCompiler(target string, argv, env []string) (*ChildCompiler, error) {
	if len(argv) == 0 {
		return nil, argErr("OpenChildCompiler", -1, "empty command")
	}
	c := &ChildCompiler{argv: argv, env: env, spec: target, target: Target{Name: target}}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.start(); err != nil {
		return nil, err
	}
	return c, nil
}

// Target is what the child compiles for.
func (c *ChildCompiler) Target() Target { return c.target }

// Facts describe the child's device.
func (c *ChildCompiler) Facts() Facts { return c.facts }

// start launches the child and opens the target; c.mu is held.
func (c *ChildCompiler) start() error {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = append(cmd.Environ(), c.env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	c.stderr = &tailBuffer{max: 8192}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: starting compile child %q: %w", ErrUnavailable, c.argv[0], err)
	}
	c.cmd, c.stdin, c.dec = cmd, stdin, json.NewDecoder(bufio.NewReader(stdout))
	rep, err := c.roundTrip(childRequest{Open: c.spec})
	if err != nil {
		return err
	}
	if rep.Err != nil {
		c.stop()
		return rep.Err.decode()
	}
	c.target = Target{Name: rep.Target}
	if rep.Facts != nil {
		c.facts = *rep.Facts
		if c.facts.Limits.TimestampPeriod < 0 {
			c.facts.Limits.TimestampPeriod = math.Inf(1)
		}
	}
	return nil
}

// openTimeout bounds starting a child and opening its target.
const openTimeout = time.Minute

// roundTrip sends req and reads the reply, killing the child when it dies or runs over
// Timeout; c.mu is held.
func (c *ChildCompiler) roundTrip(req childRequest) (*childReply, error) {
	type result struct {
		rep childReply
		err error
	}
	if req.Open == "" {
		c.stderr.reset()
	}
	done := make(chan result, 1)
	go func() {
		var r result
		if r.err = json.NewEncoder(c.stdin).Encode(&req); r.err == nil {
			r.err = c.dec.Decode(&r.rep)
		}
		done <- r
	}()
	var timeout <-chan time.Time
	limit := c.Timeout
	if req.Open != "" {
		limit = max(limit, openTimeout)
	}
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case r := <-done:
		if r.err == nil {
			return &r.rep, nil
		}
		status := c.stop()
		if sig := c.stderr.signal(); sig != "" {
			status += " (" + sig + ")"
		}
		return nil, &CrashError{Target: c.target.Name, Status: status, Messages: c.stderr.messages(), Stderr: c.stderr.String()}
	case <-timeout:
		c.cmd.Process.Kill()
		<-done
		status := c.stop()
		return nil, &CrashError{Target: c.target.Name, Timeout: true, Status: status, Messages: c.stderr.messages(), Stderr: c.stderr.String()}
	}
}

// stop ends the child and returns how it ended; c.mu is held.
func (c *ChildCompiler) stop() string {
	if c.cmd == nil {
		return "not running"
	}
	c.stdin.Close()
	err := c.cmd.Wait()
	status := "exit status 0"
	if err != nil {
		status = err.Error()
	}
	c.cmd, c.stdin, c.dec = nil, nil, nil
	return status
}

// CompileCompute is Compiler.CompileCompute run in the child. A crash or timeout is a
// *CrashError; the next call starts a new child.
func (c *ChildCompiler) CompileCompute(spirv []byte, entry string, localSize [3]uint32) (Stats, error) {
	return c.compile(childRequest{SPIRV: spirv, Entry: entry, LocalSize: localSize})
}

// CompileGraphics is Compiler.CompileGraphics run in the child, like CompileCompute.
func (c *ChildCompiler) CompileGraphics(vert, frag []byte, vertEntry, fragEntry string, colorFormats []Format) (Stats, error) {
	return c.compile(childRequest{Graphics: true, Vert: vert, Frag: frag, VertEntry: vertEntry, FragEntry: fragEntry, Formats: colorFormats})
}

func (c *ChildCompiler) compile(req childRequest) (Stats, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		if err := c.start(); err != nil {
			return nil, err
		}
	}
	rep, err := c.roundTrip(req)
	if err != nil {
		return nil, err
	}
	if rep.Err != nil {
		return nil, rep.Err.decode()
	}
	if rep.Stats == nil {
		rep.Stats = Stats{}
	}
	return rep.Stats, nil
}

// Close ends the child.
func (c *ChildCompiler) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop()
	return nil
}

// tailBuffer keeps the first max bytes written to it since the last reset (a crash's first
// lines name the signal; the Go traceback after them is of no use).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.b); room > 0 {
		t.b = append(t.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// reset forgets what was written so far.
func (t *tailBuffer) reset() {
	t.mu.Lock()
	t.b = t.b[:0]
	t.mu.Unlock()
}

// messages are the driver messages the child echoed.
func (t *tailBuffer) messages() []string {
	var out []string
	for _, l := range strings.Split(t.String(), "\n") {
		if m, ok := strings.CutPrefix(l, messagePrefix); ok {
			out = append(out, m)
		}
	}
	return out
}

// signal is the "SIGSEGV: segmentation violation" line of a Go crash report, or "".
func (t *tailBuffer) signal() string {
	for _, l := range strings.Split(t.String(), "\n") {
		if strings.HasPrefix(l, "SIG") && strings.Contains(l, ": ") {
			return l
		}
	}
	return ""
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}
