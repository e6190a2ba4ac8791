package proc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/internal/codes"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		spec     Spec
		exit     int
		code     codes.Code
		stdout   string
		stderr   string
		truncate bool
	}{
		{"ok", Spec{Path: "sh", Args: []string{"-c", "echo hi; echo err >&2"}}, 0, "", "hi\n", "err\n", false},
		{"exit", Spec{Path: "sh", Args: []string{"-c", "exit 3"}}, 3, "", "", "", false},
		{"segfault", Spec{Path: "sh", Args: []string{"-c", "kill -SEGV $$"}}, -1, CodeCrash, "", "", false},
		{"timeout", Spec{Path: "sh", Args: []string{"-c", "sleep 30"}, Timeout: 100 * time.Millisecond}, -1, CodeTimeout, "", "", false},
		// The child's own child holds the pipe open; the group kill ends both.
		{"timeout-grandchild", Spec{Path: "sh", Args: []string{"-c", "sleep 30 & sleep 30"}, Timeout: 100 * time.Millisecond}, -1, CodeTimeout, "", "", false},
		{"capped", Spec{Path: "sh", Args: []string{"-c", "yes | head -c 100000"}, MaxOutput: 10}, 0, "", "y\ny\ny\ny\ny\n", "", true},
		{"stdin", Spec{Path: "cat", Stdin: []byte("abc")}, 0, "", "abc", "", false},
		{"oom", Spec{Path: "sh", Args: []string{"-c", "echo 'LLVM ERROR: out of memory' >&2; exit 1"}}, 1, CodeOOM, "", "", false},
		{"memlimit", Spec{Path: "python3", Args: []string{"-c", "x = bytearray(1 << 30)"}, MemoryLimit: 64 << 20}, 1, CodeOOM, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			o, err := Run(context.Background(), tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("took %s: the group was not killed", time.Since(start))
			}
			if o.ExitCode != tc.exit || o.Code() != tc.code {
				t.Errorf("exit %d code %q (%s), want %d %q; stderr %q", o.ExitCode, o.Code(), o.Describe(), tc.exit, tc.code, o.Stderr)
			}
			if tc.stdout != "" && string(o.Stdout) != tc.stdout {
				t.Errorf("stdout %q, want %q", o.Stdout, tc.stdout)
			}
			if tc.stderr != "" && string(o.Stderr) != tc.stderr {
				t.Errorf("stderr %q, want %q", o.Stderr, tc.stderr)
			}
			if o.Truncated != tc.truncate {
				t.Errorf("truncated %v, want %v", o.Truncated, tc.truncate)
			}
		})
	}
}

func TestRunNotFound(t *testing.T) {
	_, err := Run(context.Background(), Spec{Path: "airpipe-no-such-tool"})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err %v, want ErrNotFound", err)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	o, err := Run(ctx, Spec{Path: "sleep", Args: []string{"30"}})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Cancelled || o.TimedOut || !strings.Contains(o.Describe(), "cancelled") {
		t.Errorf("outcome %+v", o)
	}
}

// TestTally: every run of a program adds to its Usage, named by the
// program's base name, and a CPU-bound run shows CPU time.
func TestTally(t *testing.T) {
	before := Tally()["sh"]
	for range 2 {
		if _, err := Run(context.Background(), Spec{Path: "sh", Args: []string{"-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"}}); err != nil {
			t.Fatal(err)
		}
	}
	after := Tally()["sh"]
	if got := after.Runs - before.Runs; got != 2 {
		t.Errorf("sh ran %d times by the tally, want 2", got)
	}
	if after.CPU <= before.CPU || after.Wall <= before.Wall {
		t.Errorf("tally of sh: CPU %v → %v, wall %v → %v; want both to grow", before.CPU, after.CPU, before.Wall, after.Wall)
	}
	if got := ProgramName(Spec{Path: "/usr/bin/airpipe", Args: []string{"__emulator-child", "x"}}); got != "airpipe __emulator-child" {
		t.Errorf("ProgramName = %q", got)
	}
}
