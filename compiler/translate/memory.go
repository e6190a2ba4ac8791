package translate

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// The pointer model (ABI.md): every pointer is a (root, byte offset) pair.
// A root is one SPIR-V variable holding 32-bit words: a storage buffer's
// runtime array for a Metal buffer argument, a Workgroup array for
// threadgroup memory, a Function array for an alloca, a Private array for a
// constant global. The offset is a u32 SSA value computed from GEPs with the
// datalayout's sizes, so LLVM's pointer arithmetic and reinterpreting casts
// carry over exactly; loads and stores are split into word accesses (with
// shifts and masks for 8- and 16-bit values). A pointer's root must be known
// statically; a phi or select of pointers into different roots, and
// ptrtoint/inttoptr, are refused by name.

type rootKind uint8

const (
	rootBuffer rootKind = iota
	rootWorkgroup
	rootFunction
	rootPrivate
)

// root is one word-addressed variable.
type root struct {
	kind    rootKind
	v       spirv.ID
	sc      spirv.StorageClass
	wrapped bool // a Block struct around the array: access chains start with member 0
}

// pointer is a root and a byte offset: off = dyn + cst, dyn may be 0 (none).
type pointer struct {
	root *root
	dyn  spirv.ID
	cst  int64
	off  spirv.ID
}

func (t *translator) makePointer(r *root, dyn spirv.ID, cst int64) pointer {
	p := pointer{root: r, dyn: dyn, cst: cst}
	switch {
	case dyn == 0:
		p.off = t.b.ConstantU32(uint32(cst))
	case cst == 0:
		p.off = dyn
	default:
		p.off = t.f.Op(spirv.OpIAdd, t.u32, dyn, t.b.ConstantU32(uint32(cst)))
	}
	return p
}

// rootOf finds the variable a pointer value points into, following GEPs,
// casts, phis and selects back to an argument, alloca or global.
func (t *translator) rootOf(v air.Value) *root {
	if r, ok := t.roots[v]; ok {
		return r
	}
	t.roots[v] = nil // cycle guard for phis
	var r *root
	switch v := v.(type) {
	case *air.GEP:
		r = t.rootOf(v.Base)
	case *air.Cast:
		if v.Op == air.OpBitCast || v.Op == air.OpAddrSpaceCast {
			r = t.rootOf(v.X)
		}
	case *air.Phi:
		for _, in := range v.Incoming {
			if r = t.rootOf(in.Value); r != nil {
				break
			}
		}
	case *air.Select:
		if r = t.rootOf(v.X); r == nil {
			r = t.rootOf(v.Y)
		}
	case *air.ConstExpr:
		if len(v.Ops) > 0 && (v.Op == air.OpGetElementPtr || v.Op == air.OpBitCast || v.Op == air.OpAddrSpaceCast) {
			r = t.rootOf(v.Ops[0])
		}
	case *air.Alloca:
		r = t.allocaRoot(v)
	case *air.GlobalVariable:
		r, ok := t.globals[v]
		if !ok {
			r = t.globalRoot(v)
			t.globals[v] = r
		}
		t.roots[v] = r
		return r
	case *air.Argument:
		if p, ok := t.ptrs[v]; ok {
			r = p.root
		}
	case *air.Load:
		if p, ok := t.ptrs[v]; ok {
			r = p.root
		}
	}
	t.roots[v] = r
	return r
}

// ptr returns the pointer an operand denotes.
func (t *translator) ptr(v air.Value) pointer {
	if id, ok := t.loadCrossing(v); ok {
		return pointer{root: t.rootOf(v), dyn: id, off: id}
	}
	if p, ok := t.ptrs[v]; ok {
		return p
	}
	var p pointer
	switch v := v.(type) {
	case *air.GlobalVariable:
		p = t.makePointer(t.rootOf(v), 0, 0)
	case *air.ConstExpr:
		p = t.constExprPointer(v)
	case *air.ConstNull:
		t.miss.add(CodeUnhandledInstruction, "null pointer")
	case *air.ConstUndef, *air.ConstPoison:
		t.miss.add(CodeUnhandledInstruction, "undefined pointer")
	case air.Instruction:
		t.miss.addf(CodeUnhandledInstruction, "pointer from %s", v.Opcode())
	default:
		t.miss.addf(CodeUnhandledInstruction, "pointer from %T", v)
	}
	if p.off == 0 {
		p.off = t.b.ConstantU32(0)
	}
	t.ptrs[v] = p
	return p
}

func (t *translator) constExprPointer(c *air.ConstExpr) pointer {
	switch c.Op {
	case air.OpBitCast, air.OpAddrSpaceCast:
		return t.ptr(c.Ops[0])
	case air.OpGetElementPtr:
		base := t.ptr(c.Ops[0])
		idx := make([]air.Value, len(c.Ops)-1)
		for i, o := range c.Ops[1:] {
			idx[i] = o
		}
		return t.gep(base, c.SourceElem, idx)
	}
	t.miss.add(CodeUnhandledInstruction, "constexpr "+c.Op.String()+" pointer")
	return pointer{}
}

// gep offsets base by indices over source element type elem.
func (t *translator) gep(base pointer, elem air.Type, indices []air.Value) pointer {
	dyn, cst := base.dyn, base.cst
	cur := elem
	for i, ix := range indices {
		var stride uint64
		var err error
		if i == 0 {
			stride, err = air.AllocSize(elem)
		} else {
			switch ct := cur.(type) {
			case *air.StructType:
				ci, ok := ix.(*air.ConstInt)
				if !ok {
					t.miss.add(CodeUnhandledInstruction, "getelementptr with a variable struct index")
					return base
				}
				offs, _, lerr := air.StructLayout(ct)
				if lerr != nil || int(ci.Bits) >= len(offs) {
					t.miss.addf(CodeUnsupportedType, "layout of %s", ct)
					return base
				}
				cst += int64(offs[ci.Bits])
				cur = ct.Fields[ci.Bits]
				continue
			case *air.ArrayType:
				cur = ct.Elem
			case *air.VectorType:
				cur = ct.Elem
			default:
				t.miss.addf(CodeUnhandledInstruction, "getelementptr into %s", cur)
				return base
			}
			stride, err = air.AllocSize(cur)
		}
		if err != nil {
			t.miss.addf(CodeUnsupportedType, "layout of %s", cur)
			return base
		}
		if ci, ok := ix.(*air.ConstInt); ok {
			cst += ci.Int64() * int64(stride)
			continue
		}
		if _, ok := ix.Type().(*air.IntType); !ok {
			t.miss.add(CodeUnhandledInstruction, "getelementptr with a vector index")
			return base
		}
		x := t.toU32(ix)
		if stride != 1 {
			x = t.f.Op(spirv.OpIMul, t.u32, x, t.b.ConstantU32(uint32(stride)))
		}
		if dyn == 0 {
			dyn = x
		} else {
			dyn = t.f.Op(spirv.OpIAdd, t.u32, dyn, x)
		}
	}
	return t.makePointer(base.root, dyn, cst)
}

// toU32 converts an integer value to u32 (sign-extending narrower ones, as GEP does).
func (t *translator) toU32(v air.Value) spirv.ID {
	id := t.value(v)
	switch intBits(v.Type()) {
	case 32:
		return id
	case 1:
		return t.f.Op(spirv.OpSelect, t.u32, id, t.b.ConstantU32(1), t.b.ConstantU32(0))
	case 64:
		return t.f.Op(spirv.OpUConvert, t.u32, id)
	default:
		if b := intBits(v.Type()); oddWidth(b) {
			return t.signExtend32(id, v.Type(), b) // intwidth.go
		}
		return t.f.Op(spirv.OpSConvert, t.u32, id)
	}
}

// wordPtr is a pointer to the 32-bit word at word index idx of r.
func (t *translator) wordPtr(r *root, idx spirv.ID) spirv.ID {
	pt := t.b.TypePointer(r.sc, t.u32)
	if r.wrapped {
		return t.f.Op(spirv.OpAccessChain, pt, r.v, t.b.ConstantU32(0), idx)
	}
	return t.f.Op(spirv.OpAccessChain, pt, r.v, idx)
}

// byteAddr is p's byte offset plus k, and whether it is a compile-time constant.
func (t *translator) byteAddr(p pointer, k uint64) (spirv.ID, int64, bool) {
	if p.dyn == 0 {
		c := p.cst + int64(k)
		return t.b.ConstantU32(uint32(c)), c, true
	}
	if k == 0 {
		return p.off, 0, false
	}
	return t.f.Op(spirv.OpIAdd, t.u32, p.off, t.b.ConstantU32(uint32(k))), 0, false
}

// wordAt returns the word pointer holding byte p+k and the bit shift of
// that byte within the word (a constant or an SSA value).
func (t *translator) wordAt(p pointer, k uint64) (spirv.ID, spirv.ID) {
	addr, c, static := t.byteAddr(p, k)
	if static {
		return t.wordPtr(p.root, t.b.ConstantU32(uint32(c)/4)), t.b.ConstantU32(uint32(c%4) * 8)
	}
	idx := t.f.Op(spirv.OpShiftRightLogical, t.u32, addr, t.b.ConstantU32(2))
	sh := t.f.Op(spirv.OpBitwiseAnd, t.u32, addr, t.b.ConstantU32(3))
	sh = t.f.Op(spirv.OpShiftLeftLogical, t.u32, sh, t.b.ConstantU32(3))
	return t.wordPtr(p.root, idx), sh
}

// checkAligned reports a 32-bit (or wider) access whose address may not be word aligned.
func (t *translator) checkAligned(p pointer, k, align uint64) bool {
	if p.dyn == 0 {
		if (p.cst+int64(k))%4 != 0 {
			t.miss.add(CodeUnhandledInstruction, "unaligned 32-bit memory access")
			return false
		}
		return true
	}
	if align%4 != 0 || k%4 != 0 {
		t.miss.add(CodeUnhandledInstruction, "unaligned 32-bit memory access")
		return false
	}
	return true
}

// load reads a value of type ty at p+k.
func (t *translator) load(p pointer, k uint64, ty air.Type, align uint64) spirv.ID {
	if p.root == nil {
		return t.b.Undef(t.typ(ty))
	}
	switch ty := ty.(type) {
	case *air.IntType, *air.FloatType:
		bits := scalarBits(ty)
		var word spirv.ID
		switch {
		case bits == 32:
			if !t.checkAligned(p, k, align) {
				return t.b.Undef(t.typ(ty))
			}
			wp, _ := t.wordAt(p, k)
			word = t.f.Op(spirv.OpLoad, t.u32, wp)
			if _, ok := ty.(*air.FloatType); ok {
				return t.f.Op(spirv.OpBitcast, t.typ(ty), word)
			}
			return word
		case bits == 64:
			if !t.checkAligned(p, k, align) {
				return t.b.Undef(t.typ(ty))
			}
			lo := t.load(p, k, &air.IntType{Bits: 32}, align)
			hi := t.load(p, k+4, &air.IntType{Bits: 32}, align)
			v2 := t.f.Op(spirv.OpCompositeConstruct, t.b.TypeVector(t.u32, 2), lo, hi)
			return t.f.Op(spirv.OpBitcast, t.typ(ty), v2)
		case bits == 8 || bits == 16 || bits == 1:
			wp, sh := t.wordAt(p, k)
			word = t.f.Op(spirv.OpLoad, t.u32, wp)
			word = t.f.Op(spirv.OpShiftRightLogical, t.u32, word, sh)
			if bits == 1 {
				b := t.f.Op(spirv.OpBitwiseAnd, t.u32, word, t.b.ConstantU32(0xff))
				return t.f.Op(spirv.OpINotEqual, t.b.TypeBool(), b, t.b.ConstantU32(0))
			}
			n := t.f.Op(spirv.OpUConvert, t.b.TypeInt(uint32(bits), false), word)
			if isFloatKind(ty, air.Half) { // a bfloat is its 16 bits already
				return t.f.Op(spirv.OpBitcast, t.typ(ty), n)
			}
			return n
		}
		t.miss.add(CodeUnsupportedType, ty.String())
		return t.b.Undef(t.typ(ty))
	case *air.VectorType:
		es, err := air.AllocSize(ty.Elem)
		if err != nil {
			t.miss.addf(CodeUnsupportedType, "layout of %s", ty)
			return t.b.Undef(t.typ(ty))
		}
		return t.loadElems(p, k, ty, ty.Elem, uint64(ty.Len), es, align)
	case *air.ArrayType:
		es, err := air.AllocSize(ty.Elem)
		if err != nil || ty.Len > 1024 {
			t.miss.addf(CodeUnsupportedType, "load of %s", ty)
			return t.b.Undef(t.typ(ty))
		}
		return t.loadElems(p, k, ty, ty.Elem, ty.Len, es, align)
	case *air.StructType:
		offs, _, err := air.StructLayout(ty)
		if err != nil {
			t.miss.addf(CodeUnsupportedType, "layout of %s", ty)
			return t.b.Undef(t.typ(ty))
		}
		parts := make([]spirv.ID, len(ty.Fields))
		for i, f := range ty.Fields {
			a, _ := air.AlignOf(f)
			parts[i] = t.load(p, k+offs[i], f, a)
		}
		return t.f.Op(spirv.OpCompositeConstruct, t.typ(ty), parts...)
	}
	t.miss.addf(CodeUnsupportedType, "load of %s", ty)
	return t.b.Undef(t.typ(ty))
}

// loadElems loads the n elements of type elem of a vector or array, es
// bytes apart from offset k, and builds the composite ty from them.
func (t *translator) loadElems(p pointer, k uint64, ty, elem air.Type, n, es, align uint64) spirv.ID {
	parts := make([]spirv.ID, n)
	for i := range parts {
		parts[i] = t.load(p, k+uint64(i)*es, elem, min(align, es))
	}
	return t.f.Op(spirv.OpCompositeConstruct, t.typ(ty), parts...)
}

// storeElems stores the n elements of type elem of the vector or array v,
// es bytes apart from offset k.
func (t *translator) storeElems(p pointer, k uint64, elem air.Type, v spirv.ID, n, es, align uint64) {
	et := t.typ(elem)
	for i := uint64(0); i < n; i++ {
		e := t.f.OpWords(spirv.OpCompositeExtract, et, uint32(v), uint32(i))
		t.store(p, k+i*es, elem, e, min(align, es))
	}
}

func scalarBits(ty air.Type) int {
	switch ty := ty.(type) {
	case *air.IntType:
		return ty.Bits
	case *air.FloatType:
		switch ty.Kind {
		case air.Half, air.BFloat:
			return 16
		case air.Float:
			return 32
		case air.Double:
			return 64
		}
	}
	return 0
}

// store writes v (of type ty) at p+k.
func (t *translator) store(p pointer, k uint64, ty air.Type, v spirv.ID, align uint64) {
	if p.root == nil {
		return
	}
	switch ty := ty.(type) {
	case *air.IntType, *air.FloatType:
		bits := scalarBits(ty)
		switch {
		case bits == 32:
			if !t.checkAligned(p, k, align) {
				return
			}
			if _, ok := ty.(*air.FloatType); ok {
				v = t.f.Op(spirv.OpBitcast, t.u32, v)
			}
			wp, _ := t.wordAt(p, k)
			t.f.Emit(spirv.OpStore, uint32(wp), uint32(v))
		case bits == 64:
			if !t.checkAligned(p, k, align) {
				return
			}
			v2 := t.f.Op(spirv.OpBitcast, t.b.TypeVector(t.u32, 2), v)
			for i := uint32(0); i < 2; i++ {
				w := t.f.OpWords(spirv.OpCompositeExtract, t.u32, uint32(v2), i)
				wp, _ := t.wordAt(p, k+uint64(4*i))
				t.f.Emit(spirv.OpStore, uint32(wp), uint32(w))
			}
		case bits == 8 || bits == 16 || bits == 1:
			var w spirv.ID
			switch {
			case bits == 1:
				w = t.f.Op(spirv.OpSelect, t.u32, v, t.b.ConstantU32(1), t.b.ConstantU32(0))
			default:
				if isFloatKind(ty, air.Half) {
					v = t.f.Op(spirv.OpBitcast, t.b.TypeInt(16, false), v)
				}
				w = t.f.Op(spirv.OpUConvert, t.u32, v)
			}
			if bits == 1 {
				bits = 8
			}
			wp, sh := t.wordAt(p, k)
			mask := t.f.Op(spirv.OpShiftLeftLogical, t.u32, t.b.ConstantU32(uint32(1)<<uint(bits)-1), sh)
			keep := t.f.Op(spirv.OpNot, t.u32, mask)
			w = t.f.Op(spirv.OpShiftLeftLogical, t.u32, w, sh)
			t.subWordStore(p.root, wp, keep, w)
		default:
			t.miss.add(CodeUnsupportedType, ty.String())
		}
	case *air.VectorType:
		es, err := air.AllocSize(ty.Elem)
		if err != nil {
			t.miss.addf(CodeUnsupportedType, "layout of %s", ty)
			return
		}
		t.storeElems(p, k, ty.Elem, v, uint64(ty.Len), es, align)
	case *air.ArrayType:
		es, err := air.AllocSize(ty.Elem)
		if err != nil || ty.Len > 1024 {
			t.miss.addf(CodeUnsupportedType, "store of %s", ty)
			return
		}
		t.storeElems(p, k, ty.Elem, v, ty.Len, es, align)
	case *air.StructType:
		offs, _, err := air.StructLayout(ty)
		if err != nil {
			t.miss.addf(CodeUnsupportedType, "layout of %s", ty)
			return
		}
		for i, f := range ty.Fields {
			a, _ := air.AlignOf(f)
			e := t.f.OpWords(spirv.OpCompositeExtract, t.typ(f), uint32(v), uint32(i))
			t.store(p, k+offs[i], f, e, a)
		}
	default:
		t.miss.addf(CodeUnsupportedType, "store of %s", ty)
	}
}

// subWordStore replaces the bits outside keep of the word at wp with bits:
// with two atomics in shared memory (other bytes of the word may belong to
// other threads), with a read-modify-write in private memory.
func (t *translator) subWordStore(r *root, wp, keep, bits spirv.ID) {
	if r.kind == rootBuffer || r.kind == rootWorkgroup {
		scope := t.b.ConstantU32(uint32(spirv.ScopeDevice))
		if r.kind == rootWorkgroup {
			scope = t.b.ConstantU32(uint32(spirv.ScopeWorkgroup))
		}
		sem := t.b.ConstantU32(0)
		t.f.Op(spirv.OpAtomicAnd, t.u32, wp, scope, sem, keep)
		t.f.Op(spirv.OpAtomicOr, t.u32, wp, scope, sem, bits)
		return
	}
	old := t.f.Op(spirv.OpLoad, t.u32, wp)
	old = t.f.Op(spirv.OpBitwiseAnd, t.u32, old, keep)
	old = t.f.Op(spirv.OpBitwiseOr, t.u32, old, bits)
	t.f.Emit(spirv.OpStore, uint32(wp), uint32(old))
}

// wordArray declares a variable of n words in storage class sc (with an optional initializer).
func (t *translator) wordArray(sc spirv.StorageClass, n uint64, init ...spirv.ID) spirv.ID {
	if n == 0 {
		n = 1
	}
	arr := t.b.TypeArray(t.u32, t.b.ConstantU32(uint32(n)), 0)
	pt := t.b.TypePointer(sc, arr)
	if sc == spirv.StorageClassFunction {
		return t.f.Local(pt)
	}
	v := t.b.Variable(pt, sc, init...)
	t.iface = append(t.iface, v)
	return v
}

func (t *translator) allocaRoot(a *air.Alloca) *root {
	size, err := air.AllocSize(a.Elem)
	if err != nil {
		t.miss.addf(CodeUnsupportedType, "alloca of %s", a.Elem)
		return nil
	}
	if a.Count != nil {
		c, ok := a.Count.(*air.ConstInt)
		if !ok {
			t.miss.add(CodeUnhandledInstruction, "alloca with a variable count")
			return nil
		}
		size *= c.Bits
	}
	if size > 1<<16 {
		t.miss.addf(CodeUnhandledInstruction, "alloca of %d bytes", size)
		return nil
	}
	sc := spirv.StorageClassFunction
	if allocaEscapes(a) {
		// A Function variable is visible in its own SPIR-V function only,
		// and a callee reads its pointer parameters' roots directly: an
		// alloca whose address reaches another function is Private, which
		// is per invocation too (recursion is refused, so one copy suffices).
		sc = spirv.StorageClassPrivate
	}
	return &root{kind: rootFunction, sc: sc, v: t.wordArray(sc, (size+3)/4)}
}

// allocaEscapes reports whether a pointer into alloca a (through GEPs,
// casts, phis and selects) is passed to a function with a body or stored
// (a pointer slot a callee may load).
func allocaEscapes(a *air.Alloca) bool {
	if a.Parent == nil || a.Parent.Func == nil {
		return false
	}
	derived := map[air.Value]bool{a: true}
	for changed := true; changed; {
		changed = false
		for _, bl := range a.Parent.Func.Blocks {
			for _, in := range bl.Insts {
				var from []air.Value
				switch in := in.(type) {
				case *air.GEP:
					from = []air.Value{in.Base}
				case *air.Cast:
					from = []air.Value{in.X}
				case *air.Select:
					from = []air.Value{in.X, in.Y}
				case *air.Phi:
					for _, inc := range in.Incoming {
						from = append(from, inc.Value)
					}
				case *air.Store:
					if derived[in.Val] {
						return true
					}
				case *air.Call:
					if f, ok := in.Callee.(*air.Function); ok && !f.IsDeclaration() {
						for _, x := range in.Args {
							if derived[x] {
								return true
							}
						}
					}
				}
				if derived[in] {
					continue
				}
				for _, x := range from {
					if derived[x] {
						derived[in] = true
						changed = true
						break
					}
				}
			}
		}
	}
	return false
}

func (t *translator) globalRoot(g *air.GlobalVariable) *root {
	if t.fcs[g] != nil {
		// Loads of a function constant never get here (fnconst.go); its address escaped.
		t.miss.add(CodeUnsupportedInterface, "address of function constant @"+g.Name)
		return nil
	}
	size, err := air.AllocSize(g.ValueType)
	if err != nil || size > 1<<20 {
		t.miss.addf(CodeUnsupportedType, "global of %s", g.ValueType)
		return nil
	}
	words := (size + 3) / 4
	switch g.AddrSpace {
	case 3:
		return &root{kind: rootWorkgroup, sc: spirv.StorageClassWorkgroup, v: t.wordArray(spirv.StorageClassWorkgroup, words)}
	case 2, 0:
		if size > maxConstantBytes {
			t.miss.addf(CodeUnhandledInstruction, "constant global of more than %d bytes", maxConstantBytes)
			return nil
		}
		if g.Init == nil {
			t.miss.add(CodeUnhandledInstruction, "external global @"+g.Name)
			return nil
		}
		data := make([]byte, words*4)
		if err := constBytes(g.Init, data); err != nil {
			t.miss.add(CodeUnhandledInstruction, "global initializer: "+err.Error())
			return nil
		}
		parts := make([]spirv.ID, words)
		for i := range parts {
			parts[i] = t.b.ConstantU32(uint32(data[4*i]) | uint32(data[4*i+1])<<8 | uint32(data[4*i+2])<<16 | uint32(data[4*i+3])<<24)
		}
		n := words
		if n == 0 {
			n = 1
			parts = []spirv.ID{t.b.ConstantU32(0)}
		}
		arr := t.b.TypeArray(t.u32, t.b.ConstantU32(uint32(n)), 0)
		init := t.b.ConstantComposite(arr, parts...)
		return &root{kind: rootPrivate, sc: spirv.StorageClassPrivate, v: t.wordArray(spirv.StorageClassPrivate, n, init)}
	}
	t.miss.addf(CodeUnhandledInstruction, "global in address space %d", g.AddrSpace)
	return nil
}

// maxConstantBytes is the largest constant global: its initializer is one
// OpConstantComposite, whose word count must fit in 16 bits.
const maxConstantBytes = 60000

// maxAccessBytes is the largest single load or store (one SPIR-V access
// per word: a bigger aggregate would be an unreasonable unrolled copy).
const maxAccessBytes = 16384

// constBytes writes constant c's little-endian bytes into buf.
func constBytes(c air.Constant, buf []byte) error {
	put := func(v uint64, n int) error {
		if n > len(buf) {
			return fmt.Errorf("constant overruns its global")
		}
		for i := 0; i < n; i++ {
			buf[i] = byte(v >> (8 * i))
		}
		return nil
	}
	switch c := c.(type) {
	case *air.ConstInt:
		return put(c.Bits, (c.Typ.Bits+7)/8)
	case *air.ConstFloat:
		n, _ := air.StoreSize(c.Typ)
		return put(c.Bits, int(n))
	case *air.ConstZero, *air.ConstNull, *air.ConstUndef, *air.ConstPoison:
		return nil
	case *air.ConstAggregate:
		var offs []uint64
		switch ty := c.Typ.(type) {
		case *air.StructType:
			o, _, err := air.StructLayout(ty)
			if err != nil {
				return err
			}
			offs = o
		default:
			es, err := air.AllocSize(air.ElemType(ty))
			if err != nil {
				return err
			}
			for i := range c.Elems {
				offs = append(offs, uint64(i)*es)
			}
		}
		for i, e := range c.Elems {
			if i >= len(offs) || offs[i] > uint64(len(buf)) {
				return fmt.Errorf("constant overruns its global")
			}
			if err := constBytes(e, buf[offs[i]:]); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("constant %T", c)
}
