package translate

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// specDecl is what a SpecId decorates: its defining opcode and result type's opcode.
type specDecl struct {
	op, typeOp spirv.Op
	// typeLits are the type's width and signedness; literals the default value.
	typeLits, literals []uint32
}

// specIDs reads the SpecId decorations of an encoded module and what each decorates.
func specIDs(t *testing.T, data []byte) map[uint32]specDecl {
	t.Helper()
	if len(data)%4 != 0 || len(data) < 20 {
		t.Fatalf("module of %d bytes", len(data))
	}
	w := make([]uint32, len(data)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	target := map[uint32]uint32{} // result id -> SpecId
	defs := map[uint32][]uint32{} // result id -> instruction words
	for i := 5; i < len(w); {
		wc := int(w[i] >> 16)
		if wc == 0 || i+wc > len(w) {
			t.Fatalf("bad word count at %d", i)
		}
		in := w[i : i+wc]
		op := spirv.Op(in[0] & 0xffff)
		switch {
		case op == spirv.OpDecorate && wc == 4 && spirv.Decoration(in[2]) == spirv.DecorationSpecId:
			target[in[1]] = in[3]
		case op == spirv.OpTypeBool || op == spirv.OpTypeInt || op == spirv.OpTypeFloat:
			defs[in[1]] = in
		case op == spirv.OpSpecConstant || op == spirv.OpSpecConstantFalse || op == spirv.OpSpecConstantTrue:
			defs[in[2]] = in
		}
		i += wc
	}
	out := map[uint32]specDecl{}
	for id, sid := range target {
		d := defs[id]
		if d == nil {
			t.Fatalf("SpecId %d decorates %%%d, not a scalar spec constant", sid, id)
		}
		var typeOp spirv.Op
		var typeLits []uint32
		if ty := defs[d[1]]; ty != nil {
			typeOp, typeLits = spirv.Op(ty[0]&0xffff), append([]uint32{}, ty[2:]...)
		}
		out[sid] = specDecl{spirv.Op(d[0] & 0xffff), typeOp, typeLits, append([]uint32{}, d[3:]...)}
	}
	return out
}

// TestFunctionConstants checks the lowering of Metal function constants:
// spirv-val accepts the module, the reflection lists them with SpecId
// 100+index, and the SpecId decorations are on spec constants of the
// contract's 32-bit types.
func TestFunctionConstants(t *testing.T) {
	needValidator(t)
	out := translatedFixture(t, "fnconst.ll")
	mustValidate(t, out.SPIRV)
	want := []SpecConstant{
		{ID: 100, Index: 0, Name: "flag", Type: "bool"},
		{ID: 101, Index: 1, Name: "scale", Type: "float"},
		{ID: 103, Index: 3, Name: "pitch", Type: "ushort"},
		{ID: 104, Index: 4, Name: "h", Type: "half"},
		{ID: 105, Index: 5, Name: "delta", Type: "int"},
	}
	if !reflect.DeepEqual(out.Reflection.SpecConstants, want) {
		t.Errorf("spec constants %+v\nwant %+v", out.Reflection.SpecConstants, want)
	}
	got := specIDs(t, out.SPIRV)
	wantDecl := map[uint32]specDecl{
		0:   {spirv.OpSpecConstant, spirv.OpTypeInt, []uint32{32, 0}, []uint32{64}},
		1:   {spirv.OpSpecConstant, spirv.OpTypeInt, []uint32{32, 0}, []uint32{1}},
		2:   {spirv.OpSpecConstant, spirv.OpTypeInt, []uint32{32, 0}, []uint32{1}},
		100: {spirv.OpSpecConstantFalse, spirv.OpTypeBool, []uint32{}, []uint32{}},
		101: {spirv.OpSpecConstant, spirv.OpTypeFloat, []uint32{32}, []uint32{0}},
		103: {spirv.OpSpecConstant, spirv.OpTypeInt, []uint32{32, 0}, []uint32{0}},
		104: {spirv.OpSpecConstant, spirv.OpTypeFloat, []uint32{32}, []uint32{0}},
		105: {spirv.OpSpecConstant, spirv.OpTypeInt, []uint32{32, 1}, []uint32{0}},
	}
	if !reflect.DeepEqual(got, wantDecl) {
		t.Errorf("SpecId decorations %+v\nwant %+v", got, wantDecl)
	}
}

// TestFunctionConstantsRefused checks that what cannot be lowered is a
// missing feature naming the function constant.
func TestFunctionConstantsRefused(t *testing.T) {
	m, err := bitcode.ReadModule(assemble(t, "fnconst_refused.ll"))
	if err != nil {
		t.Fatal(err)
	}
	eps, err := air.EntryPoints(m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Finding{
		"store_fc":  {CodeUnsupportedInterface, "store to function constant @_Z4flag.MTL_FC_INIT_0_b"},
		"vector_fc": {CodeUnsupportedInterface, "function constant @_Z3vec.MTL_FC_INIT_1_Dv4_f of Metal type float4"},
		"wide_fc":   {CodeUnsupportedInterface, "load of i32 from function constant @_Z5pitch.MTL_FC_INIT_2_t"},
		"escape_fc": {CodeUnsupportedInterface, "address of function constant @_Z5pitch.MTL_FC_INIT_2_t"},
	}
	if len(eps) != len(want) {
		t.Fatalf("%d entry points", len(eps))
	}
	for _, ep := range eps {
		_, err := Translate(m, ep)
		var me *MissingError
		if !errors.As(err, &me) {
			t.Errorf("%s: want a MissingError, got %v", ep.Function.Name, err)
			continue
		}
		if w := want[ep.Function.Name]; me.Missing[0] != w {
			t.Errorf("%s: missing %v, want %v first", ep.Function.Name, me.Missing, w)
		}
	}
}

// TestFunctionConstantMetadata breaks !air.function_constants entries on
// purpose: an entry naming no global refuses the module's entry points, a
// malformed or duplicate entry refuses its constant.
func TestFunctionConstantMetadata(t *testing.T) {
	g := func(name string, ty air.Type) *air.GlobalVariable {
		v := &air.GlobalVariable{ValueType: ty}
		v.Name, v.AddrSpace = name, 2
		return v
	}
	i32 := func(v int64) air.Metadata {
		return &air.MDValue{Value: &air.ConstInt{Typ: &air.IntType{Bits: 32}, Bits: uint64(v)}}
	}
	entry := func(gv *air.GlobalVariable, mtype string, index int64) air.Metadata {
		return &air.MDNode{Ops: []air.Metadata{&air.MDValue{Value: gv}, &air.MDString{Value: mtype}, &air.MDString{Value: "n"}, i32(index)}}
	}
	a, b, c, d := g("a", &air.IntType{Bits: 8}), g("b", &air.IntType{Bits: 16}), g("c", &air.IntType{Bits: 32}), g("d", air.FloatTy)
	e, f := g("e", air.HalfTy), g("f", &air.IntType{Bits: 32})
	bad := &air.MDNode{Ops: []air.Metadata{&air.MDValue{Value: a}, i32(0)}}
	m := &air.Module{NamedMD: []*air.NamedMD{{Name: "air.function_constants", Nodes: []air.Metadata{
		entry(b, "ushort", 1), entry(c, "ushort", 2), entry(d, "float", 7), entry(e, "half", 7),
		entry(f, "int", -1), &air.MDNode{Ops: []air.Metadata{&air.MDString{Value: "x"}}},
	}}}}
	fcs, malformed := functionConstants(m)
	if !reflect.DeepEqual(malformed, []string{"air.function_constants entry 5 names no global"}) {
		t.Errorf("malformed %q", malformed)
	}
	wantBad := map[string]string{
		"b": "",
		"c": "function constant @c of Metal type ushort held as i32",
		"d": "function constant index 7 listed twice",
		"e": "function constant index 7 listed twice",
		"f": "function constant @f index -1",
	}
	for gv, fc := range fcs {
		if w, ok := wantBad[gv.Name]; !ok || fc.bad != w {
			t.Errorf("@%s: bad %q, want %q", gv.Name, fc.bad, w)
		}
	}
	m.NamedMD[0].Nodes = []air.Metadata{bad}
	if fcs, _ := functionConstants(m); fcs[a] == nil || fcs[a].bad != "malformed function constant @a" {
		t.Errorf("a malformed entry is not refused: %+v", fcs[a])
	}
}

// TestStaticInits breaks @llvm.global_ctors on purpose: an entry naming a
// declaration (or a function taking arguments) is refused; constructors run
// in priority order.
func TestStaticInits(t *testing.T) {
	fn := func(name string, body bool) *air.Function {
		f := &air.Function{}
		f.Name = name
		if body {
			f.Blocks = []*air.Block{{}}
		}
		return f
	}
	i32 := &air.IntType{Bits: 32}
	entry := func(prio uint64, f *air.Function) air.Constant {
		return &air.ConstAggregate{Elems: []air.Constant{&air.ConstInt{Typ: i32, Bits: prio}, f, &air.ConstNull{}}}
	}
	late, early, decl := fn("late", true), fn("early", true), fn("decl", false)
	g := &air.GlobalVariable{Init: &air.ConstAggregate{Elems: []air.Constant{entry(200, late), entry(100, early), entry(1, decl)}}}
	g.Name = "llvm.global_ctors"
	list, bad := staticInits(&air.Module{Globals: []*air.GlobalVariable{g}})
	if len(list) != 2 || list[0].fn != early || list[1].fn != late {
		t.Errorf("constructors %+v, want early then late", list)
	}
	if !reflect.DeepEqual(bad, []string{"llvm.global_ctors entry"}) {
		t.Errorf("a declaration in llvm.global_ctors is not refused: %q", bad)
	}
}
