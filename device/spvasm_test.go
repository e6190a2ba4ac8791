package device

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// assemble assembles testdata/<name>.spvasm with spirv-as (SPIRV-Tools) for Vulkan 1.2.
func assemble(t testing.TB, name string) []byte {
	t.Helper()
	if _, err := exec.LookPath("spirv-as"); err != nil {
		t.Skip("spirv-as (Debian: spirv-tools) not installed")
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

func readFile(name string) ([]byte, error) { return os.ReadFile(name) }
