package device

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// assemble assembles testdata/<name>.spvasm with spirv-as (SPIRV-Tools) for Vulkan 1.2. Where
// spirv-as is missing (the device machine) it reads the committed testdata/<name>.spv, which
// TestGoldenSPIRV keeps equal to spirv-as's output.
func assemble(t testing.TB, name string) []byte {
	t.Helper()
	if _, err := exec.LookPath("spirv-as"); err != nil {
		b, err := os.ReadFile(filepath.Join("testdata", name+".spv"))
		if err != nil {
			t.Skipf("spirv-as (Debian: spirv-tools) not installed and no testdata/%s.spv: %v", name, err)
		}
		return b
	}
	out := filepath.Join(t.TempDir(), name+".spv")
	cmd := exec.Command("spirv-as", "--target-env", "vulkan1.2", "-o", out, filepath.Join("testdata", name+".spvasm"))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("spirv-as %s: %v\n%s", name, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldenSPIRV checks the committed .spv files against spirv-as. Regenerate them with
// spirv-as --target-env vulkan1.2 testdata/X.spvasm -o testdata/X.spv.
func TestGoldenSPIRV(t *testing.T) {
	if _, err := exec.LookPath("spirv-as"); err != nil {
		t.Skip("spirv-as (Debian: spirv-tools) not installed")
	}
	for _, name := range []string{"gid3", "argmul", "invalid", "vert", "frag", "drawfrag", "capvert", "texsample", "texfrag", "texvert", "texstore", "spec", "specfrag", "specvert", "depthfrag", "colourfrag", "blendfrag"} {
		golden, err := os.ReadFile(filepath.Join("testdata", name+".spv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(golden, assemble(t, name)) {
			t.Errorf("testdata/%s.spv differs from spirv-as's output", name)
		}
	}
}

func readFile(name string) ([]byte, error) { return os.ReadFile(name) }

// addSPIRVSeeds adds testdata/<name>.spv, for each name, to f's seed corpus (the ones that
// read).
func addSPIRVSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		if b, err := readFile(filepath.Join("testdata", n+".spv")); err == nil {
			f.Add(b)
		}
	}
}
