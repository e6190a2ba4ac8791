package cpuref

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// hostHead is a host module's target lines.
const hostHead = "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\ntarget triple = \"x86_64-pc-linux-gnu\"\n"

// loaderModule exercises what the harness's loader does for a kernel's
// object: constructors in the linker's order (priority 100 before the
// default), pointers in data (R_X86_64_64 in a table of functions), an
// external variable through the GOT (the C library's stdout), a common
// symbol.
const loaderModule = hostHead + `@order = internal global i32 0
@table = internal constant [2 x ptr] [ptr @seven, ptr @nine]
@stdout = external global ptr
@shared = common global i32 0
@llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @second, ptr null }, { i32, ptr, ptr } { i32 100, ptr @first, ptr null }]
define internal void @first() {
  store i32 1, ptr @order
  ret void
}
define internal void @second() {
  %v = load i32, ptr @order
  %m = mul i32 %v, 10
  %s = add i32 %m, 2
  store i32 %s, ptr @order
  ret void
}
define internal i32 @seven() {
  ret i32 7
}
define internal i32 @nine() {
  ret i32 9
}
define void @airpipe_thread(ptr %buffers, ptr %ids) {
  %out = load ptr, ptr %buffers
  %o = load i32, ptr @order
  store i32 %o, ptr %out
  %f0 = load ptr, ptr @table
  %f1p = getelementptr [2 x ptr], ptr @table, i32 0, i32 1
  %f1 = load ptr, ptr %f1p
  %a = call i32 %f0()
  %b = call i32 %f1()
  %ab = mul i32 %a, %b
  %out1 = getelementptr i32, ptr %out, i32 1
  store i32 %ab, ptr %out1
  %so = load ptr, ptr @stdout
  %has = icmp ne ptr %so, null
  %hw = zext i1 %has to i32
  %out2 = getelementptr i32, ptr %out, i32 2
  store i32 %hw, ptr %out2
  store i32 5, ptr @shared
  %c = load i32, ptr @shared
  %out3 = getelementptr i32, ptr %out, i32 3
  store i32 %c, ptr %out3
  ret void
}
`

// builtLoaderModule builds loaderModule in a new directory, with a fresh
// kernel cache, and returns a one-thread run's options, the directory and
// the program.
func builtLoaderModule(t *testing.T) (Options, string, program) {
	t.Helper()
	needTools(t)
	freshBuildCache(t)
	dir := t.TempDir()
	prog, err := build(context.Background(), dir, loaderModule, time.Minute, false)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Grid: Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}}}.withDefaults(), dir, prog
}

// TestKernelLoader: the harness runs a kernel from llc's object as a
// static link and the dynamic loader did, and refuses by name what it does
// not load (a thread-local variable, a file that is no object) as a link
// failure (KindCompile "link").
func TestKernelLoader(t *testing.T) {
	one, dir, prog := builtLoaderModule(t)
	outs, err := execute(context.Background(), dir, prog, &Kernel{}, []Data{{Index: 0, Bytes: make([]byte, 16)}}, one)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []uint32{12, 63, 1, 5} {
		if got := binary.LittleEndian.Uint32(outs[0].Bytes[4*i:]); got != want {
			t.Errorf("word %d: %d, want %d", i, got, want)
		}
	}

	refused := func(name string, prog program, dir, want string) {
		t.Helper()
		_, err := execute(context.Background(), dir, prog, &Kernel{}, []Data{{Index: 0, Bytes: make([]byte, 4)}}, one)
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindCompile || nj.Detail != "link" || !strings.Contains(nj.Reason, want) {
			t.Errorf("%s: got %v, want %s link naming %q", name, err, KindCompile, want)
		}
	}
	const tls = hostHead + `@t = thread_local global i32 0
define void @airpipe_thread(ptr %buffers, ptr %ids) {
  store i32 1, ptr @t
  ret void
}
`
	dir = t.TempDir()
	prog, err = build(context.Background(), dir, tls, time.Minute, false)
	if err != nil {
		t.Fatal(err)
	}
	refused("thread-local", prog, dir, "thread-local section: .tbss")

	dir = t.TempDir()
	junk := program{runner: prog.runner, kernel: filepath.Join(dir, "kernel.o")}
	if err := os.WriteFile(junk.kernel, []byte("!<arch>\nnot an object"), 0o600); err != nil {
		t.Fatal(err)
	}
	refused("not an object", junk, dir, "no x86-64 relocatable ELF object")
}

// FuzzKernelLoader: whatever bytes the harness is given as the kernel's
// object, loading it (--load-only: nothing of it runs) ends in exit 0 or a
// refusal (exit 12), never a crash or a hang.
func FuzzKernelLoader(f *testing.F) {
	if _, err := exec.LookPath("llc-19"); err != nil {
		f.Skip("llc-19 is not installed")
	}
	dir := f.TempDir()
	prog, err := build(context.Background(), dir, loaderModule, time.Minute, false)
	if err != nil {
		f.Fatal(err)
	}
	obj, err := os.ReadFile(prog.kernel)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(obj)
	f.Add(obj[:len(obj)/2])
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "kernel.o")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := proc.Run(context.Background(), proc.Spec{Path: prog.runner, Args: []string{"--load-only", path}, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if out.TimedOut || (out.ExitCode != 0 && out.ExitCode != 12) {
			t.Fatalf("loading %d bytes: %s: %s", len(b), out.Describe(), out.Tail(3))
		}
	})
}

// TestHarnessServer: a run forked by the harness server is the run a
// process of its own made — the same outputs, exit statuses and words —
// and a run that ends by a signal the harness does not catch, or passes
// its timeout, says so; the next run after a timeout (which killed the
// server) is answered by a fresh one.
func TestHarnessServer(t *testing.T) {
	one, dir, prog := builtLoaderModule(t)
	if harnessServers(prog.runner) == nil {
		t.Fatal("this build's harness has no servers")
	}
	in := []Data{{Index: 0, Bytes: make([]byte, 16)}}
	served, err := execute(context.Background(), dir, prog, &Kernel{}, in, one)
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the harness is no server's: it runs as a process.
	alone := prog
	alone.runner = filepath.Join(t.TempDir(), "harness")
	exe, err := os.ReadFile(prog.runner)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone.runner, exe, 0o700); err != nil {
		t.Fatal(err)
	}
	if harnessServers(alone.runner) != nil {
		t.Fatal("another harness file is served")
	}
	started, err := execute(context.Background(), dir, alone, &Kernel{}, in, one)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served[0].Bytes, started[0].Bytes) {
		t.Errorf("served %x, started %x", served[0].Bytes, started[0].Bytes)
	}

	const abort = hostHead + `declare void @abort()
define void @airpipe_thread(ptr %buffers, ptr %ids) {
  call void @abort()
  ret void
}
`
	const spin = hostHead + `define void @airpipe_thread(ptr %buffers, ptr %ids) {
entry:
  br label %loop
loop:
  %p = load volatile ptr, ptr %buffers
  br label %loop
}
`
	for _, c := range []struct {
		name, module string
		timeout      time.Duration
		want         string
	}{
		{"abort", abort, time.Minute, "killed by signal aborted"},
		{"timeout", spin, time.Second, "did not finish within 1s"},
	} {
		dir := t.TempDir()
		p, err := build(context.Background(), dir, c.module, time.Minute, false)
		if err != nil {
			t.Fatal(err)
		}
		o := one
		o.Timeout = c.timeout
		_, err = execute(context.Background(), dir, p, &Kernel{}, []Data{{Index: 0, Bytes: make([]byte, 4)}}, o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
		again, err := execute(context.Background(), t.TempDir(), prog, &Kernel{}, in, one)
		if err != nil || !bytes.Equal(again[0].Bytes, served[0].Bytes) {
			t.Errorf("after %s: %v, %x", c.name, err, again)
		}
	}
}
