package translate

import (
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// SIMD-group and quad-group functions (MSL §6.9) become Vulkan subgroup
// operations (SPIR-V GroupNonUniform*, scope Subgroup): a Metal SIMD-group
// is a Vulkan subgroup, threads_per_simdgroup is SubgroupSize and the SIMD
// lane is SubgroupLocalInvocationId. A quad-group is the four lanes
// 4k..4k+3 of a SIMD-group. What each lowering keeps of Metal's definition:
//
//   - simd_shuffle(x, lane) and simd_broadcast(x, lane) read lane's x
//     (Broadcast when lane is a constant, Shuffle otherwise: Metal does not
//     require a uniform lane for simd_shuffle, and Shuffle is correct either
//     way); simd_shuffle_xor(x, mask) reads lane ^ mask.
//   - simd_shuffle_down(x, delta) reads lane + delta; Metal defines the
//     value of the last delta lanes of the SIMD-group as unchanged (their
//     own x), where SPIR-V's ShuffleDown leaves it undefined, so the result
//     is selected on lane + delta < threads_per_simdgroup. simd_shuffle_up
//     likewise keeps x in the first delta lanes (lane < delta).
//     simd_shuffle_rotate_down/up wrap around the SIMD-group: lane ± delta
//     modulo threads_per_simdgroup, through Shuffle.
//   - The quad forms do the same within the quad: quad_shuffle reads quad
//     lane (lane & 3), quad_shuffle_xor xors with mask & 3, down/up keep x
//     past the quad's ends, rotate wraps modulo 4.
//   - simd_sum, simd_product, simd_min, simd_max, simd_and, simd_or and
//     simd_xor are Reduce over the active lanes; simd_prefix_inclusive_* and
//     simd_prefix_exclusive_* are InclusiveScan and ExclusiveScan (the first
//     active lane's exclusive result is the operation's identity: 0 for a
//     sum, 1 for a product). The integer min and max take their signedness
//     from the name's s/u token; and/or/xor on bool are the Logical forms.
//     Float min and max follow fmin/fmax: a NaN operand yields the other.
//     The quad reductions are a butterfly over ShuffleXor 1 and 2 (see
//     quadReduce); the quad prefix scans stay missing.
//   - simd_all and simd_any vote over the active lanes; simd_ballot(b)
//     sets bit i for each active lane i where b holds (inactive lanes' bits
//     are 0), as a 64-bit simd_vote (the low 64 bits of SPIR-V's 128-bit
//     ballot; a Metal SIMD-group has at most 64 lanes).
//     simd_active_threads_mask is simd_ballot(true). simd_vote::all() is
//     true when every active lane's bit is set (v & active == active), so
//     that all(ballot(b)) == simd_all(b); simd_vote::any() is v != 0.
//   - simd_is_first is true in the active lane with the lowest lane id
//     (Elect); simd_broadcast_first reads that lane (BroadcastFirst).
//   - is_uniform(x), which Metal's compiler emits to feed llvm.assume with
//     the fact that x is the same in every thread, is answered for the
//     SIMD-group: AllEqual over the active lanes (true whenever x is
//     uniform over any larger set of threads).
//   - simdgroup_barrier(flags) is a control barrier with Subgroup
//     execution and memory scope; its memory semantics follow the same
//     mem_flags as threadgroup_barrier's (see barrierSemantics).
//
// Which operations and types a device supports in which stages
// (VkPhysicalDeviceSubgroupProperties, shaderSubgroupExtendedTypes for
// 8/16/64-bit values) is the device's to check: the module's capabilities,
// listed in its reflection, name the operation classes it uses.

// subgroupOp is one arithmetic group operation per operand kind.
type subgroupOp struct {
	float, sint, uint, boolean spirv.Op
}

// subgroupArith maps Metal's reduction names to SPIR-V group operations; 0
// means the operation has no form for that kind of operand.
var subgroupArith = map[string]subgroupOp{
	"sum":     {float: spirv.OpGroupNonUniformFAdd, sint: spirv.OpGroupNonUniformIAdd, uint: spirv.OpGroupNonUniformIAdd},
	"product": {float: spirv.OpGroupNonUniformFMul, sint: spirv.OpGroupNonUniformIMul, uint: spirv.OpGroupNonUniformIMul},
	"min":     {float: spirv.OpGroupNonUniformFMin, sint: spirv.OpGroupNonUniformSMin, uint: spirv.OpGroupNonUniformUMin},
	"max":     {float: spirv.OpGroupNonUniformFMax, sint: spirv.OpGroupNonUniformSMax, uint: spirv.OpGroupNonUniformUMax},
	"and":     {sint: spirv.OpGroupNonUniformBitwiseAnd, uint: spirv.OpGroupNonUniformBitwiseAnd, boolean: spirv.OpGroupNonUniformLogicalAnd},
	"or":      {sint: spirv.OpGroupNonUniformBitwiseOr, uint: spirv.OpGroupNonUniformBitwiseOr, boolean: spirv.OpGroupNonUniformLogicalOr},
	"xor":     {sint: spirv.OpGroupNonUniformBitwiseXor, uint: spirv.OpGroupNonUniformBitwiseXor, boolean: spirv.OpGroupNonUniformLogicalXor},
}

// isSIMDOp reports the air.* operations simd lowers.
func isSIMDOp(op string) bool {
	return isSIMDMatrixOp(op) || strings.HasPrefix(op, "simd_") || strings.HasPrefix(op, "quad_") || op == "simdgroup.barrier" || op == "is_uniform"
}

// simd lowers a SIMD-group or quad-group function; false means the name (or
// its signature) has no lowering.
func (t *translator) simd(c *air.Call, op string, rest []string) (spirv.ID, bool) {
	if isSIMDMatrixOp(op) {
		return t.simdMatrix(c, op) // simdmatrix.go
	}
	switch op {
	case "simdgroup.barrier":
		return t.simdBarrier(c)
	case "is_uniform":
		if len(c.Args) != 1 || intBits(c.Type()) != 1 || lanes(c.Type()) != 1 || !groupValue(c.Args[0].Type(), true) {
			return 0, false
		}
		t.subgroupCap(spirv.CapabilityGroupNonUniformVote)
		return t.f.Op(spirv.OpGroupNonUniformAllEqual, t.b.TypeBool(), t.subgroupScope(), t.value(c.Args[0])), true
	}
	quad := strings.HasPrefix(op, "quad_")
	kind := strings.TrimPrefix(strings.TrimPrefix(op, "simd_"), "quad_")
	switch kind {
	case "shuffle", "broadcast", "shuffle_xor", "shuffle_down", "shuffle_up", "shuffle_rotate_down", "shuffle_rotate_up":
		return t.simdShuffle(c, kind, quad)
	case "broadcast_first":
		if quad || len(c.Args) != 1 || !sameGroupValue(c, true) {
			return 0, false
		}
		t.subgroupCap(spirv.CapabilityGroupNonUniformBallot)
		return t.f.Op(spirv.OpGroupNonUniformBroadcastFirst, t.typ(c.Type()), t.subgroupScope(), t.value(c.Args[0])), true
	case "all", "any":
		if quad || len(c.Args) != 1 || intBits(c.Type()) != 1 || lanes(c.Type()) != 1 || c.Args[0].Type() != c.Type() {
			return 0, false
		}
		t.subgroupCap(spirv.CapabilityGroupNonUniformVote)
		opc := spirv.OpGroupNonUniformAll
		if kind == "any" {
			opc = spirv.OpGroupNonUniformAny
		}
		return t.f.Op(opc, t.b.TypeBool(), t.subgroupScope(), t.value(c.Args[0])), true
	case "ballot", "active_threads_mask":
		want := 1
		if kind == "active_threads_mask" {
			want = 0
		}
		if quad || len(c.Args) != want || (want == 1 && (intBits(c.Args[0].Type()) != 1 || lanes(c.Args[0].Type()) != 1)) || !isVoteType(c.Type()) {
			return 0, false
		}
		pred := t.b.ConstantBool(true)
		if want == 1 {
			pred = t.value(c.Args[0])
		}
		return t.ballot(pred, c.Type()), true
	case "vote_all", "vote_any":
		if quad || len(c.Args) != 1 || !isVoteType(c.Args[0].Type()) || intBits(c.Type()) != 1 || lanes(c.Type()) != 1 {
			return 0, false
		}
		vt := c.Args[0].Type()
		v := t.value(c.Args[0])
		if kind == "vote_any" {
			return t.f.Op(spirv.OpINotEqual, t.b.TypeBool(), v, t.intConst(vt, 0)), true
		}
		active := t.ballot(t.b.ConstantBool(true), vt)
		set := t.f.Op(spirv.OpBitwiseAnd, t.typ(vt), v, active)
		return t.f.Op(spirv.OpIEqual, t.b.TypeBool(), set, active), true
	case "is_first":
		if quad || len(c.Args) != 0 || intBits(c.Type()) != 1 || lanes(c.Type()) != 1 {
			return 0, false
		}
		t.subgroupCap(spirv.CapabilityGroupNonUniform)
		return t.f.Op(spirv.OpGroupNonUniformElect, t.b.TypeBool(), t.subgroupScope()), true
	}
	group := spirv.GroupOperationReduce
	switch {
	case strings.HasPrefix(kind, "prefix_inclusive_"):
		group, kind = spirv.GroupOperationInclusiveScan, strings.TrimPrefix(kind, "prefix_inclusive_")
	case strings.HasPrefix(kind, "prefix_exclusive_"):
		group, kind = spirv.GroupOperationExclusiveScan, strings.TrimPrefix(kind, "prefix_exclusive_")
	}
	if group != spirv.GroupOperationReduce && kind != "sum" && kind != "product" {
		return 0, false // Metal's prefix functions are sums and products only
	}
	if quad && group != spirv.GroupOperationReduce {
		return 0, false // no clustered scan in SPIR-V
	}
	ops, ok := subgroupArith[kind]
	if !ok || len(c.Args) != 1 || !sameGroupValue(c, true) {
		return 0, false
	}
	ty := c.Type()
	var opc spirv.Op
	switch {
	case isFloat(ty):
		opc = ops.float
	case intBits(ty) == 1:
		opc = ops.boolean
	case len(rest) > 0 && rest[0] == "s":
		opc = ops.sint
	case len(rest) > 0 && rest[0] == "u":
		opc = ops.uint
	case ops.sint == ops.uint:
		opc = ops.uint // the operation does not depend on signedness
	}
	if opc == 0 {
		return 0, false
	}
	if quad {
		return t.quadReduce(opc, ty, t.value(c.Args[0])), true
	}
	t.subgroupCap(spirv.CapabilityGroupNonUniformArithmetic)
	return t.f.OpWords(opc, t.typ(ty), uint32(t.subgroupScope()), uint32(group), uint32(t.value(c.Args[0]))), true
}

// quadReduce reduces x over its quad with a butterfly (x op x^1, then that
// op its value at ^2), which needs only Shuffle where ClusteredReduce needs
// a capability fewer devices have. All four lanes combine the same pairs,
// so they agree bit for bit.
func (t *translator) quadReduce(opc spirv.Op, ty air.Type, x spirv.ID) spirv.ID {
	t.subgroupCap(spirv.CapabilityGroupNonUniformShuffle)
	sty := t.typ(ty)
	for _, mask := range []uint32{1, 2} {
		y := t.f.Op(spirv.OpGroupNonUniformShuffleXor, sty, t.subgroupScope(), x, t.b.ConstantU32(mask))
		x = t.combine(opc, sty, x, y)
	}
	return x
}

// combine applies the two-operand form of a group arithmetic operation.
func (t *translator) combine(opc spirv.Op, ty, a, b spirv.ID) spirv.ID {
	core := map[spirv.Op]spirv.Op{
		spirv.OpGroupNonUniformFAdd: spirv.OpFAdd, spirv.OpGroupNonUniformIAdd: spirv.OpIAdd,
		spirv.OpGroupNonUniformFMul: spirv.OpFMul, spirv.OpGroupNonUniformIMul: spirv.OpIMul,
		spirv.OpGroupNonUniformBitwiseAnd: spirv.OpBitwiseAnd, spirv.OpGroupNonUniformBitwiseOr: spirv.OpBitwiseOr,
		spirv.OpGroupNonUniformBitwiseXor: spirv.OpBitwiseXor, spirv.OpGroupNonUniformLogicalAnd: spirv.OpLogicalAnd,
		spirv.OpGroupNonUniformLogicalOr: spirv.OpLogicalOr, spirv.OpGroupNonUniformLogicalXor: spirv.OpLogicalNotEqual,
	}
	if op, ok := core[opc]; ok {
		return t.f.Op(op, ty, a, b)
	}
	glsl := map[spirv.Op]spirv.GLSLOp{
		spirv.OpGroupNonUniformFMin: spirv.GLSLNMin, spirv.OpGroupNonUniformFMax: spirv.GLSLNMax,
		spirv.OpGroupNonUniformSMin: spirv.GLSLSMin, spirv.OpGroupNonUniformSMax: spirv.GLSLSMax,
		spirv.OpGroupNonUniformUMin: spirv.GLSLUMin, spirv.OpGroupNonUniformUMax: spirv.GLSLUMax,
	}[opc]
	return t.f.ExtInst(ty, glsl, a, b)
}

// simdShuffle lowers the shuffle and broadcast family (see the top of the file).
func (t *translator) simdShuffle(c *air.Call, kind string, quad bool) (spirv.ID, bool) {
	if len(c.Args) != 2 || !sameGroupValue(c, true) || intBits(c.Args[1].Type()) < 8 || lanes(c.Args[1].Type()) != 1 {
		return 0, false
	}
	ty := t.typ(c.Type())
	x := t.value(c.Args[0])
	n := t.laneArg(c.Args[1])
	bt := t.b.TypeBool()
	if quad {
		lane := t.simdLane()
		base := t.f.Op(spirv.OpBitwiseAnd, t.u32, lane, t.b.ConstantU32(^uint32(3)))
		q := t.f.Op(spirv.OpBitwiseAnd, t.u32, lane, t.b.ConstantU32(3))
		three := t.b.ConstantU32(3)
		var src, keep spirv.ID // keep: the lanes whose own x is the result
		switch kind {
		case "shuffle", "broadcast":
			src = t.f.Op(spirv.OpBitwiseAnd, t.u32, n, three)
		case "shuffle_xor":
			src = t.f.Op(spirv.OpBitwiseXor, t.u32, q, t.f.Op(spirv.OpBitwiseAnd, t.u32, n, three))
		case "shuffle_down":
			src = t.f.Op(spirv.OpIAdd, t.u32, q, n)
			keep = t.f.Op(spirv.OpUGreaterThan, bt, src, three)
		case "shuffle_up":
			keep = t.f.Op(spirv.OpULessThan, bt, q, n)
			src = t.f.Op(spirv.OpISub, t.u32, q, n)
		case "shuffle_rotate_down":
			src = t.f.Op(spirv.OpBitwiseAnd, t.u32, t.f.Op(spirv.OpIAdd, t.u32, q, n), three)
		case "shuffle_rotate_up":
			src = t.f.Op(spirv.OpBitwiseAnd, t.u32, t.f.Op(spirv.OpISub, t.u32, q, n), three)
		}
		if keep != 0 {
			src = t.f.Op(spirv.OpSelect, t.u32, keep, q, src)
		}
		t.subgroupCap(spirv.CapabilityGroupNonUniformShuffle)
		return t.f.Op(spirv.OpGroupNonUniformShuffle, ty, t.subgroupScope(), x, t.f.Op(spirv.OpBitwiseOr, t.u32, base, src)), true
	}
	sg := t.subgroupScope()
	switch kind {
	case "broadcast":
		if _, ok := c.Args[1].(*air.ConstInt); ok {
			t.subgroupCap(spirv.CapabilityGroupNonUniformBallot)
			return t.f.Op(spirv.OpGroupNonUniformBroadcast, ty, sg, x, n), true
		}
		fallthrough
	case "shuffle":
		t.subgroupCap(spirv.CapabilityGroupNonUniformShuffle)
		return t.f.Op(spirv.OpGroupNonUniformShuffle, ty, sg, x, n), true
	case "shuffle_xor":
		t.subgroupCap(spirv.CapabilityGroupNonUniformShuffle)
		return t.f.Op(spirv.OpGroupNonUniformShuffleXor, ty, sg, x, n), true
	case "shuffle_down":
		t.subgroupCap(spirv.CapabilityGroupNonUniformShuffleRelative)
		r := t.f.Op(spirv.OpGroupNonUniformShuffleDown, ty, sg, x, n)
		in := t.f.Op(spirv.OpULessThan, bt, t.f.Op(spirv.OpIAdd, t.u32, t.simdLane(), n), t.simdSize())
		return t.f.Op(spirv.OpSelect, ty, in, r, x), true
	case "shuffle_up":
		t.subgroupCap(spirv.CapabilityGroupNonUniformShuffleRelative)
		r := t.f.Op(spirv.OpGroupNonUniformShuffleUp, ty, sg, x, n)
		in := t.f.Op(spirv.OpUGreaterThanEqual, bt, t.simdLane(), n)
		return t.f.Op(spirv.OpSelect, ty, in, r, x), true
	}
	// Rotations: (lane ± delta) mod size, delta first reduced mod size so
	// that the up form cannot wrap below zero.
	size := t.simdSize()
	d := t.f.Op(spirv.OpUMod, t.u32, n, size)
	if kind == "shuffle_rotate_up" {
		d = t.f.Op(spirv.OpISub, t.u32, size, d)
	}
	src := t.f.Op(spirv.OpUMod, t.u32, t.f.Op(spirv.OpIAdd, t.u32, t.simdLane(), d), size)
	t.subgroupCap(spirv.CapabilityGroupNonUniformShuffle)
	return t.f.Op(spirv.OpGroupNonUniformShuffle, ty, sg, x, src), true
}

// ballot is the simd_vote of pred over the active lanes as an integer of
// type vt (i64, or i32 holding lanes 0-31).
func (t *translator) ballot(pred spirv.ID, vt air.Type) spirv.ID {
	t.subgroupCap(spirv.CapabilityGroupNonUniformBallot)
	v4 := t.b.TypeVector(t.u32, 4)
	b := t.f.Op(spirv.OpGroupNonUniformBallot, v4, t.subgroupScope(), pred)
	if intBits(vt) == 32 {
		return t.f.OpWords(spirv.OpCompositeExtract, t.u32, uint32(b), 0)
	}
	lo := t.f.OpWords(spirv.OpVectorShuffle, t.b.TypeVector(t.u32, 2), uint32(b), uint32(b), 0, 1)
	return t.f.Op(spirv.OpBitcast, t.typ(vt), lo) // component 0 is the low word
}

// simdBarrier lowers air.simdgroup.barrier(flags, scope).
func (t *translator) simdBarrier(c *air.Call) (spirv.ID, bool) {
	if len(c.Args) != 2 || air.HasResult(c) {
		return 0, false
	}
	flags, ok := c.Args[0].(*air.ConstInt)
	if !ok {
		return 0, false
	}
	sem, ok := barrierSemantics(flags.Bits)
	if !ok {
		t.miss.addf(CodeUnhandledIntrinsic, "air.simdgroup.barrier with mem_flags %#x", flags.Bits)
		return 0, true
	}
	sg := t.subgroupScope()
	t.f.Emit(spirv.OpControlBarrier, uint32(sg), uint32(sg), uint32(t.b.ConstantU32(sem)))
	return 0, true
}

// laneArg is a lane number or delta (Metal's ushort) as a u32.
func (t *translator) laneArg(v air.Value) spirv.ID {
	if k, ok := v.(*air.ConstInt); ok {
		b := intBits(v.Type())
		bits := k.Bits
		if b < 64 {
			bits &= 1<<uint(b) - 1
		}
		if bits > 0xffffffff {
			bits = 0xffffffff // beyond any SIMD-group: undefined in Metal too
		}
		return t.b.ConstantU32(uint32(bits))
	}
	id := t.value(v)
	if intBits(v.Type()) == 32 {
		return id
	}
	return t.f.Op(spirv.OpUConvert, t.u32, id)
}

// groupValue reports a type a group operation carries: a scalar or vector
// of integers, floats, or (when boolOK) bools.
func groupValue(ty air.Type, boolOK bool) bool {
	if lanes(ty) > 4 {
		return false
	}
	switch s := air.Scalar(ty).(type) {
	case *air.FloatType:
		return s.Kind == air.Half || s.Kind == air.Float || s.Kind == air.Double
	case *air.IntType:
		switch s.Bits {
		case 1:
			return boolOK
		case 8, 16, 32, 64:
			return true
		}
	}
	return false
}

// sameGroupValue reports a call whose result and first argument are one group value type.
func sameGroupValue(c *air.Call, boolOK bool) bool {
	return len(c.Args) > 0 && c.Args[0].Type() == c.Type() && groupValue(c.Type(), boolOK)
}

// isVoteType reports a simd_vote integer: i64, or i32.
func isVoteType(ty air.Type) bool {
	b := intBits(ty)
	return lanes(ty) == 1 && (b == 64 || b == 32)
}

// subgroupCap declares capability c (and the basic subgroup capability).
func (t *translator) subgroupCap(c spirv.Capability) {
	t.b.Capability(spirv.CapabilityGroupNonUniform)
	t.b.Capability(c)
}

func (t *translator) subgroupScope() spirv.ID {
	return t.b.ConstantU32(uint32(spirv.ScopeSubgroup))
}

// simdLane loads the thread's SIMD lane (SubgroupLocalInvocationId).
func (t *translator) simdLane() spirv.ID {
	return t.subgroupBuiltin(spirv.BuiltInSubgroupLocalInvocationId)
}

// simdSize loads threads_per_simdgroup (SubgroupSize).
func (t *translator) simdSize() spirv.ID {
	return t.subgroupBuiltin(spirv.BuiltInSubgroupSize)
}

// subgroupBuiltin loads a u32 subgroup built-in, declaring its input
// variable once per module.
func (t *translator) subgroupBuiltin(bi spirv.BuiltIn) spirv.ID {
	if t.subgroupVars == nil {
		t.subgroupVars = map[spirv.BuiltIn]spirv.ID{}
	}
	v, ok := t.subgroupVars[bi]
	if !ok {
		t.b.Capability(spirv.CapabilityGroupNonUniform)
		v = t.b.Variable(t.b.TypePointer(spirv.StorageClassInput, t.u32), spirv.StorageClassInput)
		t.b.Decorate(v, spirv.DecorationBuiltIn, uint32(bi))
		if t.model == spirv.ExecutionModelFragment {
			t.b.Decorate(v, spirv.DecorationFlat)
		}
		t.iface = append(t.iface, v)
		t.subgroupVars[bi] = v
	}
	return t.f.Op(spirv.OpLoad, t.u32, v)
}
