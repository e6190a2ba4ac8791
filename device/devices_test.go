package device

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// needVulkan skips the test when this machine has no Vulkan loader.
func needVulkan(t testing.TB) {
	t.Helper()
	if _, err := Devices(); err != nil {
		if errors.Is(err, ErrUnavailable) {
			t.Skipf("no Vulkan here: %v", err)
		}
		t.Fatal(err)
	}
}

func TestDevices(t *testing.T) {
	needVulkan(t)
	fs, err := Devices()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Logf("%v: storage align %d, uniform align %d, timestamp period %g ns, max invocations %d, calibrated timestamps %v, executable statistics %v, subgroups of %d (operations %#x)",
			f, f.Limits.MinStorageBufferOffsetAlignment, f.Limits.MinUniformBufferOffsetAlignment,
			f.Limits.TimestampPeriod, f.Limits.MaxComputeWorkGroupInvocations, f.CalibratedTimestamps, f.ExecutableStatistics, f.SubgroupSize, f.SubgroupOperations)
		// Vulkan 1.1: subgroupSize is a power of two, at least 1; compute
		// supports the basic operations.
		if f.SubgroupSize == 0 || f.SubgroupSize&(f.SubgroupSize-1) != 0 || f.SubgroupOperations&1 == 0 {
			t.Errorf("device %d: subgroup size %d, operations %#x", f.Index, f.SubgroupSize, f.SubgroupOperations)
		}
		if f.Name == "" || f.Limits.MaxComputeWorkGroupInvocations == 0 || f.Limits.MinStorageBufferOffsetAlignment == 0 {
			t.Errorf("device %d: implausible facts %+v", f.Index, f)
		}
	}
}

// TestChooseByKind picks lavapipe and RADV's null device by kind and checks what they say.
func TestChooseByKind(t *testing.T) {
	needVulkan(t)
	for _, c := range []struct{ spec, driver string }{
		{"lavapipe", "llvmpipe"},
		{"radv-null", "radv"},
		{"radv:navi21", "radv"},
		{"llvmpipe", "llvmpipe"},
	} {
		p, err := choose(c.spec)
		if errors.Is(err, ErrUnavailable) {
			t.Logf("%s: skipped: %v", c.spec, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if p.facts.Driver != c.driver {
			t.Errorf("%s: driver %q, want %q", c.spec, p.facts.Driver, c.driver)
		}
	}
	if f, err := FactsOf("lavapipe"); err == nil && f.SubgroupSize != 8 {
		// Mesa's lavapipe on x86-64 with AVX2: 256-bit lanes of 32-bit values.
		t.Logf("lavapipe reports subgroup size %d (8 on a 256-bit host)", f.SubgroupSize)
	}
	if _, err := FactsOf("no such device name"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("FactsOf(unknown name): err %v, want ErrUnavailable", err)
	}
	if _, err := choose("no such device name"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unknown name: err %v, want ErrUnavailable", err)
	}
	// RADV aborts the process on a family it does not know; airpipe must refuse it first.
	if _, err := choose("radv-nosuchfamily"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unknown RADV family: err %v, want ErrUnavailable", err)
	}
	if p, err := choose("radv:GFX1100"); err == nil && p.facts.Driver != "radv" {
		t.Errorf("radv:GFX1100 chose %s", p.facts.Name)
	}
}

// TestNoLoader runs this test binary again with the loader pointed at a missing file: every
// entry point must fail with ErrNoVulkan carrying the dynamic linker's message, not crash.
func TestNoLoader(t *testing.T) {
	if os.Getenv("AIRPIPE_TEST_NO_LOADER") == "1" {
		_, err := Devices()
		if !errors.Is(err, ErrNoVulkan) || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no-such-libvulkan.so") {
			t.Fatalf("Devices: %v, want ErrNoVulkan naming the file", err)
		}
		if _, err := OpenCompiler("radv-navi21"); !errors.Is(err, ErrNoVulkan) {
			t.Fatalf("OpenCompiler: %v, want ErrNoVulkan", err)
		}
		if _, err := Open("auto", Options{}); !errors.Is(err, ErrNoVulkan) {
			t.Fatalf("Open: %v, want ErrNoVulkan", err)
		}
		// The compile child inherits the missing loader and says so across the pipe.
		_, err = OpenChildCompiler("lavapipe", []string{os.Args[0]}, []string{"AIRPIPE_DEVICE_TEST_CHILD=1"})
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no-such-libvulkan.so") {
			t.Fatalf("OpenChildCompiler: %v, want ErrUnavailable naming the file", err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoLoader$", "-test.v")
	cmd.Env = append(os.Environ(), "AIRPIPE_TEST_NO_LOADER=1", "AIRPIPE_VULKAN_LIBRARY=/nonexistent/no-such-libvulkan.so.1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("child did not pass:\n%s", out)
	}
}
