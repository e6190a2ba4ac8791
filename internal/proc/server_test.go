package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serverScript answers each line: "pid" with its process id, "die" by
// killing itself with SIGSEGV (a driver crash), "hang" by sleeping, "exit"
// by exiting 3 after a word on stderr; anything else is echoed, after a
// line of chatter that is not a reply.
const serverScript = `while read -r l; do
  case "$l" in
  pid) echo "AIRPIPE-REPLY $$" ;;
  die) kill -SEGV $$ ;;
  hang) sleep 30 ;;
  exit) echo "giving up" >&2; exit 3 ;;
  warn) echo "an earlier request's warning" >&2; echo "AIRPIPE-REPLY warned" ;;
  *) echo "driver chatter"; echo "AIRPIPE-REPLY echo:$l" ;;
  esac
done`

// TestServerStderrPerCall: a failed call's Outcome holds what the child
// wrote during that call, not what it wrote while answering earlier ones.
func TestServerStderrPerCall(t *testing.T) {
	s := NewServer(Spec{Path: "/bin/sh", Args: []string{"-c", serverScript}})
	defer s.Close()
	if r, ok, _, err := s.Call(context.Background(), []byte("warn"), 0); err != nil || !ok || string(r) != "warned" {
		t.Fatalf("warn: %q %v %v", r, ok, err)
	}
	// Wait until the warning has reached the running child's log, so that it
	// is an earlier request's for certain.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if b, _ := s.live.stderr.read(); strings.Contains(string(b), "an earlier request's warning") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the warning never reached the child's stderr log")
		}
	}
	_, ok, out, err := s.Call(context.Background(), []byte("exit"), 0)
	if err != nil || ok || out.ExitCode != 3 || strings.TrimSpace(string(out.Stderr)) != "giving up" {
		t.Fatalf("exit: answered %v, exit %d, stderr %q, %v", ok, out.ExitCode, out.Stderr, err)
	}
}

func TestServer(t *testing.T) {
	s := NewServer(Spec{Path: "/bin/sh", Args: []string{"-c", serverScript}})
	defer s.Close()
	ctx := context.Background()
	call := func(req string, timeout time.Duration) (string, bool, Outcome) {
		t.Helper()
		r, ok, out, err := s.Call(ctx, []byte(req), timeout)
		if err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		return string(r), ok, out
	}
	first, ok, _ := call("pid", 0)
	if !ok {
		t.Fatal("no reply")
	}
	if r, ok, _ := call("hello", 0); !ok || r != "echo:hello" {
		t.Fatalf("echo: %q %v (chatter must not be read as a reply)", r, ok)
	}
	if again, _, _ := call("pid", 0); again != first {
		t.Fatalf("the child was restarted between answered calls: %s then %s", first, again)
	}
	// A crash takes only its own call.
	if _, ok, out := call("die", 0); ok || out.Signal != "segmentation fault" || out.Code() != CodeCrash {
		t.Fatalf("crash: answered %v, %+v", ok, out)
	}
	after, ok, _ := call("pid", 0)
	if !ok || after == first {
		t.Fatalf("after a crash: %q %v (want a fresh child)", after, ok)
	}
	// A hang is killed at its timeout.
	began := time.Now()
	if _, ok, out := call("hang", 200*time.Millisecond); ok || !out.TimedOut || out.Code() != CodeTimeout {
		t.Fatalf("hang: answered %v, %+v", ok, out)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Fatalf("the hung child took %s to kill", d)
	}
	// An exit is described with its status and stderr.
	if _, ok, out := call("exit", 0); ok || out.ExitCode != 3 || !strings.Contains(out.Tail(1), "giving up") {
		t.Fatalf("exit: answered %v, %+v", ok, out)
	}
	if r, ok, _ := call("x", 0); !ok || r != "echo:x" {
		t.Fatalf("after an exit: %q %v", r, ok)
	}
	// A cancelled context kills the call.
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	if _, ok, out, err := s.Call(cctx, []byte("hang"), 0); err != nil || ok || !out.Cancelled {
		t.Fatalf("cancelled: %v %v %+v", err, ok, out)
	}
}

// TestServerRetires: a child over Spec.MaxRSS after a reply is ended and
// the next call answered by a fresh one, every request answered once; a
// child under it lives on.
func TestServerRetires(t *testing.T) {
	for _, c := range []struct {
		name    string
		maxRSS  uint64
		retires bool
	}{
		{"over the budget", 1, true},         // every child is over one byte
		{"under the budget", 1 << 40, false}, // no shell reaches a TiB
		{"no budget", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewServer(Spec{Path: "/bin/sh", Args: []string{"-c", serverScript}, MaxRSS: c.maxRSS})
			defer s.Close()
			pids := map[string]bool{}
			for i := range 4 {
				for _, req := range []string{"pid", fmt.Sprint("x", i)} {
					r, ok, out, err := s.Call(context.Background(), []byte(req), 0)
					if err != nil || !ok {
						t.Fatalf("%s: answered %v, %v, %+v", req, ok, err, out)
					}
					if out.Retired != c.retires {
						t.Errorf("%s: retired %v, want %v", req, out.Retired, c.retires)
					}
					if req == "pid" {
						pids[string(r)] = true
					} else if want := "echo:" + req; string(r) != want {
						t.Errorf("%s: reply %q, want %q", req, r, want)
					}
				}
			}
			if want := map[bool]int{true: 4, false: 1}[c.retires]; len(pids) != want {
				t.Errorf("%d children answered, want %d", len(pids), want)
			}
		})
	}
}

func TestResidentBytes(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	// This test process holds at least a MiB and less than a TiB.
	n := residentBytes(os.Getpid())
	if n < 1<<20 || n > 1<<40 {
		t.Errorf("resident set %d bytes", n)
	}
	// It is the VmRSS that /proc/PID/status states (read a moment later:
	// within 4 MiB).
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	var kib uint64
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, _ = strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	if d := int64(kib<<10) - int64(n); kib == 0 || d > 4<<20 || d < -4<<20 {
		t.Errorf("resident set %d bytes, VmRSS %d KiB", n, kib)
	}
	if n := residentBytes(-1); n != 0 {
		t.Errorf("no such process: %d bytes, want 0", n)
	}
}

func TestServerRefuses(t *testing.T) {
	s := NewServer(Spec{Path: "airpipe-no-such-tool"})
	if _, _, _, err := s.Call(context.Background(), []byte("x"), 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing program: %v", err)
	}
	s = NewServer(Spec{Path: "/bin/cat"})
	defer s.Close()
	if _, _, _, err := s.Call(context.Background(), []byte("two\nlines"), 0); err == nil {
		t.Fatal("a request with a newline was sent")
	}
}

// echoScript answers every line at once.
const echoScript = `while read -r l; do echo "AIRPIPE-REPLY $l"; done`

// BenchmarkServerCall is one request to a long-lived child; compare with
// BenchmarkRunPerRequest, a child started for each request as Run does (the
// emulator's children before Server): the ratio is what a run saves per
// module before the driver's own start-up, which the server saves too.
func BenchmarkServerCall(b *testing.B) {
	s := NewServer(Spec{Path: "/bin/sh", Args: []string{"-c", echoScript}})
	defer s.Close()
	for b.Loop() {
		if _, ok, out, err := s.Call(context.Background(), []byte("x"), 0); err != nil || !ok {
			b.Fatal(err, out.Describe())
		}
	}
}

// BenchmarkRunPerRequest starts a child for each request.
func BenchmarkRunPerRequest(b *testing.B) {
	for b.Loop() {
		out, err := Run(context.Background(), Spec{Path: "/bin/sh", Args: []string{"-c", echoScript}, Stdin: []byte("x\n")})
		if err != nil || out.ExitCode != 0 {
			b.Fatal(err, out.Describe())
		}
	}
}
