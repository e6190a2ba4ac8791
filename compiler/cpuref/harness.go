package cpuref

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// The harness (harness_c.txt) is compiled once, as an executable, and runs
// each kernel as a shared object it loads (dlopen): linking a shared object
// of the kernel's alone with ld costs ~4 ms of CPU where linking a whole
// executable (cc, gcc's driver and collect2 before ld, the C runtime's
// start files and libraries) cost ~20 ms, at every build of every module.
// The kernel's object resolves what a static link gave it: the harness's
// callbacks from the harness executable (which exports them, -rdynamic), the
// C and math libraries from the harness's own, and libgcc's helpers
// (__extendhfsf2 ...) from libgcc.a, linked into the shared object as a
// static link would take them. (The rewrite makes the module's functions
// internal: airpipe_thread is its one global definition; -Bsymbolic binds
// references to it inside the object, as an executable's would be.) A symbol none defines
// fails the load (exit 12), which a static link would have refused: the
// same KindCompile "link" verdict. The bounds of the kernel's threadgroup
// section (airpipe_tg), which the harness took from weak references
// resolved by the static link, come from the same weak references in a
// small object linked into every kernel (tgBoundsSource).

// tgBoundsSource is linked into every kernel's shared object: airpipe_tg
// holds the bounds of its threadgroup section, or nulls when it has none,
// for the harness to look up.
const tgBoundsSource = `extern unsigned char __start_airpipe_tg[] __attribute__((weak));
extern unsigned char __stop_airpipe_tg[] __attribute__((weak));
unsigned char *const airpipe_tg[2] = {__start_airpipe_tg, __stop_airpipe_tg};
`

//go:embed harness_c.txt
var harnessSource []byte

// harness is the compiled harness.
type harness struct {
	// runner is the harness executable.
	runner string
	// tgBounds is tgBoundsSource's object.
	tgBounds string
	// libgcc is the C compiler's libgcc.a.
	libgcc string
}

// compiledHarness compiles the harness once per process into a per-user
// cache directory (harnessDir), named by the source's SHA-256, so every
// process that runs the reference shares one executable and none leaves a
// directory behind in the temporary directory; it asks cc where libgcc.a
// is.
var compiledHarness = sync.OnceValues(func() (harness, error) {
	dir, err := harnessDir()
	if err != nil {
		return harness{}, err
	}
	out, err := proc.Run(context.Background(), proc.Spec{Path: "cc", Args: []string{"-print-libgcc-file-name"}, Timeout: time.Minute})
	if errors.Is(err, proc.ErrNotFound) {
		return harness{}, fmt.Errorf("%w: no C compiler (cc)", ErrUnavailable)
	}
	if err != nil {
		return harness{}, err
	}
	libgcc := strings.TrimSpace(string(out.Stdout))
	if out.ExitCode != 0 || !filepath.IsAbs(libgcc) {
		return harness{}, fmt.Errorf("cpuref: cc -print-libgcc-file-name: %s: %q", out.Describe(), out.Tail(3))
	}
	// --no-as-needed keeps libm loaded for the kernel's calls into it.
	runner, err := compileOnce(dir, "harness", "", harnessSource, "-O1", "-rdynamic", "-ldl", "-Wl,--no-as-needed", "-lm")
	if err != nil {
		return harness{}, err
	}
	tgBounds, err := compileOnce(dir, "harness-tg", ".o", []byte(tgBoundsSource), "-O1", "-fPIC", "-c")
	if err != nil {
		return harness{}, err
	}
	return harness{runner: runner, tgBounds: tgBounds, libgcc: libgcc}, nil
})

// compileOnce compiles C source src with cc and flags into dir, named
// name-<hash of src>-<arch>ext, unless a process compiled it there before.
func compileOnce(dir, name, ext string, src []byte, flags ...string) (string, error) {
	sum := sha256.Sum256(src)
	path := filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:8])+"-"+runtime.GOARCH+ext)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		return path, nil
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	c, tmp := filepath.Join(work, name+".c"), filepath.Join(work, name+ext)
	if err := os.WriteFile(c, src, 0o644); err != nil {
		return "", err
	}
	out, err := proc.Run(context.Background(), proc.Spec{Path: "cc", Args: append([]string{"-o", tmp, c}, flags...), Timeout: time.Minute})
	if err != nil {
		return "", err
	}
	if out.ExitCode != 0 {
		return "", fmt.Errorf("cpuref: cc %s.c: %s: %s", name, out.Describe(), out.Tail(5))
	}
	// The rename is atomic: a concurrent process sees no file or a whole
	// one.
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
}

// harnessDir is where the compiled harness lives: airpipe's directory
// under the user cache directory, private to the user so no one else can
// plant an executable there. Without a user cache directory (no $HOME), a
// new temporary directory of this process's own.
func harnessDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return os.MkdirTemp("", "airpipe-cpuref-harness-")
	}
	dir := filepath.Join(base, "airpipe", "cpuref-harness")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cpuref: harness directory: %w", err)
	}
	return dir, nil
}

// program is what a reference runs: the harness executable and the
// kernel's shared object it loads.
type program struct {
	runner, kernel string
}

// bundleMagic starts a bundle.
const bundleMagic = "airpipe-cpuref-program 1\n"

// bundle is the program's two files in one byte string, a Result's Program
// (which a GPU host without LLVM or a C compiler runs again): bundleMagic,
// the harness's length as 8 little-endian bytes, the harness, the kernel's
// shared object.
func (p program) bundle() ([]byte, error) {
	runner, err := os.ReadFile(p.runner)
	if err != nil {
		return nil, err
	}
	kernel, err := os.ReadFile(p.kernel)
	if err != nil {
		return nil, err
	}
	b := append([]byte(bundleMagic), binary.LittleEndian.AppendUint64(nil, uint64(len(runner)))...)
	return append(append(b, runner...), kernel...), nil
}

// unbundle writes a bundle's two files into dir and returns their program.
func unbundle(dir string, b []byte) (program, error) {
	rest, ok := bytes.CutPrefix(b, []byte(bundleMagic))
	if !ok || len(rest) < 8 || binary.LittleEndian.Uint64(rest) > uint64(len(rest)-8) {
		return program{}, fmt.Errorf("cpuref: a stored program that is no bundle of this build")
	}
	n := binary.LittleEndian.Uint64(rest)
	runner := rest[8 : 8+n]
	p := program{runner: filepath.Join(dir, "harness"), kernel: filepath.Join(dir, "kernel.so")}
	if h, err := compiledHarness(); err == nil && sameContent(h.runner, runner) {
		// This build's own harness, compiled here: nothing to write and
		// then start (a program written just now can be busy, execute).
		p.runner = h.runner
	} else if err := os.WriteFile(p.runner, runner, 0o700); err != nil {
		return program{}, err
	}
	if err := os.WriteFile(p.kernel, rest[8+n:], 0o600); err != nil {
		return program{}, err
	}
	return p, nil
}

// sameContent reports whether the file at path holds b.
func sameContent(path string, b []byte) bool {
	f, err := os.ReadFile(path)
	return err == nil && bytes.Equal(f, b)
}

// link links the kernel's object obj into the shared object the harness
// loads, dir/kernel.so.
func (h harness) link(ctx context.Context, dir, obj string, timeout time.Duration) (program, error) {
	so := filepath.Join(dir, "kernel.so")
	spec := proc.Spec{Path: "ld", Args: []string{"-shared", "-Bsymbolic", "-o", so, obj, h.tgBounds, h.libgcc}, Timeout: timeout}
	if err := buildStep(ctx, spec, "no linker (ld)", "link", "linking the reference failed"); err != nil {
		return program{}, err
	}
	return program{runner: h.runner, kernel: so}, nil
}

// buildStep runs one tool of building the reference (opt-19, llc-19, ld): a
// missing tool is ErrUnavailable (missing says which), one that fails is not
// judgeable (KindCompile, detail), its first words after failed.
func buildStep(ctx context.Context, s proc.Spec, missing, detail, failed string) error {
	out, err := proc.Run(ctx, s)
	if errors.Is(err, proc.ErrNotFound) {
		return fmt.Errorf("%w: %s", ErrUnavailable, missing)
	}
	if err != nil {
		return err
	}
	if out.ExitCode != 0 {
		return notJudgeable(KindCompile, detail, "%s (%s): %s", failed, out.Describe(), firstLine(out.Tail(20)))
	}
	return nil
}
