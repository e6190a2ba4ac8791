package stages

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestMain lets the test binary serve as the compile child.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == "__compile-child" {
		if err := device.ServeCompileChild(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func assemble(t *testing.T, name string) []byte {
	t.Helper()
	if _, err := exec.LookPath("spirv-as"); err != nil {
		t.Skip("spirv-as not installed (Debian spirv-tools)")
	}
	out := filepath.Join(t.TempDir(), "m.spv")
	src := filepath.Join("..", "device", "testdata", name)
	if b, err := exec.Command("spirv-as", "--target-env", "vulkan1.2", src, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as %s: %v\n%s", name, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompileStage: a valid kernel passes on both default targets with RADV
// statistics; a module the drivers cannot take fails that module only, and
// the next module compiles again; an absent target is unavailable, never
// passed.
func TestCompileStage(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := device.Devices(); err != nil {
		t.Skipf("no Vulkan here: %v", err)
	}
	good := assemble(t, "gid3.spvasm")
	bad := assemble(t, "invalid.spvasm")
	st := Compile(CompileOptions{ChildArgv: []string{exe, "__compile-child"}})
	mod := func(spirv []byte) *Module {
		return &Module{artifacts: artifacts{Translation: &translate.Output{SPIRV: spirv, Entry: "main",
			Reflection: translate.Reflection{Stage: "kernel", Entry: "main"}}}}
	}
	r := st.Run(context.Background(), mod(good))
	if r.Status != pipeline.Passed || r.Data["targets"] != "radv-navi21,lavapipe" {
		t.Fatalf("good kernel: %+v", r)
	}
	if r.Data["radv-navi21.VGPRs"] == "" {
		t.Errorf("no RADV statistics in %v", r.Data)
	}
	r0 := r
	r = st.Run(context.Background(), mod(bad))
	if r.Status != pipeline.Failed || (r.Code != codes.CompileDriverCrash && r.Code != codes.CompileDriverRejected && r.Code != codes.CompileSPIRVRejected) {
		t.Fatalf("invalid module: %+v", r)
	}
	// Another kernel than the first, which the run already compiled (and
	// would not compile again: samespirv.go), so that the driver runs.
	if r = st.Run(context.Background(), mod(assemble(t, "argmul.spvasm"))); r.Status != pipeline.Passed {
		t.Fatalf("compiling after a driver failure: %+v", r)
	}
	// The same words again take the first compile's answer, statistics and all.
	if again := st.Run(context.Background(), mod(good)); again.Status != pipeline.Passed || again.Data["radv-navi21.VGPRs"] != r0.Data["radv-navi21.VGPRs"] {
		t.Fatalf("the same kernel again: %+v", again)
	}
	absent := Compile(CompileOptions{Targets: []string{"no-such-gpu-xyz"}, ChildArgv: []string{exe, "__compile-child"}})
	if r = absent.Run(context.Background(), mod(good)); r.Status != pipeline.Unavailable || !strings.Contains(r.Message, "no-such-gpu-xyz") {
		t.Fatalf("absent target: %+v", r)
	}
}

// TestCompileWithoutVulkanDrivers: with no Vulkan loader to be found the
// stage is unavailable with the reason, never passed, and nothing crashes.
func TestCompileWithoutVulkanDrivers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The loader itself is absent: a library path that does not exist.
	t.Setenv("AIRPIPE_VULKAN_LIBRARY", filepath.Join(t.TempDir(), "libvulkan.so.1"))
	st := Compile(CompileOptions{ChildArgv: []string{exe, "__compile-child"}})
	m := &Module{artifacts: artifacts{Translation: &translate.Output{SPIRV: []byte{1, 2, 3, 4}, Entry: "main",
		Reflection: translate.Reflection{Stage: "kernel"}}}}
	r := st.Run(context.Background(), m)
	if r.Status != pipeline.Unavailable || r.Message == "" {
		t.Fatalf("without drivers: %+v", r)
	}
	t.Logf("reason: %s", r.Message)
}

// TestCompileFailureCodes: each kind of compile error has its own code; an
// error of no known kind is airpipe's internal error, not the module's bad
// argument, and a target that went away is unavailable.
func TestCompileFailureCodes(t *testing.T) {
	tests := []struct {
		err    error
		status pipeline.Status
		code   codes.Code
	}{
		{&device.DriverError{Call: "vkCreateComputePipelines", Result: -13}, pipeline.Failed, codes.CompileDriverRejected},
		{&device.CrashError{Target: "radv-navi21", Status: "signal: segmentation fault"}, pipeline.Failed, codes.CompileDriverCrash},
		{&device.CrashError{Target: "radv-navi21", Timeout: true, Status: "signal: killed"}, pipeline.Failed, pipeline.CodeTimeout},
		{&device.SPIRVError{Offset: 4, What: "bad"}, pipeline.Failed, codes.CompileSPIRVRejected},
		{&device.ArgumentError{Func: "CompileCompute", Index: -1, Reason: "no entry"}, pipeline.Failed, codes.CompileBadArgument},
		{fmt.Errorf("%w: starting compile child %q: gone", device.ErrUnavailable, "airpipe"), pipeline.Unavailable, ""},
		{errors.New("compile child: compile before open"), pipeline.Failed, codes.CompileInternalError},
	}
	for _, tc := range tests {
		r := compileFailure("radv-navi21", tc.err)
		if r.Status != tc.status || r.Code != tc.code || (tc.code != "" && !strings.HasPrefix(r.Detail, "radv-navi21")) {
			t.Errorf("%v: got %s %q %q, want %s %q", tc.err, r.Status, r.Code, r.Detail, tc.status, tc.code)
		}
	}
}
