package device

import (
	"os"
	"testing"

	"github.com/airpipe/airpipe/internal/proc"
)

// TestMain lets this test binary serve as a compile child (ChildCompiler) when
// AIRPIPE_DEVICE_TEST_CHILD=1, the way airpipe __compile-child does.
func TestMain(m *testing.M) {
	proc.ServeIfChild("AIRPIPE_DEVICE_TEST_CHILD", ServeCompileChild)
	// Mesa's on-disk shader cache would turn a second run's compiles into cache hits.
	if _, ok := os.LookupEnv("MESA_SHADER_CACHE_DISABLE"); !ok {
		os.Setenv("MESA_SHADER_CACHE_DISABLE", "true")
	}
	os.Exit(m.Run())
}

// openChild opens a ChildCompiler running this test binary, or skips when target is absent.
func openChild(t testing.TB, target string) *ChildCompiler {
	t.Helper()
	openCompiler(t, target) // skips when unavailable
	c, err := OpenChildCompiler(target, []string{os.Args[0]}, []string{"AIRPIPE_DEVICE_TEST_CHILD=1"})
	if err != nil {
		t.Fatalf("OpenChildCompiler(%q): %v", target, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
