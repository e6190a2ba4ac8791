package cpuref

import (
	"fmt"
	"strconv"
	"strings"
)

// Threadgroups (harness_c.txt runs them).
//
// A kernel's threadgroup memory is its addrspace(3) globals. The rewrite
// keeps them in address space 3 (x86-64 treats it as ordinary memory) and
// puts them in one ELF section, ThreadgroupSection, whose bounds the harness
// finds through the linker's __start_/__stop_ symbols. The harness refills
// that region before every threadgroup: the groups run one after another, so
// each has its own copy. Metal leaves threadgroup memory uninitialised (and a
// Vulkan Workgroup variable has no initializer), so the global's initializer
// is dropped (zeroinitializer in the object, overwritten before each group)
// and a kernel whose output depends on what it held is set aside (below).
//
// air.wg.barrier(mem_flags, scope) is defined as a call of airpipe_barrier
// with the flags and the call site: the rewrite gives every call a third
// operand, the call's line in llvm-dis's text (a constant per site, so llc's
// tail merging cannot fold two barriers into one). When the module declares
// it, every thread of a group runs on its own stack (a ucontext), and the
// harness's scheduler runs each thread up to its next barrier or its end,
// releasing them once every thread of the group waits at the same call site
// with the same flags. A thread that ends while another waits, or threads
// waiting at different call sites, is barrier divergence
// (KindBarrierDivergence), which Metal leaves undefined. The call site is the
// immediate caller's: a barrier in a helper function called from two places
// is one barrier to this check.
//
// mem_flags are Metal's (mem_device 1, mem_threadgroup 2, mem_texture 4; 0 is
// mem_none, an execution barrier only). Threads run one at a time, so every
// write before the barrier is visible after it whatever the flags; what the
// flags decide is ordering for the write-conflict check: two threads of one
// group changing the same byte with a barrier between them is ordered only if
// the barrier's flags cover that memory (device buffers: 1, the threadgroup
// region: 2, writable textures: 4); otherwise, as between threads of two
// groups, it is a write conflict (KindRace). Other flag bits and a scope other
// than 1 (the threadgroup scope threadgroup_barrier has; the corpus's only
// value) are refused by name (KindBarrier), as are air.simdgroup.barrier,
// air.mem.barrier and fences.
//
// air.atomic.local.* are the air.atomic.global.* definitions on addrspace(3)
// pointers: threads switch only at barriers, so each is trivially atomic, and
// they mark the word as the global ones do.
//
// A kernel that calls a barrier or has threadgroup memory runs five times
// from the same inputs (the harness's "passes 5"): threadgroup memory filled
// with 0x00 bytes and the threads in order (the output kept), filled with
// 0xff, 0x00 with the threads of every segment (a run between barriers)
// in reverse order, then filled with 0x7b and with 0xfb — every float, half
// and bfloat large and positive, then large and negative, which a min or a
// max cannot both pass over as it passes over the zeros and the NaNs of the
// first two (kolinko's findCutoff32 takes simd_min and simd_max of
// threadgroup slots no thread wrote: over its zero values neither 0x00 nor
// 0xff moved them, lavapipe's leftovers did; under 0x7b its search moves, and
// shows its lanes reading a bound another lane wrote with no barrier
// between, a write conflict). An output that differs depends on threadgroup memory no
// thread wrote before reading, or on the order threads run between barriers
// (a thread reading what another writes with no barrier between): both
// undefined on a GPU, set aside as KindOrderDependent with Detail
// "unwritten threadgroup memory" or "thread order". A read race whose
// value never reaches an output, or that both orders happen to agree on, is
// not detected.

// ThreadgroupSection is the ELF section holding a module's threadgroup memory.
const ThreadgroupSection = "airpipe_tg"

// ThreadgroupGuard is the size of the page-aligned guards the rewrite puts
// before and after the threadgroup globals in ThreadgroupSection (llc and the
// linker keep a section's globals in module order); the harness makes them
// inaccessible, so an access more than a page outside the threadgroup
// memory faults (KindOutOfBounds). One landing in the alignment padding of
// the region's last page, or in another threadgroup global, is not detected.
const ThreadgroupGuard = 8192

// threadgroupGuard is the definition of the guard global named by where.
func threadgroupGuard(where string) string {
	return fmt.Sprintf("@airpipe_tg_%s_guard = internal global [%d x i8] zeroinitializer, section %q, align 4096", where, ThreadgroupGuard, ThreadgroupSection)
}

// threadgroupGlobal rewrites an addrspace(3) global definition line: its
// initializer becomes zeroinitializer and it goes in ThreadgroupSection. It
// returns ok false when the line is no addrspace(3) global.
func threadgroupGlobal(l string) (string, bool, error) {
	at := strings.Index(l, " addrspace(3) global ")
	if !strings.HasPrefix(l, "@") || at < 0 {
		return "", false, nil
	}
	head := l[:at+len(" addrspace(3) global ")]
	if strings.Contains(head, " external ") || strings.Contains(head, " extern_weak ") || strings.Contains(head, " thread_local") {
		return "", true, notJudgeable(KindThreadgroupMemory, "external addrspace(3) global", "threadgroup memory declared but not defined by the module")
	}
	rest := l[len(head):]
	n := typeLen(rest)
	if n <= 0 || n >= len(rest) || rest[n] != ' ' {
		return "", true, notJudgeable(KindMalformed, "addrspace(3) global", "cannot read the type of threadgroup global %q", l)
	}
	ty := rest[:n]
	parts := splitTop(rest[n+1:])
	if len(parts) == 0 || parts[0] == "" {
		return "", true, notJudgeable(KindMalformed, "addrspace(3) global", "threadgroup global %q has no initializer", l)
	}
	attrs := []string{"section \"" + ThreadgroupSection + "\""}
	for _, a := range parts[1:] {
		switch {
		case strings.HasPrefix(a, "align "):
			attrs = append(attrs, a)
		case strings.HasPrefix(a, "!"):
			// debug-info attachments (!dbg !12) carry no meaning here
			attrs = append(attrs, a)
		default:
			return "", true, notJudgeable(KindThreadgroupMemory, "addrspace(3) global "+a, "threadgroup global with attribute %q, which the reference does not place", a)
		}
	}
	return head + ty + " zeroinitializer, " + strings.Join(attrs, ", "), true, nil
}

// typeLen is the length of the LLVM type at the start of s: a bracketed
// aggregate or vector, a named type (%struct.x, %"x y"), or a word.
func typeLen(s string) int {
	switch {
	case s == "":
		return 0
	case s[0] == '[' || s[0] == '{' || s[0] == '<':
		return matching(s, 0) + 1
	case strings.HasPrefix(s, `%"`):
		if e := strings.IndexByte(s[2:], '"'); e >= 0 {
			return e + 3
		}
		return 0
	}
	i := 0
	for i < len(s) && (isIdent(s[i]) || s[i] == '%') {
		i++
	}
	return i
}

// threadgroupUse is what a module asks of the harness's threadgroups.
type threadgroupUse struct {
	// Barrier: the module declares air.wg.barrier (threads cooperate).
	Barrier bool
	// Memory: the module defines addrspace(3) globals.
	Memory bool
	// SIMD: the module declares a SIMD-group operation whose lanes meet
	// (simdSited: threads cooperate).
	SIMD bool
	// Atomic: the module declares an air.atomic.* operation. Threads run
	// one after another, so what a fetch-and-op returns (a slot, a count)
	// or a float atomic's rounding follows their order: such a kernel also
	// runs the reverse-order pass, and an output that depends on the order
	// is set aside (KindOrderDependent "thread order") instead of a false red.
	Atomic bool
}

// threadgroupUses reads the module's use of barriers and threadgroup memory
// and checks every air.wg.barrier call's operands: constant mem_flags
// within mem_device | mem_threadgroup | mem_texture, scope 1.
func threadgroupUses(t *textModule) (threadgroupUse, error) {
	var u threadgroupUse
	for _, l := range t.lines {
		if err := checkSIMDMatrixCalls(l); err != nil {
			return u, err
		}
		switch {
		case strings.HasPrefix(l, "@") && strings.Contains(l, " addrspace(3) global "):
			u.Memory = true
		case strings.HasPrefix(l, "declare ") && strings.Contains(l, " @air.wg.barrier("):
			u.Barrier = true // as declaresBarrier
		case strings.HasPrefix(l, "declare ") && declaresSited(l):
			u.SIMD = true
		case strings.HasPrefix(l, "declare ") && strings.Contains(l, " @air.atomic."):
			u.Atomic = true
		case strings.HasPrefix(l, "  ") && strings.Contains(l, " @air.wg.barrier("):
			if err := checkBarrierCall(l); err != nil {
				return u, err
			}
		}
	}
	return u, nil
}

// checkBarrierCall checks one call line of air.wg.barrier.
func checkBarrierCall(l string) error {
	i := strings.Index(l, " @air.wg.barrier(") + len(" @air.wg.barrier")
	end := matching(l, i)
	if end < 0 {
		return notJudgeable(KindMalformed, "air.wg.barrier", "unbalanced call %q", strings.TrimSpace(l))
	}
	args := splitTop(l[i+1 : end])
	val := func(a string) (int64, bool) {
		ty, v, ok := strings.Cut(a, " ")
		if !ok || ty != "i32" {
			return 0, false
		}
		v = strings.TrimPrefix(strings.TrimPrefix(v, "noundef "), "immarg ")
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	if len(args) != 2 {
		return notJudgeable(KindBarrier, "air.wg.barrier operands", "air.wg.barrier called with %d operands, not mem_flags and scope", len(args))
	}
	flags, ok1 := val(args[0])
	scope, ok2 := val(args[1])
	switch {
	case !ok1 || !ok2:
		return notJudgeable(KindBarrier, "air.wg.barrier operands", "air.wg.barrier with operands %q that are not constant i32s", l[i+1:end])
	case flags&^7 != 0:
		return notJudgeable(KindBarrier, fmt.Sprintf("air.wg.barrier mem_flags %#x", flags), "mem_flags %#x: only mem_device (1), mem_threadgroup (2) and mem_texture (4) are defined here", flags)
	case scope != 1:
		return notJudgeable(KindBarrier, fmt.Sprintf("air.wg.barrier scope %d", scope), "a barrier of scope %d: only the threadgroup scope (1) is defined here", scope)
	}
	return nil
}

// barrierOp defines air.wg.barrier(i32 mem_flags, i32 scope), which the
// rewrite calls with a third operand, the call site (addSite, simd.go): the
// harness's airpipe_barrier with the flags and the site.
func barrierOp(d declaration) (string, error) {
	if d.Ret != "void" || len(d.Params) != 2 || d.Params[0] != "i32" || d.Params[1] != "i32" {
		return "", notJudgeable(KindBarrier, d.Name, "%s declared as %s(%s), not void(i32, i32)", d.Name, d.Ret, strings.Join(d.Params, ", "))
	}
	return fmt.Sprintf("define internal void @%q(i32 %%a0, i32 %%a1, i32 %%site) noinline {\n"+
		"  call void @airpipe_barrier(i32 %%a0, i32 %%site)\n"+
		"  ret void\n}\n", d.Name), nil
}

// CooperativeGridFor is the grid a kernel that declares air.wg.barrier is
// dispatched over when Options.Grid is zero: 2 threadgroups of 32 threads
// (32×1×1 for a kernel taking a scalar position, 8×4×1 in 2×2 groups for two
// components, 4×4×2 in 2×2×2 groups for three). 32 threads a group span
// several of the lockstep batches a CPU or GPU driver advances together
// (lavapipe's are 8 invocations), so a barrier the translation dropped shows
// as a thread reading a neighbour's word before its batch ran; over GridFor's
// 8 threads a group it would not.
func CooperativeGridFor(dims int) Grid {
	switch dims {
	case 2:
		return Grid{Groups: [3]uint32{2, 2, 1}, Threads: [3]uint32{8, 4, 1}}
	case 3:
		return Grid{Groups: [3]uint32{2, 2, 2}, Threads: [3]uint32{4, 4, 2}}
	}
	return Grid{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{32, 1, 1}}
}

// declaresBarrier reports whether the module declares air.wg.barrier.
func declaresBarrier(t *textModule) bool {
	for _, l := range t.lines {
		if strings.HasPrefix(l, "declare ") && strings.Contains(l, " @air.wg.barrier(") {
			return true
		}
	}
	return false
}

// MaxThreadgroupThreads is the most threads of one threadgroup the harness
// runs cooperatively (Metal's largest threadgroup; each has a 512 KiB stack).
const MaxThreadgroupThreads = 1024

// declaresSited reports whether a declare line declares a SIMD-group
// operation whose lanes meet (simdSited).
func declaresSited(l string) bool {
	m := simdCall.FindStringSubmatch(l)
	return m != nil && simdSited(m[1])
}
