package cpuref

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// contractWords is the function-constant contract written out by hand
// (notes: bool 1; float and half (index+1)/4; signed 2+index; unsigned
// 4+index), independent of FunctionConstantWord's code.
var contractWords = []struct {
	index int
	ty    string
	word  uint32
}{
	{0, "bool", 1},
	{7, "bool", 1},
	{0, "float", 0x3e800000}, // 0.25
	{1, "float", 0x3f000000}, // 0.5
	{2, "half", 0x3f400000},  // 0.75
	{0, "int", 2},
	{3, "short", 5},
	{1, "char", 3},
	{0, "uint", 4},
	{5, "ushort", 9},
	{2, "uchar", 6},
}

func TestFunctionConstantWord(t *testing.T) {
	for _, c := range contractWords {
		w, ok := FunctionConstantWord(c.index, c.ty)
		if !ok || w != c.word {
			t.Errorf("FunctionConstantWord(%d, %q) = %#x, %v; the contract says %#x", c.index, c.ty, w, ok, c.word)
		}
	}
	for _, ty := range []string{"float2", "long", "ulong", "bool3", "double", ""} {
		if _, ok := FunctionConstantWord(0, ty); ok {
			t.Errorf("FunctionConstantWord(0, %q) gives a value; the contract has none", ty)
		}
	}
	if _, ok := FunctionConstantWord(-1, "int"); ok {
		t.Error("a negative index gets a value")
	}
}

func TestExactHalf(t *testing.T) {
	for _, c := range []struct {
		f    float32
		bits uint16
		ok   bool
	}{{0.25, 0x3400, true}, {0.75, 0x3a00, true}, {1, 0x3c00, true}, {16384, 0x7400, true}, {0.1, 0, false}, {1e6, 0, false}, {-1, 0, false}} {
		b, ok := exactHalf(c.f)
		if ok != c.ok || b != c.bits {
			t.Errorf("exactHalf(%g) = %#x, %v; want %#x, %v", c.f, b, ok, c.bits, c.ok)
		}
	}
}

// fcFixture is testdata/function_constants.ll.
func fcFixture(t *testing.T) string {
	t.Helper()
	ll, err := os.ReadFile("testdata/function_constants.ll")
	if err != nil {
		t.Fatal(err)
	}
	return string(ll)
}

// TestFunctionConstantsRun runs the fixture and compares every word with
// what the contract says, computed here: bool 3 → 1, float 1 → 0.5, half
// 2 → 0.75, ushort 5 → 9, and 0.5·9 + 1 + 0.75 = 6.25.
func TestFunctionConstantsRun(t *testing.T) {
	needTools(t)
	ll := fcFixture(t)
	res, err := Run(context.Background(), assemble(t, ll), "fc", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []FunctionConstant{
		{Index: 1, Name: "scale", Type: "float", Word: math.Float32bits(0.5)},
		{Index: 2, Name: "bias", Type: "half", Word: math.Float32bits(0.75)},
		{Index: 3, Name: "enabled", Type: "bool", Word: 1},
		{Index: 5, Name: "pitch", Type: "ushort", Word: 9},
	}
	if !reflect.DeepEqual(res.Kernel.FunctionConstants, want) {
		t.Fatalf("FunctionConstants %+v, want %+v", res.Kernel.FunctionConstants, want)
	}
	checkFCBuffer(t, res, [4]uint32{1, math.Float32bits(0.5), 9, math.Float32bits(0.5*9 + 1 + 0.75)})

	// JSON round trip of the interface keeps the constants.
	b, err := json.Marshal(res.Kernel)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"FunctionConstants":[{"Index":1,"Name":"scale","Type":"float","Word":1056964608}`) {
		t.Fatalf("JSON lacks the function constants: %s", b)
	}
	var back Kernel
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.FunctionConstants, want) {
		t.Fatalf("round trip: %+v", back.FunctionConstants)
	}
	var plain Kernel
	if b, _ := json.Marshal(plain); strings.Contains(string(b), "FunctionConstants") {
		t.Fatalf("a kernel without function constants writes them: %s", b)
	}
}

// TestFunctionConstantsFollowIndex breaks the fixture on purpose: moving
// each constant to another index must change what the buffer holds, to the
// contract's value for the new index (so a run that ignored the values, or
// read them from a table of its own, would fail TestFunctionConstantsRun).
func TestFunctionConstantsFollowIndex(t *testing.T) {
	needTools(t)
	ll := fcFixture(t)
	for _, r := range [][2]string{
		{`!"pitch", i32 5`, `!"pitch", i32 6`},
		{`!"scale", i32 1`, `!"scale", i32 7`},
		{`!"bias", i32 2`, `!"bias", i32 4`},
	} {
		if !strings.Contains(ll, r[0]) {
			t.Fatalf("fixture lacks %q", r[0])
		}
		ll = strings.Replace(ll, r[0], r[1], 1)
	}
	res, err := RunText(context.Background(), ll, "fc", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// ushort 6 → 10; float 7 → 2; half 4 → 1.25; 2·10 + 1 + 1.25 = 22.25.
	checkFCBuffer(t, res, [4]uint32{1, math.Float32bits(2), 10, math.Float32bits(22.25)})
}

// checkFCBuffer checks the 16 threads' four words each.
func checkFCBuffer(t *testing.T, res *Result, want [4]uint32) {
	t.Helper()
	if len(res.Outputs) != 1 || len(res.Outputs[0].Bytes) != 256 {
		t.Fatalf("outputs: %d", len(res.Outputs))
	}
	out := res.Outputs[0].Bytes
	for i := range 64 {
		if got := binary.LittleEndian.Uint32(out[4*i:]); got != want[i%4] {
			t.Fatalf("thread %d word %d: %#x, want %#x", i/4, i%4, got, want[i%4])
		}
	}
}

// TestFunctionConstantsSetAside: what the reference cannot give a value
// stays set aside, naming the constant.
func TestFunctionConstantsSetAside(t *testing.T) {
	needTools(t)
	ll := fcFixture(t)
	cases := []struct {
		name, old, new, kind, detail string
	}{
		{"vector type", `!"float", !"scale"`, `!"float2", !"scale"`, KindFunctionConstant, "float2 scale"},
		{"type not stored as expected", `!"ushort", !"pitch"`, `!"uint", !"pitch"`, KindFunctionConstant, "uint pitch"},
		{"unlisted externally initialized global", `!{!10, !11, !12, !13}`, `!{!11, !12, !13}`, KindFunctionConstant, "externally initialized global"},
		{"shared index", `!"pitch", i32 5`, `!"pitch", i32 3`, KindFunctionConstant, "index 3"},
		{"missing global", `ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_5_t, !"ushort"`, `ptr addrspace(2) @nothing, !"ushort"`, KindMalformed, "air.function_constants"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(ll, c.old) {
				t.Fatalf("fixture lacks %q", c.old)
			}
			_, err := RunText(context.Background(), strings.Replace(ll, c.old, c.new, 1), "fc", Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail {
				t.Fatalf("got %v, want %s %q", err, c.kind, c.detail)
			}
		})
	}
}

// TestConditionalArgument: an argument present only under a
// function-constant predicate that is false (the global's initializer: no
// static initializer writes it) does not exist — the reference passes it
// null, so a kernel that reads it anyway goes out of bounds, set aside.
func TestConditionalArgument(t *testing.T) {
	needTools(t)
	md := `!5 = !{i32 2, !"air.function_constant", !6, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_name", !"extra"}
!6 = !{ptr addrspace(2) @pred, !"bool", !"useExtra"}`
	store := "  %w = add i32 %v, 1\n  store i32 %w, ptr addrspace(1) %p, align 4"
	ll := variant("kernel", "@pred = internal addrspace(2) global i8 0, align 1", ", ptr addrspace(1) %extra", store, md)
	res, err := RunText(context.Background(), ll, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Kernel.Predicates(); got != "extra: useExtra=false" || len(res.Kernel.Buffers) != 1 {
		t.Fatalf("predicates %q, buffers %+v", got, res.Kernel.Buffers)
	}
	read := "  %e = load i32, ptr addrspace(1) %extra, align 4\n  store i32 %e, ptr addrspace(1) %p, align 4"
	_, err = RunText(context.Background(), variant("kernel", "@pred = internal addrspace(2) global i8 0, align 1", ", ptr addrspace(1) %extra", read, md), "k", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindOutOfBounds {
		t.Fatalf("reading the absent buffer: %v", err)
	}
}

// TestNormalizePredicate: the i8 form is x != 0; other forms stay set aside.
func TestNormalizePredicate(t *testing.T) {
	def, err := normalizePredicate(declaration{Name: "air.normalize_function_constant_predicate.i8", Ret: "i8", Params: []string{"i8"}})
	if err != nil || !strings.Contains(def, "icmp ne i8 %x, 0") || !strings.Contains(def, "zext i1 %c to i8") {
		t.Fatalf("%v\n%s", err, def)
	}
	_, err = normalizePredicate(declaration{Name: "air.normalize_function_constant_predicate.i32", Ret: "i32", Params: []string{"i32"}})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindFunctionConstant || nj.Detail != "air.normalize_function_constant_predicate.i32" {
		t.Fatalf("got %v", err)
	}
}
