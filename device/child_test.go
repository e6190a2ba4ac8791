package device

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// hangScript answers the open like a compile child, then hangs on the
// compile in a grandchild (a driver thread stuck in the kernel, say).
const hangScript = `read -r l
echo 'AIRPIPE-REPLY {"target":"fake"}'
echo 'some chatter on stdout'
read -r l
sleep 30 &
echo "grandchild $!" >&2
wait`

// TestChildHangKillsGroup: a compile that runs past Timeout is a
// *CrashError with Timeout set, and the whole process group goes, the
// grandchild too (internal/proc's Server).
func TestChildHangKillsGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	c, err := OpenChildCompiler("lavapipe", []string{"sh", "-c", hangScript}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Target().Name != "fake" {
		t.Errorf("target %q, want the child's answer", c.Target().Name)
	}
	c.Timeout = 300 * time.Millisecond
	began := time.Now()
	_, err = c.CompileCompute([]byte{1}, "main", [3]uint32{})
	var ce *CrashError
	if !errors.As(err, &ce) || !ce.Timeout || ce.Status != "signal: killed" {
		t.Fatalf("err %#v, want a timed-out *CrashError", err)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("the hang took %v to end", d)
	}
	pid := 0
	for _, l := range strings.Split(ce.Stderr, "\n") {
		if p, ok := strings.CutPrefix(l, "grandchild "); ok {
			pid, _ = strconv.Atoi(p)
		}
	}
	if pid == 0 {
		t.Fatalf("the grandchild's pid is not in stderr %q", ce.Stderr)
	}
	gone := false
	for deadline := time.Now().Add(30 * time.Second); !gone && time.Now().Before(deadline); {
		// Gone, or a zombie no one has reaped yet (killed all the same).
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		gone = syscall.Kill(pid, 0) == syscall.ESRCH || (err == nil && strings.Contains(string(stat), ") Z "))
		time.Sleep(20 * time.Millisecond)
	}
	if !gone {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("grandchild %d outlived its process group's kill", pid)
	}
	// The next compile starts a fresh child, which opens the target again.
	if _, err := c.CompileCompute([]byte{1}, "main", [3]uint32{}); !errors.As(err, &ce) || !ce.Timeout {
		t.Errorf("second compile: %v, want a fresh child that hangs again", err)
	}
}

// TestChildCompilerRetires compiles on children retired after every reply (a one-byte
// resident-set budget) and on one child with no budget: each retiring compile ends a child
// and the next one opens the target in a fresh child, and every answer equals the
// unrestarted child's.
func TestChildCompilerRetires(t *testing.T) {
	gid3, vert, frag := assemble(t, "gid3"), assemble(t, "vert"), assemble(t, "frag")
	argv, env := []string{os.Args[0]}, []string{"AIRPIPE_DEVICE_TEST_CHILD=1"}
	ended := func() int { return proc.Tally()[proc.ProgramName(proc.Spec{Path: argv[0]})].Runs }
	for _, target := range []string{"radv-navi21", "lavapipe"} {
		t.Run(target, func(t *testing.T) {
			openCompiler(t, target) // skips when unavailable
			compileAll := func(c *ChildCompiler) (answers []string) {
				t.Helper()
				for i := range 3 {
					st, err := c.CompileCompute(gid3, "main", [3]uint32{uint32(8 << i), 1, 1})
					if err != nil {
						t.Fatalf("compute %d: %v", i, err)
					}
					answers = append(answers, fmt.Sprint(st))
				}
				st, err := c.CompileGraphics(vert, frag, "main", "main", nil)
				if err != nil {
					t.Fatalf("graphics: %v", err)
				}
				return append(answers, fmt.Sprint(st))
			}
			steady, err := openChildCompiler(target, argv, env, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer steady.Close()
			before := ended()
			want := compileAll(steady)
			if n := ended() - before; n != 0 {
				t.Fatalf("%d children ended under no budget", n)
			}
			retiring, err := openChildCompiler(target, argv, env, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer retiring.Close()
			before = ended()
			got := compileAll(retiring)
			if n := ended() - before; n != len(want) {
				t.Errorf("%d children ended over a one-byte budget, want one per compile (%d)", n, len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("compile %d: a retiring child answered %s, the steady one %s", i, got[i], want[i])
				}
			}
		})
	}
}
