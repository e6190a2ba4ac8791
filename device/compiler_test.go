package device

import (
	"errors"
	"os"
	"os/exec"
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

// TestCompileInvalid gives each driver SPIR-V that spirv-val rejects. The compile runs in a
// child process (this test binary again) so that a driver crash fails the test instead of
// killing the test run; the child must see a *DriverError.
func TestCompileInvalid(t *testing.T) {
	if target := os.Getenv("AIRPIPE_TEST_INVALID_TARGET"); target != "" {
		cc := openCompiler(t, target)
		_, err := cc.CompileCompute(assemble(t, "invalid"), "main", [3]uint32{})
		var de *DriverError
		if !errors.As(err, &de) {
			t.Fatalf("err %v (%T), want a *DriverError", err, err)
		}
		t.Logf("driver error: %v", err)
		return
	}
	for _, target := range []string{"lavapipe"} {
		t.Run(target, func(t *testing.T) {
			openCompiler(t, target)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCompileInvalid$", "-test.v")
			cmd.Env = append(os.Environ(), "AIRPIPE_TEST_INVALID_TARGET="+target)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "driver error:") {
				t.Fatalf("child gave no driver error:\n%s", out)
			}
			for _, l := range strings.Split(string(out), "\n") {
				if strings.Contains(l, "driver error:") {
					t.Log(strings.TrimSpace(l))
				}
			}
		})
	}
}
