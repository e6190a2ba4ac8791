package translate

import (
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// atomicOps maps air.atomic.{global,local}.<op> to SPIR-V (signedness
// picks min/max); each takes (ptr, value, memory order, scope, volatile).
var atomicOps = map[string]spirv.Op{
	"add": spirv.OpAtomicIAdd, "sub": spirv.OpAtomicISub, "and": spirv.OpAtomicAnd,
	"or": spirv.OpAtomicOr, "xor": spirv.OpAtomicXor, "xchg": spirv.OpAtomicExchange,
	"min.u": spirv.OpAtomicUMin, "max.u": spirv.OpAtomicUMax, "min.s": spirv.OpAtomicSMin, "max.s": spirv.OpAtomicSMax,
}

// atomic lowers the 32-bit integer atomics on device and threadgroup memory.
func (t *translator) atomic(c *air.Call, op string, rest []string) (spirv.ID, bool) {
	parts := strings.Split(op, ".")
	if len(parts) == 3 && len(rest) == 1 && rest[0] == "f32" {
		return t.floatAtomic(c, c.Called().Name, parts[2]) // atomicf.go
	}
	if len(parts) != 3 || len(c.Args) < 2 || (len(rest) > 0 && rest[len(rest)-1] != "i32") {
		return 0, false
	}
	kind := parts[2]
	if len(rest) > 0 && (rest[0] == "u" || rest[0] == "s") && (kind == "min" || kind == "max") {
		kind += "." + rest[0]
	}
	p := t.ptr(c.Args[0])
	if p.root == nil {
		return t.undefResult(c), true
	}
	if !t.checkAligned(p, 0, 4) {
		return t.undefResult(c), true
	}
	scope := t.b.ConstantU32(uint32(spirv.ScopeDevice))
	if p.root.kind == rootWorkgroup {
		scope = t.b.ConstantU32(uint32(spirv.ScopeWorkgroup))
	}
	relaxed := t.b.ConstantU32(0)
	wp, _ := t.wordAt(p, 0)
	switch kind {
	case "load":
		return t.f.Op(spirv.OpAtomicLoad, t.u32, wp, scope, relaxed), true
	case "store":
		t.f.Emit(spirv.OpAtomicStore, uint32(wp), uint32(scope), uint32(relaxed), uint32(t.value(c.Args[1])))
		return 0, true
	case "cmpxchg.weak", "cmpxchg":
		return 0, false
	}
	sop, ok := atomicOps[kind]
	if !ok {
		return 0, false
	}
	return t.f.Op(sop, t.u32, wp, scope, relaxed, t.value(c.Args[1])), true
}

// barrier lowers air.wg.barrier(flags, scope): a workgroup control barrier
// whose memory semantics follow Metal's mem_flags (1 device, 2 threadgroup, 4 texture).
func (t *translator) barrier(c *air.Call, op string) (spirv.ID, bool) {
	if t.model != spirv.ExecutionModelGLCompute || len(c.Args) < 1 {
		return 0, false
	}
	flags, ok := c.Args[0].(*air.ConstInt)
	if !ok {
		return 0, false
	}
	sem, ok := barrierSemantics(flags.Bits)
	if !ok {
		t.miss.addf(CodeUnhandledIntrinsic, "air.%s with mem_flags %#x", op, flags.Bits)
		return 0, true
	}
	wg := t.b.ConstantU32(uint32(spirv.ScopeWorkgroup))
	if op == "mem.barrier" {
		t.f.Emit(spirv.OpMemoryBarrier, uint32(wg), uint32(t.b.ConstantU32(sem)))
		return 0, true
	}
	t.f.Emit(spirv.OpControlBarrier, uint32(wg), uint32(wg), uint32(t.b.ConstantU32(sem)))
	return 0, true
}

// barrierSemantics maps Metal's mem_flags (1 device, 2 threadgroup, 4
// texture) to SPIR-V memory semantics: acquire-release over those memories,
// none for mem_none. Other bits (threadgroup imageblocks) have no mapping.
func barrierSemantics(flags uint64) (uint32, bool) {
	if flags&^7 != 0 {
		return 0, false
	}
	if flags == 0 {
		return 0, true
	}
	sem := uint32(spirv.MemorySemanticsAcquireRelease)
	if flags&1 != 0 {
		sem |= uint32(spirv.MemorySemanticsUniformMemory)
	}
	if flags&2 != 0 {
		sem |= uint32(spirv.MemorySemanticsWorkgroupMemory)
	}
	if flags&4 != 0 {
		sem |= uint32(spirv.MemorySemanticsImageMemory)
	}
	return sem, true
}
