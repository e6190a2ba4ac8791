package cpuref

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped when a tool the reference needs (llvm-dis-19,
// llc-19, cc) is not installed: the reference cannot run on this machine.
var ErrUnavailable = errors.New("cpuref: unavailable")

// Kinds of NotJudgeableError: stable words, one per reason the reference
// sets a shader aside. Append-only.
const (
	// KindNotKernel: a vertex, fragment or other non-compute function.
	KindNotKernel = "not-a-kernel"
	// KindTexture: a texture the reference does not give (write access,
	// multisample, texture buffer...), a constexpr sampler, or a texture
	// operation other than sample and read; Detail names it.
	KindTexture = "texture"
	// KindBarrier: a barrier or fence the reference does not run
	// (air.simdgroup.barrier, air.mem.barrier, fences, air.wg.barrier with
	// other mem_flags bits or scope than it defines); Detail names it.
	KindBarrier = "barrier"
	// KindThreadgroupMemory: threadgroup (address space 3) memory the
	// reference does not give: a threadgroup-memory argument (its size is
	// the dispatch's), an external addrspace(3) global.
	KindThreadgroupMemory = "threadgroup-memory"
	// KindSIMDGroup: SIMD-group or quad-group values and operations the
	// reference does not run (quad-groups, simdgroup matrices, a partial
	// simdgroup, an unknown width, a shuffle of a lane outside the
	// simdgroup); Detail names it.
	KindSIMDGroup = "simdgroup"
	// KindFunctionConstant: function constants, fixed only at pipeline time.
	KindFunctionConstant = "function-constant"
	// KindArgument: an argument role or type the reference cannot supply.
	KindArgument = "argument"
	// KindApproximate: an operation Metal does not define bit for bit
	// (ApproximateOps: sqrt, fast_pow, length ..., or an order-only
	// operation in a form the reference does not define); Detail names it.
	KindApproximate = "approximate-op"
	// KindUnknownOp: an air.* operation the reference runtime does not
	// define; Detail names it.
	KindUnknownOp = "unknown-op"
	// KindOutOfBounds: the kernel touched memory outside its buffers on
	// the pattern-filled inputs (the access would be undefined on a GPU).
	KindOutOfBounds = "out-of-bounds"
	// KindTrap: the CPU trapped (integer division by zero, illegal instruction).
	KindTrap = "trap"
	// KindTimeout: the reference did not finish within its time limit.
	KindTimeout = "timeout"
	// KindCompile: llc-19 or the linker refused the retargeted module.
	KindCompile = "compile"
	// KindDisassemble: llvm-dis-19 could not read the bitcode.
	KindDisassemble = "disassemble"
	// KindRace: two threads changed the same bytes of a buffer without an
	// atomic operation: a GPU's result would depend on timing.
	KindRace = "write-conflict"
	// KindMalformed: the module's entry-point metadata is not what AIR
	// writes (the reference cannot tell which argument is which).
	KindMalformed = "malformed"
	// KindDiscard: a fragment function that can discard its pixel.
	KindDiscard = "discard"
	// KindDerivative: a screen-space derivative (dfdx, dfdy, fwidth) whose
	// operand may differ between pixels (it depends on the position, or the
	// analysis could not prove otherwise: derivative.go), or one outside a
	// fragment function.
	KindDerivative = "derivative"
	// KindBarrierDivergence: threads of one threadgroup did not all reach the
	// same air.wg.barrier (one finished while another waited, or they waited
	// at different call sites): undefined in Metal.
	KindBarrierDivergence = "barrier-divergence"
	// KindOrderDependent: a kernel with barriers or threadgroup memory whose
	// output changed when its threadgroup memory started with other bytes
	// (Detail "unwritten threadgroup memory") or when the threads between two
	// barriers ran in another order ("thread order"): undefined on a GPU.
	KindOrderDependent = "order-dependent"
	// KindSIMDDivergence: lanes of one simdgroup did not all reach the same
	// SIMD-group operation (some finished, waited at a barrier or at another
	// call site): the operation would run over a subset of active lanes,
	// which the reference does not imitate (simd.go).
	KindSIMDDivergence = "simdgroup-divergence"
)

// NotJudgeableError says why the reference cannot give an answer for a
// shader. It is a verdict about the reference's reach, not about the
// shader or the translation.
type NotJudgeableError struct {
	// Kind is one of the Kind constants.
	Kind string
	// Detail names the thing: the air.* operation, the argument role.
	Detail string
	// Reason is a sentence for people.
	Reason string
	// Also lists, as Blocker strings, the other operations of the module
	// the reference would need before it could run it (empty when this is
	// the only one), so a ranking can say what unblocks most.
	Also []string `json:",omitempty"`
	// SIMD is set when the kernel uses SIMD-group values or operations, so
	// the verdict may depend on Options.SIMDWidth.
	SIMD bool `json:",omitempty"`
}

// Blocker is the error's kind and detail as one string:
// "approximate-op air.fast_pow.f32".
func (e *NotJudgeableError) Blocker() string {
	if e.Detail == "" {
		return e.Kind
	}
	return e.Kind + " " + e.Detail
}

func (e *NotJudgeableError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("cpuref: not judgeable (%s %s): %s", e.Kind, e.Detail, e.Reason)
	}
	return fmt.Sprintf("cpuref: not judgeable (%s): %s", e.Kind, e.Reason)
}

func notJudgeable(kind, detail, format string, args ...any) *NotJudgeableError {
	return &NotJudgeableError{Kind: kind, Detail: detail, Reason: fmt.Sprintf(format, args...)}
}
