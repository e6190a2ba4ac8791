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
// each kernel from the relocatable object llc wrote, which it loads itself
// (load_kernel: sections laid out, relocations applied, constructors run):
// linking a shared object of the kernel's with ld cost ~3 ms of CPU at
// every build of every module (13 s of the share's run), and a whole
// executable ~20 ms. The kernel's object resolves what a static link gave
// it: the harness's callbacks from the harness executable (which exports
// them, -rdynamic), the C and math libraries from the harness's own, and
// libgcc's helpers (__extendhfsf2 ...) from libgcc_s, which the harness
// links. libgcc_s has every helper of libgcc.a that LLVM's x86-64 code
// calls (what only libgcc.a has is decimal float, split stacks and GCC's
// own stubs), and a stored program (bundle) stays the size of the harness
// alone, not of the whole libgcc.a (2.7 MB). The rewrite makes the
// module's functions internal: airpipe_thread is its one global
// definition, and the loader binds every reference to a symbol the object
// defines inside it, as a static link would. A symbol none defines fails
// the load (exit 12), which a static link would have refused: the
// KindCompile "link" verdict. The bounds of the kernel's threadgroup
// section (airpipe_tg) are the loader's own.

//go:embed harness_c.txt
var harnessSource []byte

// harness is the compiled harness.
type harness struct {
	// runner is the harness executable.
	runner string
}

// compiledHarness compiles the harness once per process into a per-user
// cache directory (harnessDir), named by the SHA-256 of its source and
// flags, so every
// process that runs the reference shares one executable and none leaves a
// directory behind in the temporary directory.
var compiledHarness = sync.OnceValues(func() (harness, error) {
	dir, err := harnessDir()
	if err != nil {
		return harness{}, err
	}
	// --no-as-needed keeps libm and libgcc_s loaded for the kernel's calls
	// into them.
	runner, err := compileOnce(dir, "harness", harnessSource, "-O1", "-rdynamic", "-ldl", "-Wl,--no-as-needed", "-lm", "-lgcc_s")
	if errors.Is(err, proc.ErrNotFound) {
		return harness{}, fmt.Errorf("%w: no C compiler (cc)", ErrUnavailable)
	}
	if err != nil {
		return harness{}, err
	}
	return harness{runner: runner}, nil
})

// compileOnce compiles C source src with cc and flags into an executable
// in dir, named name-<hash of src and flags>-<arch>, unless a process
// compiled it there before.
func compileOnce(dir, name string, src []byte, flags ...string) (string, error) {
	sum := sha256.Sum256(append(append([]byte(nil), src...), "\x00"+strings.Join(flags, "\x00")...))
	path := filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:8])+"-"+runtime.GOARCH)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		return path, nil
	}
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	c, tmp := filepath.Join(work, name+".c"), filepath.Join(work, name)
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
// kernel's object it loads.
type program struct {
	runner, kernel string
	// object is the kernel file's bytes when the build that wrote it has
	// them (nil: read from kernel when needed).
	object []byte
}

// bundleMagic starts a bundle.
const bundleMagic = "airpipe-cpuref-program 3\n"

// bundle is the program's two files in one byte string, a Result's Program
// (which a GPU host without LLVM or a C compiler runs again): bundleMagic,
// the harness's length as 8 little-endian bytes, the harness, the kernel's
// object (version 1 held a shared object and the harness that dlopened it;
// version 2's harness read a file per buffer, not the one file of all).
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
	p := program{runner: filepath.Join(dir, "harness"), kernel: filepath.Join(dir, "kernel.o")}
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

// buildStep runs one tool of building the reference (opt-19, llc-19): a
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
