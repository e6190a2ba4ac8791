package device

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// openCompiler opens target or skips the test with the reason it is unavailable.
func openCompiler(t testing.TB, target string) *Compiler {
	t.Helper()
	c, err := OpenCompiler(target)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("%s unavailable: %v", target, err)
	}
	if err != nil {
		t.Fatalf("OpenCompiler(%q): %v", target, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCompileCompute(t *testing.T) {
	spv := assemble(t, "gid3")
	for _, c := range []struct {
		target    string
		name      string
		wantStats []string
	}{
		{"radv-navi21", "radv-navi21", []string{"SGPRs", "VGPRs", "Spilled SGPRs", "Spilled VGPRs", "Code size", "Instructions"}},
		{"lavapipe", "lavapipe", nil},
	} {
		t.Run(c.target, func(t *testing.T) {
			cc := openCompiler(t, c.target)
			if got := cc.Target().Name; got != c.name {
				t.Errorf("target name %q, want %q", got, c.name)
			}
			st, err := cc.CompileCompute(spv, "main", [3]uint32{})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range c.wantStats {
				if st[k] == "" {
					t.Errorf("statistic %q missing; have %v", k, st)
				}
			}
			for _, k := range st.Keys() {
				t.Logf("%s = %s", k, st[k])
			}
			// A different workgroup size is a different pipeline; it must compile too.
			if _, err := cc.CompileCompute(spv, "main", [3]uint32{256, 1, 1}); err != nil {
				t.Errorf("localSize 256: %v", err)
			}
			// Distinct workgroup sizes make distinct pipelines, so the driver's in-memory
			// cache cannot answer them.
			const n = 20
			start := time.Now()
			for i := range n {
				if _, err := cc.CompileCompute(spv, "main", [3]uint32{uint32(i + 2), 1, 1}); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%s (%s): %.2f ms per compute pipeline (mean of %d)", c.target, cc.Facts().Name, float64(time.Since(start).Microseconds())/1000/n, n)
		})
	}
}

func TestCompileMissingEntry(t *testing.T) {
	cc := openCompiler(t, "lavapipe")
	_, err := cc.CompileCompute(assemble(t, "gid3"), "nope", [3]uint32{})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("err %v, want an invalid argument", err)
	}
}

// TestCompileInvalid gives each driver SPIR-V that spirv-val rejects, in a child process. The
// child must answer with a *DriverError (lavapipe) or die, which is a *CrashError (RADV in
// Mesa 22.3 dereferences NULL); either way this process lives and the next compile works.
func TestCompileInvalid(t *testing.T) {
	bad, good := assemble(t, "invalid"), assemble(t, "gid3")
	for _, c := range []struct {
		target    string
		wantCrash bool
	}{
		{"radv-navi21", true},
		{"lavapipe", false},
	} {
		t.Run(c.target, func(t *testing.T) {
			cc := openChild(t, c.target)
			_, err := cc.CompileCompute(bad, "main", [3]uint32{})
			var de *DriverError
			var ce *CrashError
			switch {
			case errors.As(err, &de):
				t.Logf("driver error: %v", err)
				if !strings.Contains(de.Message, "SPIR-V") {
					t.Errorf("driver error carries no SPIR-V message from the driver: %q", de.Message)
				}
			case errors.As(err, &ce):
				t.Logf("contained crash: %v", err)
				if !strings.Contains(strings.Join(ce.Messages, " "), "SPIR-V") {
					t.Errorf("crash carries no SPIR-V message from the driver: %q", ce.Messages)
				}
				if !c.wantCrash {
					t.Errorf("%s crashed; expected a driver error", c.target)
				}
			default:
				t.Fatalf("err %v (%T), want *DriverError or *CrashError", err, err)
			}
			if _, err := cc.CompileCompute(good, "main", [3]uint32{}); err != nil {
				t.Fatalf("compile after the invalid module: %v", err)
			}
		})
	}
}

// TestChildDies checks that a child that exits at once is a *CrashError, not a hang.
func TestChildDies(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	_, err := OpenChildCompiler("lavapipe", []string{"sh", "-c", "echo boom >&2; exit 3"}, nil)
	var ce *CrashError
	if !errors.As(err, &ce) || !strings.Contains(ce.Status, "exit status 3") || ce.Stderr != "boom" {
		t.Fatalf("err %#v, want a *CrashError with exit status 3 and stderr boom", err)
	}
}

// TestChildStats checks that statistics cross the pipe intact.
func TestChildStats(t *testing.T) {
	spv := assemble(t, "gid3")
	direct, err := openCompiler(t, "radv-navi21").CompileCompute(spv, "main", [3]uint32{})
	if err != nil {
		t.Fatal(err)
	}
	viaChild, err := openChild(t, "radv-navi21").CompileCompute(spv, "main", [3]uint32{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(direct) != fmt.Sprint(viaChild) {
		t.Errorf("child stats %v, direct %v", viaChild, direct)
	}
	vert, frag := assemble(t, "vert"), assemble(t, "frag")
	g, err := openChild(t, "radv-navi21").CompileGraphics(vert, frag, "main", "main", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g["Fragment Shader/VGPRs"] == "" {
		t.Errorf("graphics statistics through the child lack Fragment Shader/VGPRs: %v", g.Keys())
	}
}

// TestCompileOtherTarget compiles the test shaders on $AIRPIPE_TEST_COMPILE_TARGET (such as
// "auto" on a machine with a GPU) and logs what its driver reports.
func TestCompileOtherTarget(t *testing.T) {
	target := os.Getenv("AIRPIPE_TEST_COMPILE_TARGET")
	if target == "" {
		t.Skip("AIRPIPE_TEST_COMPILE_TARGET not set")
	}
	c := openCompiler(t, target)
	t.Logf("%v, executable statistics %v", c.Facts(), c.Facts().ExecutableStatistics)
	st, err := c.CompileCompute(assemble(t, "gid3"), "main", [3]uint32{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range st.Keys() {
		t.Logf("compute %s = %s", k, st[k])
	}
	g, err := c.CompileGraphics(assemble(t, "vert"), assemble(t, "frag"), "main", "main", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("graphics: %d statistics", len(g))
	_, err = openChild(t, target).CompileCompute(assemble(t, "invalid"), "main", [3]uint32{})
	t.Logf("invalid SPIR-V, in a child: %v", err)
}

// TestCompilerFreesPipelines: a compiler builds and destroys a pipeline per module for the
// whole of a run, so what it keeps per module must be nothing. Lavapipe (Mesa 22.3) frees a
// destroyed pipeline only at its queue's next submission (flushDestroyed makes one); without
// it 500 compiles here kept ~36 MiB.
func TestCompilerFreesPipelines(t *testing.T) {
	spv := assemble(t, "gid3")
	for _, target := range []string{"lavapipe", "radv-navi21"} {
		t.Run(target, func(t *testing.T) {
			cc := openCompiler(t, target)
			compile := func(n int) {
				for i := range n {
					if _, err := cc.CompileCompute(spv, "main", [3]uint32{uint32(i%512 + 1), 1, 1}); err != nil {
						t.Fatal(err)
					}
				}
			}
			compile(20) // the driver's first-use allocations
			before := residentMiB(t)
			compile(500)
			if grew := residentMiB(t) - before; grew > 16 {
				t.Errorf("500 compiles grew the resident set by %d MiB", grew)
			}
		})
	}
}

// residentMiB is this process's resident set (VmRSS) in MiB.
func residentMiB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return kib >> 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}
