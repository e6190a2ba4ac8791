package translate

import (
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// SIMD-group matrices (MSL §6.7, simdgroup_matrix<T, 8, 8>, T half or float).
//
// AIR carries a simdgroup matrix as a <64 x T> value and operates on it with
// three functions, whose operands Metal requires to be the same in every
// lane of the SIMD-group (the SIMD-group executes them together, on one
// matrix, one pointer, one stride):
//
//	<64 x T> air.simdgroup_matrix_8x8_load.v64T.pNT(ptr src, i64 elements_per_row, <2 x i64> matrix_origin, i1 transpose_matrix)
//	void     air.simdgroup_matrix_8x8_store.v64T.pNT(<64 x T> m, ptr dst, i64 elements_per_row, <2 x i64> matrix_origin, i1 transpose_matrix)
//	<64 x D> air.simdgroup_matrix_8x8_multiply_accumulate.v64D.v64A.v64B.v64D(<64 x A> a, <64 x B> b, <64 x D> c)
//
// The lowering: every lane holds the whole matrix, a SPIR-V array of 64 T in
// SSA, element (row r, column c) at index 8r + c. Because the operands are
// uniform, every lane computes the same matrix, so each lane's copy is the
// SIMD-group's matrix:
//
//   - load reads row r of the source from src + r·elements_per_row elements
//     (Metal's "elements per row" of the source layout), element (r, c) at
//     src[r·elements_per_row + c]; with transpose_matrix the loaded matrix is
//     the transpose of that one, (r, c) = src[c·elements_per_row + r].
//   - store writes the same places from the matrix (transposed alike). Every
//     lane writes the identical 64 values; in a buffer or threadgroup memory
//     each 32-bit element is an OpAtomicStore (relaxed) and each 16-bit one the
//     translator's atomic AND + OR of its half of the word (memory.go), so the
//     lanes' writes are atomic, never a data race, and whichever lane writes
//     last leaves the one matrix. (Private memory is the lane's own.)
//   - multiply_accumulate(a, b, c) is d = a·b + c (Metal's
//     simdgroup_multiply_accumulate(d, a, b, c)): d(r, c) = ((((c(r, c) +
//     a(r, 0)·b(0, c)) + a(r, 1)·b(1, c)) + …) + a(r, 7)·b(7, c)), each product
//     and sum rounded once in D (OpFMul and OpFAdd decorated NoContraction, so
//     nothing is fused); a half operand of a float product is widened exactly.
//     Metal does not fix the order or fusing of these roundings (the hardware
//     may keep more precision), so a GPU's d can differ in low bits: the CPU
//     reference (compiler/cpuref) computes this same order and names the
//     operation order-only, so the emulator compares the float results within
//     a ULP bound, never bit for bit.
//   - a constant matrix is zeroinitializer, undef or a splat (every element
//     the same value: make_filled_simdgroup_matrix); phi, select on a scalar
//     condition, freeze, calls and returns pass the value whole.
//
// Refused by name, because their meaning depends on which lane holds which
// element, which the Metal Shading Language leaves unspecified (it names no
// lane→element mapping): an extractelement, insertelement or shufflevector
// on a matrix (thread_elements(), whose constant indices 0 and 1 are the
// lane's own two elements in Apple's storage, not elements 0 and 1 of the
// matrix; Metal's compiler writes a float2 into them with a shufflevector),
// any other instruction on it (arithmetic, casts), a matrix loaded or
// stored as a value (its bytes are that per-lane storage), and a constant that
// is not a splat. Also refused: a load or store whose matrix_origin is not the
// constant zero (how MSL's origin combines with transpose_matrix is not stated
// in the specification), a transpose flag that is not a constant, element
// types other than half and float, and a product that would narrow an operand.

// simdMatrixElem is the element type of a simdgroup matrix type (nil when ty is not one).
func simdMatrixElem(ty air.Type) *air.FloatType {
	v, ok := ty.(*air.VectorType)
	if !ok || v.Len != 64 || v.Scalable {
		return nil
	}
	f, ok := v.Elem.(*air.FloatType)
	if !ok || (f.Kind != air.Half && f.Kind != air.Float) {
		return nil
	}
	return f
}

// simdMatrixType is the SPIR-V type of a simdgroup matrix: an array of its 64 elements.
func (t *translator) simdMatrixType(ty air.Type) (spirv.ID, bool) {
	e := simdMatrixElem(ty)
	if e == nil {
		return 0, false
	}
	return t.b.TypeArray(t.typ(e), t.b.ConstantU32(64), 0), true
}

// checkSIMDMatrices refuses, by name, every use of a simdgroup matrix in fn
// that the lowering above does not define.
func (t *translator) checkSIMDMatrices(fn *air.Function) {
	for _, bl := range fn.Blocks {
		for _, in := range bl.Insts {
			t.checkSIMDMatrixUse(in)
		}
	}
}

func (t *translator) checkSIMDMatrixUse(in air.Instruction) {
	ops := air.Operands(in)
	touches := air.HasResult(in) && simdMatrixElem(in.Type()) != nil
	for _, v := range ops {
		if v == nil || simdMatrixElem(v.Type()) == nil {
			continue
		}
		touches = true
		if c, ok := v.(air.Constant); ok && !uniformMatrixConstant(c) {
			t.miss.add(CodeUnhandledInstruction, "simdgroup matrix constant other than a splat")
		}
	}
	if !touches {
		return
	}
	switch in := in.(type) {
	case *air.Phi, *air.Freeze, *air.Call, *air.Ret:
	case *air.Select:
		if lanes(in.Cond.Type()) != 1 {
			t.miss.add(CodeUnhandledInstruction, "select of simdgroup matrices on a vector condition")
		}
	case *air.ExtractElement, *air.InsertElement, *air.ShuffleVector:
		t.miss.addf(CodeUnhandledInstruction, "%s on a simdgroup matrix (thread_elements: Metal leaves the lane-to-element mapping unspecified)", in.Opcode())
	case *air.Load, *air.Store:
		t.miss.addf(CodeUnhandledInstruction, "%s of a simdgroup matrix as a value (its bytes are per-lane storage)", in.Opcode())
	default:
		t.miss.addf(CodeUnhandledInstruction, "%s on a simdgroup matrix", in.Opcode())
	}
}

// uniformMatrixConstant reports a matrix constant every element of which is
// the same (zero, undef, poison or a splat), so no lane layout is involved.
func uniformMatrixConstant(c air.Constant) bool {
	switch c := c.(type) {
	case *air.ConstZero, *air.ConstUndef, *air.ConstPoison:
		return true
	case *air.ConstAggregate:
		for _, e := range c.Elems {
			if !sameConstant(e, c.Elems[0]) {
				return false
			}
		}
		return true
	}
	return false
}

func sameConstant(a, b air.Value) bool {
	fa, okA := a.(*air.ConstFloat)
	fb, okB := b.(*air.ConstFloat)
	return okA && okB && fa.Bits == fb.Bits
}

// isSIMDMatrixOp reports the air.* operations simdMatrix lowers.
func isSIMDMatrixOp(op string) bool { return strings.HasPrefix(op, "simdgroup_matrix_") }

// simdMatrix lowers a simdgroup matrix function; false means the name (or
// its signature) has no lowering.
func (t *translator) simdMatrix(c *air.Call, op string) (spirv.ID, bool) {
	switch op {
	case "simdgroup_matrix_8x8_load":
		if len(c.Args) != 4 || simdMatrixElem(c.Type()) == nil {
			return 0, false
		}
		return t.matrixMemory(c, c.Type(), c.Args[0], c.Args[1:], 0)
	case "simdgroup_matrix_8x8_store":
		if len(c.Args) != 5 || air.HasResult(c) || simdMatrixElem(c.Args[0].Type()) == nil {
			return 0, false
		}
		return t.matrixMemory(c, c.Args[0].Type(), c.Args[1], c.Args[2:], t.value(c.Args[0]))
	case "simdgroup_matrix_8x8_multiply_accumulate":
		return t.matrixMultiplyAccumulate(c)
	}
	return 0, false
}

// matrixMemory loads (m == 0) or stores m, a matrix of type mt, at ptr with
// the (elements_per_row, matrix_origin, transpose_matrix) operands rest.
func (t *translator) matrixMemory(c *air.Call, mt air.Type, ptr air.Value, rest []air.Value, m spirv.ID) (spirv.ID, bool) {
	name := c.Called().Name
	if !isPointer(ptr.Type()) || intBits(rest[0].Type()) < 8 || lanes(rest[0].Type()) != 1 || lanes(rest[2].Type()) != 1 || intBits(rest[2].Type()) != 1 {
		return 0, false
	}
	if !zeroOrigin(rest[1]) {
		t.miss.addf(CodeUnhandledIntrinsic, "%s with a matrix origin other than zero", name)
		return t.matrixUndef(c), true
	}
	tr, ok := rest[2].(*air.ConstInt)
	if !ok {
		t.miss.addf(CodeUnhandledIntrinsic, "%s with a variable transpose flag", name)
		return t.matrixUndef(c), true
	}
	transpose := tr.Bits&1 != 0
	elem := simdMatrixElem(mt)
	ety := t.typ(elem)
	es, _ := air.AllocSize(elem)
	p := t.ptr(ptr)
	if p.root == nil {
		return t.matrixUndef(c), true
	}
	var epr spirv.ID
	eprConst, constStride := rest[0].(*air.ConstInt)
	if !constStride {
		epr = t.toU32(rest[0])
	}
	shared := p.root.kind == rootBuffer || p.root.kind == rootWorkgroup
	var elems [64]spirv.ID
	for i := range uint64(8) { // memory row i
		row := t.makePointer(p.root, p.dyn, p.cst)
		switch {
		case constStride:
			row = t.makePointer(p.root, p.dyn, p.cst+eprConst.Int64()*int64(i*es))
		case i > 0:
			x := t.f.Op(spirv.OpIMul, t.u32, epr, t.b.ConstantU32(uint32(i*es)))
			if p.dyn != 0 {
				x = t.f.Op(spirv.OpIAdd, t.u32, p.dyn, x)
			}
			row = t.makePointer(p.root, x, p.cst)
		}
		for j := range uint64(8) {
			idx := 8*i + j // the matrix element at memory (i, j)
			if transpose {
				idx = 8*j + i
			}
			if m == 0 {
				elems[idx] = t.load(row, j*es, elem, es)
				continue
			}
			v := t.f.OpWords(spirv.OpCompositeExtract, ety, uint32(m), uint32(idx))
			if shared && es == 4 {
				// Every lane writes the same word: atomically (see the top of the file).
				if !t.checkAligned(row, j*es, es) {
					continue
				}
				wp, _ := t.wordAt(row, j*es)
				scope := spirv.ScopeDevice
				if p.root.kind == rootWorkgroup {
					scope = spirv.ScopeWorkgroup
				}
				w := t.f.Op(spirv.OpBitcast, t.u32, v)
				t.f.Emit(spirv.OpAtomicStore, uint32(wp), uint32(t.b.ConstantU32(uint32(scope))), uint32(t.b.ConstantU32(0)), uint32(w))
				continue
			}
			t.store(row, j*es, elem, v, es) // 16-bit: atomic AND + OR in shared memory
		}
	}
	if m != 0 {
		return 0, true
	}
	mty, _ := t.simdMatrixType(mt)
	return t.f.Op(spirv.OpCompositeConstruct, mty, elems[:]...), true
}

// matrixUndef is the result of a refused matrix call (0 for a store).
func (t *translator) matrixUndef(c *air.Call) spirv.ID {
	if !air.HasResult(c) {
		return 0
	}
	return t.b.Undef(t.typ(c.Type()))
}

// zeroOrigin reports a matrix_origin operand that is the constant (0, 0).
func zeroOrigin(v air.Value) bool {
	switch v := v.(type) {
	case *air.ConstZero:
		return true
	case *air.ConstAggregate:
		for _, e := range v.Elems {
			if k, ok := e.(*air.ConstInt); !ok || k.Bits != 0 {
				return false
			}
		}
		return true
	}
	return false
}

// matrixMultiplyAccumulate lowers d = a·b + c (see the top of the file).
func (t *translator) matrixMultiplyAccumulate(c *air.Call) (spirv.ID, bool) {
	if len(c.Args) != 3 || c.Args[2].Type() != c.Type() {
		return 0, false
	}
	d := simdMatrixElem(c.Type())
	ea, eb := simdMatrixElem(c.Args[0].Type()), simdMatrixElem(c.Args[1].Type())
	if d == nil || ea == nil || eb == nil || scalarBits(ea) > scalarBits(d) || scalarBits(eb) > scalarBits(d) {
		return 0, false
	}
	dty := t.typ(d)
	elems := func(v air.Value, e *air.FloatType) []spirv.ID {
		id := t.value(v)
		out := make([]spirv.ID, 64)
		for i := range out {
			out[i] = t.f.OpWords(spirv.OpCompositeExtract, t.typ(e), uint32(id), uint32(i))
			if e.Kind != d.Kind {
				out[i] = t.f.Op(spirv.OpFConvert, dty, out[i]) // half to float: exact
			}
		}
		return out
	}
	a, b, acc := elems(c.Args[0], ea), elems(c.Args[1], eb), elems(c.Args[2], d)
	out := make([]spirv.ID, 64)
	for r := range 8 {
		for col := range 8 {
			s := acc[8*r+col]
			for k := range 8 {
				p := t.f.Op(spirv.OpFMul, dty, a[8*r+k], b[8*k+col])
				t.b.Decorate(p, spirv.DecorationNoContraction)
				s = t.f.Op(spirv.OpFAdd, dty, s, p)
				t.b.Decorate(s, spirv.DecorationNoContraction)
			}
			out[8*r+col] = s
		}
	}
	mty, _ := t.simdMatrixType(c.Type())
	return t.f.Op(spirv.OpCompositeConstruct, mty, out...), true
}
