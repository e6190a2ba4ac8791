package device

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// A driver that crashes on bad SPIR-V takes its process with it (RADV in Mesa 22.3 dereferences
// NULL on SPIR-V that spirv-val rejects). ChildCompiler therefore compiles in a child process
// that serves ServeCompileChild over pipes: a crash or a hang kills only the child, the module
// gets a *CrashError, and the next compile starts a new child.

// childRequest is one line the parent writes: open a target, or compile a module.
type childRequest struct {
	Open string `json:"open,omitempty"`
	// Target is the target a compile is for: a child that has not opened it opens it first
	// (a fresh child, after the one before it was retired over its memory budget).
	Target    string    `json:"target,omitempty"`
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

// ServeCompileChild is the child side of ChildCompiler: it reads requests from r, one JSON
// object a line, and writes each reply to w as one line, proc.ReplyPrefix + JSON, until r
// ends. A program offers it as a hidden
// subcommand (airpipe __compile-child) whose main calls ServeCompileChild(os.Stdin, os.Stdout).
func ServeCompileChild(r io.Reader, w io.Writer) error {
	echoMessages(os.Stderr)
	var c *Compiler
	opened := "" // the target c was opened as
	open := func(target string) error {
		if c != nil {
			c.Close()
			c, opened = nil, ""
		}
		var err error
		if c, err = OpenCompiler(target); err != nil {
			return err
		}
		opened = target
		return nil
	}
	err := proc.Serve(r, w, func(req childRequest) childReply {
		var rep childReply
		if req.Open == "" && req.Target != "" && req.Target != opened {
			if err := open(req.Target); err != nil {
				return childReply{Err: encodeErr(err)}
			}
		}
		switch {
		case req.Open != "":
			if err := open(req.Open); err != nil {
				rep.Err = encodeErr(err)
			} else {
				rep.Target = c.Target().Name
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
		return rep
	})
	if err != nil {
		return fmt.Errorf("compile child: %w", err)
	}
	return nil
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
// module being compiled. The child is a contained, long-lived internal/proc Server: its own
// process group (a hang kills the whole group), one request line in, one reply line
// (proc.ReplyPrefix + JSON) out, a fresh child after a crash or once a child passes its
// resident-set budget. It is safe for concurrent use,
// but compiles one module at a time; use one per worker for parallelism.
type ChildCompiler struct {
	// Timeout, when positive, bounds each compile; the child is killed when it runs over.
	Timeout time.Duration

	argv   []string
	spec   string
	target Target

	mu     sync.Mutex
	srv    *proc.Server
	opened bool // the running child has opened the target
}

// OpenChildCompiler starts argv (with env added to this process's environment) as a compile
// child for target and opens target in it. argv is a program that runs ServeCompileChild,
// such as {os.Args[0], "__compile-child"}. A child whose resident set passes
// proc.DefaultMaxRSS after a compile is retired and the next compile starts a fresh one.
func OpenChildCompiler(target string, argv, env []string) (*ChildCompiler, error) {
	return openChildCompiler(target, argv, env, proc.DefaultMaxRSS)
}

// openChildCompiler is OpenChildCompiler with the children's resident-set budget (0: none).
func openChildCompiler(target string, argv, env []string, maxRSS uint64) (*ChildCompiler, error) {
	if len(argv) == 0 {
		return nil, argErr("OpenChildCompiler", -1, "empty command")
	}
	c := &ChildCompiler{argv: argv, spec: target, target: Target{Name: target},
		srv: proc.NewServer(proc.Spec{Path: argv[0], Args: argv[1:], Env: env, MaxOutput: 64 << 20, MaxRSS: maxRSS})}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.start(); err != nil {
		c.srv.Close()
		return nil, err
	}
	return c, nil
}

// Target is what the child compiles for.
func (c *ChildCompiler) Target() Target { return c.target }

// start opens the target in the child (starting one when none runs); c.mu is held.
func (c *ChildCompiler) start() error {
	rep, err := c.roundTrip(childRequest{Open: c.spec})
	if err != nil {
		return err
	}
	if rep.Err != nil {
		c.srv.Close()
		return rep.Err.decode()
	}
	c.opened = true
	c.target = Target{Name: rep.Target}
	return nil
}

// openTimeout bounds starting a child and opening its target.
const openTimeout = time.Minute

// roundTrip sends req and reads the reply; a child that dies or runs over Timeout is killed
// (its process group) and is a *CrashError; c.mu is held.
func (c *ChildCompiler) roundTrip(req childRequest) (*childReply, error) {
	line, err := json.Marshal(&req)
	if err != nil {
		return nil, err
	}
	limit := c.Timeout
	if req.Open != "" {
		limit = max(limit, openTimeout)
	}
	reply, answered, out, err := c.srv.Call(context.Background(), line, limit)
	if err != nil {
		return nil, fmt.Errorf("%w: starting compile child %q: %w", ErrUnavailable, c.argv[0], err)
	}
	if !answered {
		c.opened = false
		return nil, crashOf(c.target.Name, out)
	}
	var rep childReply
	if err := json.Unmarshal(reply, &rep); err != nil {
		c.srv.Close()
		c.opened = false
		return nil, &CrashError{Target: c.target.Name, Status: "unreadable reply: " + err.Error()}
	}
	return &rep, nil
}

// crashOf describes a child that ended without answering.
func crashOf(target string, out proc.Outcome) *CrashError {
	stderr := &tailBuffer{max: 8192}
	_, _ = stderr.Write(out.Stderr)
	status := "exit status " + strconv.Itoa(out.ExitCode)
	if out.Signal != "" {
		status = "signal: " + out.Signal
	}
	if sig := stderr.signal(); sig != "" && !out.TimedOut {
		status += " (" + sig + ")"
	}
	return &CrashError{Target: target, Timeout: out.TimedOut, Status: status, Messages: stderr.messages(), Stderr: stderr.String()}
}

// CompileCompute is Compiler.CompileCompute run in the child. A crash or timeout is a
// *CrashError; the next call starts a new child.
func (c *ChildCompiler) CompileCompute(spirv []byte, entry string, localSize [3]uint32) (Stats, error) {
	return c.compile(childRequest{Target: c.spec, SPIRV: spirv, Entry: entry, LocalSize: localSize})
}

// CompileGraphics is Compiler.CompileGraphics run in the child, like CompileCompute.
func (c *ChildCompiler) CompileGraphics(vert, frag []byte, vertEntry, fragEntry string, colorFormats []Format) (Stats, error) {
	return c.compile(childRequest{Target: c.spec, Graphics: true, Vert: vert, Frag: frag, VertEntry: vertEntry, FragEntry: fragEntry, Formats: colorFormats})
}

func (c *ChildCompiler) compile(req childRequest) (Stats, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.opened {
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
	c.srv.Close()
	c.opened = false
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
