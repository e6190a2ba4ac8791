package cpuref

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// Private and threadgroup arrays are checked like buffers. A buffer sits
// between inaccessible pages, so an access outside it faults; an alloca (a
// private array: `float v[8]` indexed by a loop) or a threadgroup global
// lives beside others, and an access past it silently reads or overwrites
// its neighbour on the CPU's stack or in ThreadgroupSection — undefined in
// LLVM (a load or store outside its object) and in Metal, and answered
// differently by a GPU, whose private arrays are registers or scratch laid
// out otherwise. (shuo's vjp_layer_norm kernels, on inputs whose axis is
// shorter than the threadgroup's reads, pad their private array from a
// negative index: on the CPU that overwrote the neighbouring array, and the
// reference's sums differed from lavapipe's.) So a host module with an
// alloca or a threadgroup global goes through LLVM's bounds-checking pass
// (opt-19 -passes=bounds-checking), which guards every load and store whose
// object has a size LLVM knows; a guard that fails calls
// airpipe_array_oob, which the harness reports as an out-of-bounds access
// (exit 3, "array access": KindOutOfBounds, detail "private or threadgroup
// array"), so the next input family is tried as for a buffer. The pass
// traps through llvm.trap; the module's own llvm.trap calls (readsampler.go)
// are renamed airpipe_trap first, which traps as before (exit 4).

// boundsCheck is what checkBounds does to host: the passes to run
// ("bounds-checking" when host has a private or threadgroup array, else
// none) and whether anything is to be done at all (passes, or strip).
func boundsCheck(host string, strip bool) (passes string, needed bool) {
	if strings.Contains(host, " = alloca ") || strings.Contains(host, " addrspace(3) global ") {
		passes = "bounds-checking"
	}
	return passes, passes != "" || strip
}

// guardRenames are the renames after the bounds-checking pass: its guards'
// llvm.trap (the only one left, ownTraps) becomes airpipe_array_oob.
var guardRenames = [][2]string{{"llvm.trap", "airpipe_array_oob"}}

// checkBounds returns the path of ll (the host module's file in dir)
// instrumented by LLVM's bounds-checking pass, stripped of debug info when
// strip is set; ll itself when host has no private or threadgroup array
// and nothing to strip.
func checkBounds(ctx context.Context, dir, ll, host string, strip bool, timeout time.Duration) (string, error) {
	passes, needed := boundsCheck(host, strip)
	if !needed {
		return ll, nil
	}
	args := []string{"-o", filepath.Join(dir, "kernel-checked.ll"), "-S"}
	if strip {
		// The module states no debug-info version to mark (debuginfo.go).
		args = append(args, "--strip-debug")
	}
	if passes != "" {
		args = append(args, "-passes="+passes)
	}
	checked := filepath.Join(dir, "kernel-checked.ll")
	if !optimizeInChild(ctx, ll, checked, strip, passes, timeout) { // llvmchild.go
		spec := proc.Spec{Path: "opt-19", Args: append(args, ll), Timeout: timeout, MemoryLimit: 4 << 30}
		if err := buildStep(ctx, spec, "opt-19 is not installed", "opt-19", "opt-19 "+strings.Join(args[3:], " ")+" refused the retargeted module"); err != nil {
			return "", err
		}
	}
	text, err := os.ReadFile(checked)
	if err != nil {
		return "", err
	}
	for _, r := range guardRenames {
		text = []byte(strings.ReplaceAll(string(text), "@"+r[0]+"()", "@"+r[1]+"()"))
	}
	if err := os.WriteFile(checked, text, 0o644); err != nil {
		return "", err
	}
	return checked, nil
}

// ownTraps renames the host module's own llvm.trap calls, so that every
// llvm.trap after the bounds-checking pass is one of its guards.
func ownTraps(host string) string {
	return strings.ReplaceAll(host, "@llvm.trap()", "@airpipe_trap()")
}
