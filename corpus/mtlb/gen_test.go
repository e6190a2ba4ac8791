package mtlb

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// update regenerates the committed small libraries and fuzz seeds:
// go test ./corpus/mtlb -run TestTestdata -update
var update = flag.Bool("update", false, "rewrite testdata/*.metallib and testdata/fuzz/FuzzParse seeds")

// llvmAs assembles testdata/<name>.ll with llvm-as-19, skipping the test
// when the tool is missing.
func llvmAs(tb testing.TB, name string) []byte {
	tb.Helper()
	tool, err := exec.LookPath("llvm-as-19")
	if err != nil {
		tb.Skip("llvm-as-19 not installed: cannot assemble test bitcode")
	}
	out, err := exec.Command(tool, filepath.Join("testdata", name+".ll"), "-o", "-").Output()
	if err != nil {
		tb.Fatalf("llvm-as-19 %s.ll: %v", name, err)
	}
	return out
}

// bzip2Tar builds a deterministic tar of files and compresses it with the
// bzip2 tool, skipping the test when the tool is missing.
func bzip2Tar(tb testing.TB, files map[string]string, order ...string) []byte {
	tb.Helper()
	tool, err := exec.LookPath("bzip2")
	if err != nil {
		tb.Skip("bzip2 not installed: cannot build an embedded source archive")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range order {
		body := files[name]
		h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), ModTime: time.Unix(0, 0), Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			tb.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(tool, "-9", "-c")
	cmd.Stdin = &buf
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("bzip2: %v", err)
	}
	return out
}

// generatedFiles returns the small libraries committed under testdata.
func generatedFiles(tb testing.TB) map[string][]byte {
	tb.Helper()
	addOne := llvmAs(tb, "add_one")
	pass, err := unwrap(llvmAs(tb, "passthrough"), 0, "passthrough")
	if err != nil {
		tb.Fatal(err)
	}
	one, err := Marshal(&Spec{Platform: PlatformMacOS, FormatMajor: 2, FormatMinor: 7, TargetOS: 0x81, OSMajor: 14,
		Functions: []SpecFunction{{Name: "add_one", Type: FunctionKernel, Bitcode: addOne, AIRMajor: 2, AIRMinor: 6, LangMajor: 3, LangMinor: 1}}})
	if err != nil {
		tb.Fatal(err)
	}
	three, err := Marshal(&Spec{Platform: PlatformIOS, FormatMajor: 2, FormatMinor: 4, TargetOS: 0x82, OSMajor: 16, OSMinor: 2,
		Functions: []SpecFunction{
			{Name: "vertex_main", Type: FunctionVertex, Bitcode: pass, AIRMajor: 2, AIRMinor: 5, LangMajor: 3, LangMinor: 0},
			{Name: "fragment_main", Type: FunctionFragment, Bitcode: pass, AIRMajor: 2, AIRMinor: 5, LangMajor: 3, LangMinor: 0},
			{Name: "add_one", Type: FunctionKernel, Bitcode: addOne, AIRMajor: 2, AIRMinor: 5, LangMajor: 3, LangMinor: 0},
		}})
	if err != nil {
		tb.Fatal(err)
	}
	archive := bzip2Tar(tb, map[string]string{
		"metal-options.txt": "-c add_one.metal\n",
		"add_one.metal":     "kernel void add_one(device int *b [[buffer(0)]], uint i [[thread_position_in_grid]]) { b[i] += 1; }\n",
	}, "metal-options.txt", "add_one.metal")
	return map[string][]byte{
		"one_kernel.metallib":      one,
		"three_functions.metallib": three,
		"old_style.metallib":       oldStyle(),
		"modern_style.metallib":    modernStyle(archive),
	}
}

// TestTestdata checks that the committed small libraries are what the
// generators make today (or rewrites them with -update), and writes the
// fuzz seeds from them.
func TestTestdata(t *testing.T) {
	files := generatedFiles(t)
	seedDir := filepath.Join("testdata", "fuzz", "FuzzParse")
	for name, want := range files {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(seedDir, 0o755); err != nil {
				t.Fatal(err)
			}
			seed := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", want)
			if err := os.WriteFile(filepath.Join(seedDir, name), []byte(seed), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the generators make (run with -update after checking why)", path)
		}
	}
}

// readTestdata reads a committed small library.
func readTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
