package ipsw_test

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

// need skips the test when a program is missing, naming its package.
func need(t testing.TB, program, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s not installed (Debian %s)", program, pkg)
	}
}

func run(t testing.TB, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// library builds a one-function library around testdata/kernel.ll.
func library(t testing.TB, name string) []byte {
	t.Helper()
	need(t, "llvm-as-19", "llvm-19")
	bc := filepath.Join(t.TempDir(), "k.bc")
	run(t, "llvm-as-19", "testdata/kernel.ll", "-o", bc)
	raw, err := os.ReadFile(bc)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := mtlb.Marshal(&mtlb.Spec{Platform: mtlb.PlatformIOS, FormatMajor: 2, FormatMinor: 7, TargetOS: 0x82, OSMajor: 16, OSMinor: 5,
		Functions: []mtlb.SpecFunction{{Name: name, Type: mtlb.FunctionKernel, Bitcode: raw, AIRMajor: 2, AIRMinor: 6, LangMajor: 3, LangMinor: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// node is one file of a test image tree.
type node struct {
	data []byte
	mode os.FileMode
	link string
}

// tree writes nodes under a new directory and returns it.
func tree(t testing.TB, nodes map[string]node) string {
	t.Helper()
	root := t.TempDir()
	for p, n := range nodes {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if n.link != "" {
			if err := os.Symlink(n.link, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := n.mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(full, n.data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(full, mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// isoImage makes an ISO 9660 image with Rock Ridge names and modes.
func isoImage(t testing.TB, dir string) []byte {
	t.Helper()
	need(t, "genisoimage", "genisoimage")
	out := filepath.Join(t.TempDir(), "img.iso")
	run(t, "genisoimage", "-quiet", "-R", "-o", out, dir)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// squashImage makes a squashfs image.
func squashImage(t testing.TB, dir string) []byte {
	t.Helper()
	need(t, "mksquashfs", "squashfs-tools")
	out := filepath.Join(t.TempDir(), "img.sqfs")
	run(t, "mksquashfs", dir, out, "-quiet", "-noappend", "-no-progress")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// zipEntry is one entry of a test .ipsw.
type zipEntry struct {
	name  string
	data  []byte
	store bool
}

// writeZip writes entries to a new zip file and returns its path.
func writeZip(t testing.TB, name string, entries ...zipEntry) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.store {
			h.Method = zip.Store
		}
		ew, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ew.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}
