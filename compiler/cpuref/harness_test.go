package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHarnessShared: the compiled harness lives in the per-user harness
// directory under a name made of its source's hash (every process reuses
// it), so nothing in the temporary directory grows with the number of runs;
// the directory is private to the user.
func TestHarnessShared(t *testing.T) {
	h, err := compiledHarness()
	if err != nil {
		t.Skipf("no harness here: %v", err)
	}
	dir, err := harnessDir()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(h.runner) != dir || !strings.HasPrefix(filepath.Base(h.runner), "harness-") {
		t.Errorf("harness %s, want harness-<hash> in %s", h.runner, dir)
	}
	if strings.HasPrefix(h.runner, os.TempDir()+string(filepath.Separator)) && os.Getenv("HOME") != "" {
		t.Errorf("harness %s in the temporary directory", h.runner)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("harness directory %s has mode %v; want it private to the user", dir, fi.Mode())
	}
}

// TestKernelLinkedAsStatically: the kernel's object, as the harness loads it, gets what a
// static link with the harness gave it — libgcc's helpers (a half
// conversion, __extendhfsf2), the math library's (sinf), the harness's
// (__truncsfbf2, airpipe_simd_width) — and a call of a function none
// defines fails the load as a link failure (KindCompile "link"), not as a
// run.
func TestKernelLinkedAsStatically(t *testing.T) {
	needTools(t)
	const head = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-pc-linux-gnu\"\n"
	const defined = head + `declare float @sinf(float)
declare i32 @airpipe_simd_width()
define void @airpipe_thread(ptr %buffers, ptr %ids) {
  %out = load ptr, ptr %buffers
  %h = bitcast i16 15360 to half
  %f = fpext half %h to float
  %s = call float @sinf(float 0.0)
  %one = fadd float %f, %s
  %b = fptrunc float %one to bfloat
  %bi = bitcast bfloat %b to i16
  %w = zext i16 %bi to i32
  %n = call i32 @airpipe_simd_width()
  %v = add i32 %w, %n
  store i32 %v, ptr %out
  ret void
}
`
	dir := t.TempDir()
	prog, err := build(context.Background(), dir, defined, time.Minute, false)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kernel{}
	outs, err := execute(context.Background(), dir, prog, k, []Data{{Index: 0, Bytes: make([]byte, 4)}}, Options{Grid: Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}}}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	// bfloat 1.0 is 0x3f80; plus the SIMD-group width, 1.
	if got := binary.LittleEndian.Uint32(outs[0].Bytes); got != 0x3f80+1 {
		t.Errorf("the kernel wrote %#x, want %#x", got, 0x3f80+1)
	}
	const missing = head + `declare void @airpipe_no_such_function()
define void @airpipe_thread(ptr %buffers, ptr %ids) {
  call void @airpipe_no_such_function()
  ret void
}
`
	dir = t.TempDir()
	prog, err = build(context.Background(), dir, missing, time.Minute, false)
	if err == nil {
		_, err = execute(context.Background(), dir, prog, k, nil, Options{Grid: Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}}}.withDefaults())
	}
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindCompile || nj.Detail != "link" || !strings.Contains(nj.Reason, "airpipe_no_such_function") {
		t.Errorf("a call of an undefined function: got %v, want %s link naming it", err, KindCompile)
	}
}

// TestProgramBundle: a bundle gives back the harness and the kernel's object
// byte for byte, the harness executable; anything else is refused.
func TestProgramBundle(t *testing.T) {
	dir := t.TempDir()
	p := program{runner: filepath.Join(dir, "r"), kernel: filepath.Join(dir, "k")}
	if err := os.WriteFile(p.runner, []byte("RUNNER"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.kernel, []byte("KERNEL.O"), 0o600); err != nil {
		t.Fatal(err)
	}
	// roundTrip bundles p and unbundles it in a new directory.
	roundTrip := func(p program) (bundle []byte, back program) {
		t.Helper()
		b, err := p.bundle()
		if err != nil {
			t.Fatal(err)
		}
		q, err := unbundle(t.TempDir(), b)
		if err != nil {
			t.Fatal(err)
		}
		return b, q
	}
	b, q := roundTrip(p)
	r, _ := os.ReadFile(q.runner)
	k, _ := os.ReadFile(q.kernel)
	if string(r) != "RUNNER" || string(k) != "KERNEL.O" {
		t.Errorf("unbundled %q and %q", r, k)
	}
	if fi, err := os.Stat(q.runner); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("the unbundled harness is not executable: %v %v", fi, err)
	}
	// This build's own harness is not written out again.
	if h, err := compiledHarness(); err == nil {
		_, q := roundTrip(program{runner: h.runner, kernel: p.kernel})
		if q.runner != h.runner {
			t.Errorf("this build's harness came back as %s, not %s", q.runner, h.runner)
		}
	}
	for _, bad := range [][]byte{nil, []byte("ELF..."), []byte(bundleMagic), b[:len(bundleMagic)+8+3]} {
		if _, err := unbundle(t.TempDir(), bad); err == nil {
			t.Errorf("unbundle(%q) accepted", bad)
		}
	}
}

// TestHarnessStaysSmall: every stored program (a provisional run's bundle,
// kept in the reference cache) carries the harness executable, so it must
// stay small: linking libgcc.a whole into it made it 2.7 MB and a whole
// share's reference cache 7.3 GB.
func TestHarnessStaysSmall(t *testing.T) {
	needTools(t)
	h, err := compiledHarness()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(h.runner)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 256<<10 {
		t.Errorf("the harness is %d bytes; want at most 256 KiB", fi.Size())
	}
}
