// Package proc runs external tools (llvm-dis, spirv-val, 7z, llc, driver
// children, user tools) as contained child processes: each in its own
// process group, killed with its group at its timeout or when its context
// ends, optionally memory-limited, with its output captured up to a cap.
// A tool's failure becomes data (an Outcome), never a crash of airpipe.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/airpipe/airpipe/internal/codes"
)

// DefaultMaxOutput caps each of stdout and stderr when Spec.MaxOutput is 0.
const DefaultMaxOutput = 4 << 20

// Spec says how to run one tool.
type Spec struct {
	// Path is the program; looked up in PATH when it has no slash.
	Path string
	Args []string
	// Dir is the working directory ("" = the current one).
	Dir string
	// Env, when non-nil, is appended to the current environment.
	Env []string
	// Stdin is fed to the tool's standard input.
	Stdin []byte
	// Timeout bounds the run (0: only ctx bounds it).
	Timeout time.Duration
	// MaxOutput caps captured stdout and stderr each (0: DefaultMaxOutput).
	MaxOutput int
	// MemoryLimit caps the tool's address space in bytes (0: none). It is
	// applied with the shell's ulimit -v before the tool is exec'd.
	MemoryLimit uint64
	// MaxRSS, for a Server, is its child's resident-set budget in bytes (0:
	// none; Run ignores it). A child whose VmRSS exceeds it after a reply is
	// retired: its standard input is closed, so that it ends as it does
	// after its last request, it is waited for, and the next Call starts a
	// fresh child. It bounds what a long-lived child keeps from one request
	// to the next (a Vulkan driver's caches shrink only when its device is
	// destroyed). DefaultMaxRSS is the project's children's budget.
	MaxRSS uint64
}

// DefaultMaxRSS is the resident-set budget (Spec.MaxRSS) of airpipe's
// long-lived children: the compile, emulator and LLVM children. A child
// starts at ~100 MiB and, with no Vulkan object leaked, grows only by what
// its driver and allocator keep (README, "Speed (issue 19)"); past this it
// is replaced, which costs one driver start (~100 ms).
const DefaultMaxRSS = 512 << 20

// Outcome is what happened to one run.
type Outcome struct {
	ExitCode int // -1 when killed by a signal
	Signal   string
	Stdout   []byte
	Stderr   []byte
	// Truncated reports that stdout or stderr passed MaxOutput.
	Truncated bool
	TimedOut  bool
	Cancelled bool
	Duration  time.Duration
	// Retired reports, for an answered Server call, that the child passed
	// Spec.MaxRSS with this reply and was ended; the next Call starts a
	// fresh one (a child that kept state between requests has lost it).
	Retired bool
}

// Failure codes an Outcome can map to (see Code): the registry's engine
// codes.
const (
	CodeTimeout = codes.Timeout
	CodeCrash   = codes.Crash
	CodeOOM     = codes.OOM
)

// Code classifies a run that did not exit 0: "timeout", "oom" (memory
// limit hit, as far as the tool's words and signal tell), "crash" (killed by
// a signal), or "" for a normal exit (zero or not: a non-zero exit status
// is the tool's verdict, for the caller to read).
func (o Outcome) Code() codes.Code {
	switch {
	case o.TimedOut:
		return CodeTimeout
	case o.Signal != "" && looksOOM(o.Stderr):
		return CodeOOM
	case o.ExitCode != 0 && looksOOM(o.Stderr):
		return CodeOOM
	case o.Signal != "":
		return CodeCrash
	}
	return ""
}

func looksOOM(stderr []byte) bool {
	s := strings.ToLower(string(stderr))
	return strings.Contains(s, "out of memory") || strings.Contains(s, "bad_alloc") || strings.Contains(s, "cannot allocate memory") || strings.Contains(s, "memoryerror")
}

// Tail returns the last n lines of the tool's stderr (or stdout when
// stderr is empty), for messages.
func (o Outcome) Tail(n int) string {
	b := o.Stderr
	if len(bytes.TrimSpace(b)) == 0 {
		b = o.Stdout
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Describe says in words how the run ended.
func (o Outcome) Describe() string {
	switch {
	case o.TimedOut:
		return fmt.Sprintf("killed after its timeout (%s)", o.Duration.Truncate(time.Millisecond))
	case o.Cancelled:
		return "killed: run cancelled"
	case o.Signal != "":
		return "killed by signal " + o.Signal
	}
	return "exit status " + strconv.Itoa(o.ExitCode)
}

// ErrNotFound wraps a tool that is not installed.
var ErrNotFound = errors.New("tool not found")

// Run runs the tool and waits for it and its process group. The error is
// non-nil only when the tool could not be started (ErrNotFound when it is
// absent); everything the tool does is reported in the Outcome.
func Run(ctx context.Context, s Spec) (Outcome, error) {
	path, err := exec.LookPath(s.Path)
	if err != nil {
		return Outcome{}, fmt.Errorf("%s: %w", s.Path, ErrNotFound)
	}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	argv := append([]string{path}, s.Args...)
	if s.MemoryLimit > 0 {
		kib := strconv.FormatUint(s.MemoryLimit/1024, 10)
		argv = append([]string{"/bin/sh", "-c", `ulimit -v "$0" && exec "$@"`, kib}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Dir
	if s.Env != nil {
		cmd.Env = append(cmd.Environ(), s.Env...)
	}
	cmd.Stdin = bytes.NewReader(s.Stdin)
	limit := s.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	stdout, stderr := &capped{max: limit}, &capped{max: limit}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Outcome{}, fmt.Errorf("%s: %w", s.Path, err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var out Outcome
	select {
	case err = <-waited:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-waited
		out.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		out.Cancelled = !out.TimedOut
	}
	// Whatever the leader did, leave no member of its group behind.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	out.Duration = time.Since(start)
	out.Stdout, out.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	out.Truncated = stdout.over || stderr.over
	out.ExitCode = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		out.Signal = ws.Signal().String()
	}
	count(s, cmd.ProcessState, out.Duration)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return out, fmt.Errorf("%s: %w", s.Path, err)
	}
	return out, nil
}

// capped is a writer that keeps the first max bytes and drops the rest.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) > room {
			c.buf.Write(p[:room])
			c.over = true
		} else {
			c.buf.Write(p)
		}
	} else if len(p) > 0 {
		c.over = true
	}
	return len(p), nil
}

// Usage is what the runs of one program cost: how many there were, their
// CPU time (user and system, the program and its waited-for children) and
// their wall time.
type Usage struct {
	Runs int
	CPU  time.Duration
	Wall time.Duration
}

// usage is every program's Usage in this process, by ProgramName.
var usage = struct {
	mu sync.Mutex
	m  map[string]Usage
}{m: map[string]Usage{}}

// ProgramName is how Tally names the program of s: the base name of its
// path, and its first argument when that names one of airpipe's own child
// modes ("airpipe __emulator-child").
func ProgramName(s Spec) string {
	name := filepath.Base(s.Path)
	if len(s.Args) > 0 && strings.HasPrefix(s.Args[0], "__") {
		name += " " + s.Args[0]
	}
	return name
}

// count adds a finished process to its program's Usage.
func count(s Spec, ps *os.ProcessState, wall time.Duration) {
	if ps == nil {
		return
	}
	name := ProgramName(s)
	usage.mu.Lock()
	defer usage.mu.Unlock()
	u := usage.m[name]
	u.Runs++
	u.CPU += ps.UserTime() + ps.SystemTime()
	u.Wall += wall
	usage.m[name] = u
}

// Tally returns the Usage of every program this process ran through Run or
// a Server (a Server's child once it has ended), by ProgramName: where the
// time inside child processes goes (issue 19's benchmark prints it).
func Tally() map[string]Usage {
	usage.mu.Lock()
	defer usage.mu.Unlock()
	m := make(map[string]Usage, len(usage.m))
	for k, v := range usage.m {
		m[k] = v
	}
	return m
}
