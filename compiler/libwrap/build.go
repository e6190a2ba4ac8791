package libwrap

import (
	"strconv"

	"github.com/airpipe/airpipe/compiler/air"
)

var (
	i1  = &air.IntType{Bits: 1}
	i8  = &air.IntType{Bits: 8}
	i32 = &air.IntType{Bits: 32}
)

func cint(t *air.IntType, v uint64) *air.ConstInt { return &air.ConstInt{Typ: t, Bits: v} }

func mdInt(v uint64) air.Metadata          { return &air.MDValue{Value: cint(i32, v)} }
func mdStr(s string) air.Metadata          { return &air.MDString{Value: s} }
func node(ops ...air.Metadata) *air.MDNode { return &air.MDNode{Ops: ops} }

// builder appends instructions to the wrapper's one block.
type builder struct {
	b *air.Block
}

func (b *builder) add(in air.Instruction, name string) air.Instruction {
	c := in.Common()
	c.Parent = b.b
	if air.HasResult(in) && name != "" {
		c.Name = name
	}
	b.b.Insts = append(b.b.Insts, in)
	return in
}

// addr is ptr + (tid × stride + off) bytes.
func (b *builder) addr(ptr, tid air.Value, stride, off uint64, name string) air.Value {
	var idx air.Value = b.add(&air.BinOp{InstBase: air.InstBase{Typ: i32}, Op: air.OpMul, X: tid, Y: cint(i32, stride)}, name+".base")
	if off != 0 {
		idx = b.add(&air.BinOp{InstBase: air.InstBase{Typ: i32}, Op: air.OpAdd, X: idx, Y: cint(i32, off)}, name+".off")
	}
	return b.add(&air.GEP{InstBase: air.InstBase{Typ: ptr.Type()}, SourceElem: i8, Base: ptr, Indices: []air.Value{idx}, InBounds: true}, name+".ptr")
}

// load reads a t from p; an i1 is read as a byte and compared with 0.
func (b *builder) load(t air.Type, p air.Value, align uint64, name string) air.Value {
	if it, ok := t.(*air.IntType); ok && it.Bits == 1 {
		v := b.add(&air.Load{InstBase: air.InstBase{Typ: i8}, Ptr: p, Align: 1}, name+".byte")
		return b.add(&air.Cmp{InstBase: air.InstBase{Typ: i1}, Pred: 33, X: v, Y: cint(i8, 0)}, name)
	}
	return b.add(&air.Load{InstBase: air.InstBase{Typ: t}, Ptr: p, Align: align}, name)
}

// store writes v to p; an i1 is written as the byte 0 or 1.
func (b *builder) store(v, p air.Value, align uint64) {
	if it, ok := v.Type().(*air.IntType); ok && it.Bits == 1 {
		v = b.add(&air.Cast{InstBase: air.InstBase{Typ: i8}, Op: air.OpZExt, X: v}, "")
		align = 1
	}
	b.add(&air.Store{InstBase: air.InstBase{Typ: air.Void}, Val: v, Ptr: p, Align: align}, "")
}

// build makes the wrapped module and the wrapper's entry point.
func build(m *air.Module, fn *air.Function, lay Layout) (*air.Module, air.EntryPoint) {
	dev := &air.PointerType{AddrSpace: 1}
	params := []air.Type{dev, dev}
	pointers := 0
	for _, s := range lay.Slots {
		if s.Role == "device-pointer" {
			params = append(params, fn.Sig.Params[s.Param])
			pointers++
		}
	}
	// Texture and sampler handles follow the pointers (handles.go).
	handleArg := map[int]int{}
	var handleNames []string
	for _, s := range lay.Slots {
		if s.Role == "texture" || s.Role == "sampler" {
			handleArg[s.Param] = len(params)
			params = append(params, fn.Sig.Params[s.Param])
			handleNames = append(handleNames, s.Role+strconv.Itoa(s.Buffer))
		}
	}
	params = append(params, i32)
	sig := &air.FunctionType{Ret: air.Void, Params: params}
	w := &air.Function{Sig: sig, Attrs: air.AttributeList{Group: -1}}
	w.Name = Entry
	w.SetPointerType(&air.PointerType{Elem: sig})
	names := []string{"params", "results"}
	for k := range pointers {
		names = append(names, "pointer"+strconv.Itoa(k))
	}
	names = append(names, handleNames...)
	names = append(names, "tid")
	for i, t := range params {
		w.Args = append(w.Args, &air.Argument{Typ: t, Name: names[i], Index: i, Func: w})
	}
	blk := &air.Block{Name: "entry", Func: w}
	w.Blocks = []*air.Block{blk}
	b := &builder{b: blk}
	in, out, tid := w.Args[0], w.Args[1], w.Args[len(w.Args)-1]

	args := make([]air.Value, len(fn.Sig.Params))
	type slotVar struct {
		s   Slot
		ptr air.Value
		t   air.Type
	}
	var threadVars []slotVar
	pointer := 0
	for _, s := range lay.Slots {
		if s.Param < 0 {
			continue
		}
		t := fn.Sig.Params[s.Param]
		name := "arg" + strconv.Itoa(s.Param)
		switch s.Role {
		case "value":
			a, _ := alignOf(t)
			p := b.addr(in, tid, lay.ParamStride, s.Offset, name)
			args[s.Param] = b.load(t, p, a, name)
		case "device-pointer":
			args[s.Param] = b.addr(w.Args[2+pointer], tid, PointerStride, 0, name)
			pointer++
		case "texture", "sampler":
			args[s.Param] = w.Args[handleArg[s.Param]]
		case "thread-pointer":
			elem := pointee(fn, s.Param, t.(*air.PointerType))
			a, _ := alignOf(elem)
			slotPtr := &air.PointerType{Elem: elem}
			v := b.add(&air.Alloca{InstBase: air.InstBase{Typ: slotPtr}, Elem: elem, Count: cint(i32, 1), Align: a}, name+".slot")
			p := b.addr(in, tid, lay.ParamStride, s.Offset, name)
			b.store(b.load(elem, p, a, name+".init"), v, a)
			args[s.Param] = v
			threadVars = append(threadVars, slotVar{s, v, elem})
		}
	}
	// Allocas lead the block, as LLVM front ends place them.
	var allocas, rest []air.Instruction
	for _, in := range blk.Insts {
		if _, ok := in.(*air.Alloca); ok {
			allocas = append(allocas, in)
		} else {
			rest = append(rest, in)
		}
	}
	blk.Insts = append(allocas, rest...)
	call := &air.Call{InstBase: air.InstBase{Typ: fn.Sig.Ret}, Callee: fn, Sig: fn.Sig, Args: args, CallingConv: fn.CallingConv, Attrs: air.AttributeList{Group: -1}}
	res := b.add(call, "result")
	for _, s := range lay.Slots {
		if s.Role == "result" {
			a, _ := alignOf(fn.Sig.Ret)
			b.store(res, b.addr(out, tid, lay.ResultStride, s.Offset, "result"), a)
		}
	}
	for _, tv := range threadVars {
		a, _ := alignOf(tv.t)
		name := "arg" + strconv.Itoa(tv.s.Param) + ".final"
		v := b.load(tv.t, tv.ptr, a, name)
		b.store(v, b.addr(out, tid, lay.ResultStride, tv.s.OutOffset, name), a)
	}
	b.add(&air.Ret{InstBase: air.InstBase{Typ: air.Void}}, "")

	// The entry point's metadata: the records' buffers, the pointer
	// buffers, the thread's position.
	buffer := func(index int, access, name, typeName string, size, align uint64, space int) air.Metadata {
		return node(mdInt(uint64(index)), mdStr("air.buffer"), mdStr("air.location_index"), mdInt(uint64(index)), mdInt(1),
			mdStr(access), mdStr("air.address_space"), mdInt(uint64(space)),
			mdStr("air.arg_type_size"), mdInt(size), mdStr("air.arg_type_align_size"), mdInt(align),
			mdStr("air.arg_type_name"), mdStr(typeName), mdStr("air.arg_name"), mdStr(name))
	}
	argMD := []air.Metadata{
		buffer(ParamBuffer, "air.read", "params", "airpipe.params", lay.ParamStride, lay.ParamAlign, 1),
		buffer(ResultBuffer, "air.read_write", "results", resultTypeName(fn.Sig.Ret, lay), lay.ResultStride, lay.ResultAlign, 1),
	}
	pointer = 0
	for _, s := range lay.Slots {
		if s.Role != "device-pointer" {
			continue
		}
		p := fn.Sig.Params[s.Param].(*air.PointerType)
		access := "air.read_write"
		if p.AddrSpace == 2 {
			access = "air.read"
		}
		size, align := uint64(4), uint64(4)
		typeName := "airpipe.pointer"
		if e := pointee(fn, s.Param, p); e != nil {
			if sz, err := allocSize(e); err == nil {
				size = sz
			}
			if al, err := alignOf(e); err == nil {
				align = al
			}
			typeName = metalName(e)
		}
		argMD = append(argMD, buffer(s.Buffer, access, "pointer"+strconv.Itoa(pointer), typeName, size, align, p.AddrSpace))
		pointer++
	}
	for _, s := range lay.Slots {
		if n, ok := handleArg[s.Param]; ok {
			argMD = append(argMD, handleMD(n, s, names[n]))
		}
	}
	argMD = append(argMD, node(mdInt(uint64(len(params)-1)), mdStr("air.thread_position_in_grid"), mdStr("air.arg_type_name"), mdStr("uint"), mdStr("air.arg_name"), mdStr("tid")))
	kernelNode := node(&air.MDValue{Value: w}, node(), node(argMD...))

	nm := *m
	nm.Functions = append(append([]*air.Function(nil), m.Functions...), w)
	nm.NamedMD = nil
	added := false
	for _, n := range m.NamedMD {
		if n.Name == "air.kernel" {
			n = &air.NamedMD{Name: n.Name, Nodes: append(append([]air.Metadata(nil), n.Nodes...), kernelNode)}
			added = true
		}
		nm.NamedMD = append(nm.NamedMD, n)
	}
	if !added {
		nm.NamedMD = append(nm.NamedMD, &air.NamedMD{Name: "air.kernel", Nodes: []air.Metadata{kernelNode}})
	}
	ep := air.EntryPoint{Stage: air.Kernel, Function: w}
	if eps, err := air.EntryPoints(&nm); err == nil {
		for _, e := range eps {
			if e.Function == w {
				ep = e
			}
		}
	}
	return &nm, ep
}

// resultTypeName is the result buffer's air.arg_type_name: the Metal name
// of the result when the record holds only it, or of the one scalar type
// all its lanes have (a struct of floats: "float"), so that float lanes are
// compared as floats; else "airpipe.results".
func resultTypeName(ret air.Type, lay Layout) string {
	for _, s := range lay.Slots {
		if s.Role == "thread-pointer" {
			return "airpipe.results"
		}
	}
	if _, void := ret.(*air.VoidType); void {
		return "airpipe.results"
	}
	if name := metalName(ret); name != "airpipe.record" {
		return name
	}
	if s := uniformScalar(ret); s != nil {
		return metalName(s)
	}
	return "airpipe.results"
}

// uniformScalar is the one scalar type every leaf of an aggregate has (a
// struct of floats and float vectors: float), nil when they differ.
func uniformScalar(t air.Type) air.Type {
	var leaves []air.Type
	var walk func(air.Type)
	walk = func(t air.Type) {
		switch t := t.(type) {
		case *air.StructType:
			for _, f := range t.Fields {
				walk(f)
			}
		case *air.ArrayType:
			walk(t.Elem)
		case *air.VectorType:
			walk(t.Elem)
		default:
			leaves = append(leaves, t)
		}
	}
	walk(t)
	if len(leaves) == 0 {
		return nil
	}
	for _, l := range leaves[1:] {
		if l.String() != leaves[0].String() {
			return nil
		}
	}
	return leaves[0]
}

// metalName is the Metal spelling of a scalar or vector type ("float4",
// "half", "int2", "bool"), "airpipe.record" for anything else.
func metalName(t air.Type) string {
	base := func(t air.Type) string {
		switch t := t.(type) {
		case *air.FloatType:
			switch t.Kind {
			case air.Half:
				return "half"
			case air.BFloat:
				return "bfloat"
			case air.Float:
				return "float"
			case air.Double:
				return "double"
			}
		case *air.IntType:
			switch t.Bits {
			case 1:
				return "bool"
			case 8:
				return "char"
			case 16:
				return "short"
			case 32:
				return "int"
			case 64:
				return "long"
			}
		}
		return ""
	}
	if v, ok := t.(*air.VectorType); ok {
		if s := base(v.Elem); s != "" && s != "bool" {
			return s + strconv.Itoa(v.Len)
		}
		return "airpipe.record"
	}
	if s := base(t); s != "" {
		return s
	}
	return "airpipe.record"
}
