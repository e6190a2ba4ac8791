package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"
)

// siModule is a module whose static initializer has body, with function
// constants flag (bool, index 0), count (uint, index 1) and level (int,
// index 2), and globals @a, @b, @c of i8, i32 and i16.
func siModule(body string) string {
	return `@_Z4flag.MTL_FC_INIT_0_b = internal addrspace(2) externally_initialized constant i8 undef, align 1
@_Z5count.MTL_FC_INIT_1_j = internal addrspace(2) externally_initialized constant i32 undef, align 4
@_Z5level.MTL_FC_INIT_2_i = internal addrspace(2) externally_initialized constant i32 undef, align 4
@a = internal addrspace(2) global i8 0, align 1
@b = internal addrspace(2) global i32 7, align 4
@c = internal addrspace(2) global i16 undef, align 2
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
define internal void @init() section "air.static_init" {
` + body + `
  ret void
}
!air.function_constants = !{!1, !2, !3}
!1 = !{ptr addrspace(2) @_Z4flag.MTL_FC_INIT_0_b, !"bool", !"flag", i32 0, i1 true}
!2 = !{ptr addrspace(2) @_Z5count.MTL_FC_INIT_1_j, !"uint", !"count", i32 1, i1 true}
!3 = !{ptr addrspace(2) @_Z5level.MTL_FC_INIT_2_i, !"int", !"level", i32 2, i1 true}
`
}

// TestStaticInitEval evaluates initializer bodies with the contract's values
// (flag true; count uint 1 → 5; level int 2 → 4), written out by hand here.
func TestStaticInitEval(t *testing.T) {
	const loads = `  %f = load i8, ptr addrspace(2) @_Z4flag.MTL_FC_INIT_0_b, align 1
  %n = load i32, ptr addrspace(2) @_Z5count.MTL_FC_INIT_1_j, align 4
  %l = load i32, ptr addrspace(2) @_Z5level.MTL_FC_INIT_2_i, align 4
`
	cases := []struct {
		name, body, global string
		want               uint64
		unknown            string // a substring of the reason, when unknown
	}{
		{"initializer only", ``, "b", 7, ""},
		{"undef initializer", ``, "c", 0, "no integer initializer"},
		{"bool copied", loads + "  store i8 %f, ptr addrspace(2) @a, align 1", "a", 1, ""},
		{"uint value", loads + "  store i32 %n, ptr addrspace(2) @b, align 4", "b", 5, ""},
		{"icmp ugt", loads + "  %x = icmp ugt i32 %n, 4\n  %y = zext i1 %x to i8\n  store i8 %y, ptr addrspace(2) @a", "a", 1, ""},
		{"icmp eq false", loads + "  %x = icmp eq i32 %l, 3\n  %y = zext i1 %x to i8\n  store i8 %y, ptr addrspace(2) @a", "a", 0, ""},
		{"icmp slt signed", "  %x = icmp slt i32 -1, 0\n  %y = zext i1 %x to i8\n  store i8 %y, ptr addrspace(2) @a", "a", 1, ""},
		{"icmp ult unsigned", "  %x = icmp ult i32 -1, 0\n  %y = zext i1 %x to i8\n  store i8 %y, ptr addrspace(2) @a", "a", 0, ""},
		{"normalize and xor", loads + "  %p = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %f) #1\n  %q = xor i8 %p, 1\n  store i8 %q, ptr addrspace(2) @a", "a", 0, ""},
		{"and of icmps", loads + "  %x = icmp ne i8 %f, 0\n  %y = icmp ult i32 %l, %n\n  %z = and i1 %x, %y\n  %w = zext i1 %z to i8\n  store i8 %w, ptr addrspace(2) @a", "a", 1, ""},
		{"select", loads + "  %x = icmp eq i32 %n, 5\n  %s = select i1 %x, i32 %l, i32 %n\n  store i32 %s, ptr addrspace(2) @b", "b", 4, ""},
		{"arithmetic", loads + "  %t = trunc i32 %n to i16\n  %u = add i16 %t, 7\n  %v = mul i16 %u, %t\n  %w = lshr i16 %v, 3\n  store i16 %w, ptr addrspace(2) @c", "c", 7, ""}, // (5+7)·5 = 60, >> 3 = 7
		{"urem", loads + "  %r = urem i32 %n, %l\n  store i32 %r, ptr addrspace(2) @b", "b", 1, ""},
		{"sext", "  %s = sext i8 -2 to i32\n  store i32 %s, ptr addrspace(2) @b", "b", 0xfffffffe, ""},
		{"wrapping add", "  %s = add i8 -1, 2\n  store i8 %s, ptr addrspace(2) @a", "a", 1, ""},
		{"add nuw overflow is poison", "  %s = add nuw i8 -1, 2\n  store i8 %s, ptr addrspace(2) @a", "a", 0, "overflow"},
		{"division by zero", loads + "  %r = urem i32 %n, 0\n  store i32 %r, ptr addrspace(2) @b", "b", 0, "division by zero"},
		{"shift too far", "  %s = shl i8 1, 8\n  store i8 %s, ptr addrspace(2) @a", "a", 0, "shift by the width"},
		{"later store wins", "  store i8 3, ptr addrspace(2) @a\n  store i8 4, ptr addrspace(2) @a", "a", 4, ""},
		{"is_function_constant_defined", "  %d = tail call i1 @air.is_function_constant_defined(ptr addrspace(2) nocapture @_Z5count.MTL_FC_INIT_1_j) #1\n  %e = zext i1 %d to i8\n  store i8 %e, ptr addrspace(2) @a", "a", 1, ""},
		{"unknown instruction", "  %x = fcmp ogt float 1.0, 0.0\n  %y = zext i1 %x to i8\n  store i8 %y, ptr addrspace(2) @a", "a", 0, "static initializer instruction fcmp"},
		{"other call clobbers", "  store i8 1, ptr addrspace(2) @a\n  call void @other()", "a", 0, "static initializer calls @other"},
		{"other call clobbers unwritten", "  call void @other()", "b", 0, "static initializer calls @other"},
		{"store after clobber", "  call void @other()\n  store i8 1, ptr addrspace(2) @a", "a", 1, ""},
		{"branch", "  store i8 1, ptr addrspace(2) @a\n  br label %next\nnext:\n  store i8 0, ptr addrspace(2) @a", "a", 0, "static initializer instruction br"},
		{"float constant", "  %x = load float, ptr addrspace(2) @_Z5count.MTL_FC_INIT_1_j\n  store float %x, ptr addrspace(2) @c", "c", 0, "a value of type float"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := parseText(siModule(c.body))
			v := runStaticInit(tm).global(tm, c.global)
			switch {
			case c.unknown != "" && !strings.Contains(v.unknown, c.unknown):
				t.Fatalf("@%s = %+v, want unknown (%s)", c.global, v, c.unknown)
			case c.unknown == "" && (v.unknown != "" || v.v != c.want):
				t.Fatalf("@%s = %+v, want %d", c.global, v, c.want)
			}
		})
	}
}

// conditionalFixture is testdata/conditional.ll, with each replacement
// made (each must be found).
func conditionalFixture(t *testing.T, repl ...string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/conditional.ll")
	if err != nil {
		t.Fatal(err)
	}
	ll := string(b)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(ll, repl[i]) {
			t.Fatalf("fixture lacks %q", repl[i])
		}
		ll = strings.ReplaceAll(ll, repl[i], repl[i+1])
	}
	return ll
}

// uintPath swaps the predicates and the kernel's branch: the uint
// arguments exist and the kernel reads them.
var uintPath = []string{
	"store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0", "store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0",
	"store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1", "store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1",
	"br i1 %isF, label %float, label %uint", "br i1 %isF, label %uint, label %float",
}

// TestConditionalArguments runs the fixture both ways: the predicates the
// static initializer computes decide which texture and buffer exist, and
// the words written are the present ones' (texel x of texture 0 of its
// kind; word i of buffer 1, plus one on the uint path).
func TestConditionalArguments(t *testing.T) {
	needTools(t)
	for _, c := range []struct {
		name       string
		ll         string
		predicates string
		kind       byte
		plus       uint32
	}{
		{"float path", conditionalFixture(t), "inF: isFloat=true, inU: isUint=false, srcF: isFloat=true, srcU: isUint=false", 'f', 0},
		{"uint path", conditionalFixture(t, uintPath...), "inF: isFloat=false, inU: isUint=true, srcF: isFloat=false, srcU: isUint=true", 'u', 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := RunText(context.Background(), c.ll, "pick", Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := res.Kernel
			if got := k.Predicates(); got != c.predicates {
				t.Fatalf("predicates %q, want %q", got, c.predicates)
			}
			if len(k.Textures) != 1 || k.Textures[0].Kind != c.kind || k.Textures[0].Index != 0 {
				t.Fatalf("textures %+v, want one of kind %c at 0", k.Textures, c.kind)
			}
			if len(k.Buffers) != 2 || k.Buffers[1].Index != 1 || k.Buffers[0].Index != 0 {
				t.Fatalf("buffers %+v", k.Buffers)
			}
			if ph := k.Placeholders(); len(ph) != 0 {
				t.Fatalf("placeholders %+v where present arguments hold every slot", ph)
			}
			var in, out []byte
			for i, d := range res.Inputs {
				if d.Index == 1 {
					in = d.Bytes
				}
				if d.Index == 0 {
					out = res.Outputs[i].Bytes
				}
			}
			texel := TexelWords(0, c.kind)[0]
			for i := range 16 {
				w0 := binary.LittleEndian.Uint32(out[8*i:])
				w1 := binary.LittleEndian.Uint32(out[8*i+4:])
				if want := binary.LittleEndian.Uint32(in[4*i:]) + c.plus; w0 != texel || w1 != want {
					t.Fatalf("thread %d wrote %#x %#x, want %#x %#x", i, w0, w1, texel, want)
				}
			}
			if !strings.Contains(res.LL, "@airpipe_check_predicates") {
				t.Fatal("the host module does not check the predicates")
			}
		})
	}
}

// TestConditionalArgumentsSetAside: what the reference cannot judge is
// named.
func TestConditionalArgumentsSetAside(t *testing.T) {
	needTools(t)
	cases := []struct {
		name, kind, detail string
		repl               []string
	}{
		// Both predicates always true: no function constant the search (fcsearch.go) could vary.
		{"both predicates hold", KindFunctionConstant, "air.function_constant arguments sharing texture",
			[]string{"store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0", "store i8 1, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0",
				"store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1", "store i8 1, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1"}},
		// Both predicates useFloat: the search turns it false, so neither texture exists, and
		// the kernel's uint path reads the absent one.
		{"both predicates one bool", KindTexture, "texture operand",
			[]string{"store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1", "store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1"}},
		{"predicate not evaluated", KindFunctionConstant, "predicate: static initializer calls @other",
			[]string{"  ret void\n}\n\ndefine void @pick", "  call void @other()\n  ret void\n}\ndeclare void @other()\n\ndefine void @pick"}},
		{"predicate not bool", KindFunctionConstant, "air.function_constant predicate of type int",
			[]string{`!"bool", !"isUint"`, `!"int", !"isUint"`}},
		// The kernel reads the texture that does not exist: the reference passed nothing.
		{"absent texture read", KindTexture, "texture operand",
			[]string{"br i1 %isF, label %float, label %uint", "br i1 %isF, label %uint, label %float"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := RunText(context.Background(), conditionalFixture(t, c.repl...), "pick", Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail {
				t.Fatalf("got %v, want %s %q", err, c.kind, c.detail)
			}
		})
	}
}

// TestPredicateCheckCatchesInversion plants a fault in the evaluation (every
// predicate inverted): the host module's own constructors disagree, and the
// run fails naming the predicate instead of binding the other arguments.
func TestPredicateCheckCatchesInversion(t *testing.T) {
	needTools(t)
	invertPredicates = true
	defer func() { invertPredicates = false }()
	_, err := RunText(context.Background(), conditionalFixture(t), "pick", Options{})
	var nj *NotJudgeableError
	if err == nil || errors.As(err, &nj) || !strings.Contains(err.Error(), "predicate isFloat false, the reference's evaluation true") && !strings.Contains(err.Error(), "predicate isFloat true, the reference's evaluation false") {
		t.Fatalf("inverted predicates: %v", err)
	}
}

// TestConditionalOutput: a render target under a false predicate is no
// output; one under a true predicate is.
func TestConditionalOutput(t *testing.T) {
	ll := `@p_on = internal addrspace(2) global i8 1, align 1
@p_off = internal addrspace(2) global i8 0, align 1
define <{ <4 x float>, <4 x float> }> @f(<4 x float> %pos) {
  ret <{ <4 x float>, <4 x float> }> zeroinitializer
}
!air.fragment = !{!0}
!0 = !{ptr @f, !1, !5}
!1 = !{!2, !3}
!2 = !{!"air.function_constant", !6, !"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4", !"air.arg_name", !"color0"}
!3 = !{!"air.function_constant", !7, !"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"float4", !"air.arg_name", !"color1"}
!5 = !{!8}
!6 = !{ptr addrspace(2) @p_on, !"bool", !"on"}
!7 = !{ptr addrspace(2) @p_off, !"bool", !"off"}
!8 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
`
	k, err := inspect(parseText(ll), "f")
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Targets) != 1 || k.Targets[0].Index != 0 || k.Targets[0].Field != 0 {
		t.Fatalf("targets %+v, want render target 0 alone", k.Targets)
	}
	if got := k.Predicates(); got != "color0: on=true, color1: off=false" {
		t.Fatalf("predicates %q", got)
	}
}

// TestAbsentAndPlaceholders: an absent argument is known by its slot and
// name; a slot only absent arguments declare gets one placeholder, a
// texture the device can make chosen over one it cannot.
func TestAbsentAndPlaceholders(t *testing.T) {
	k := &Kernel{
		Buffers: []Buffer{{Index: 0}},
		Conditional: []ConditionalArgument{
			{Name: "ms", Role: "air.texture", Index: 0, Holds: false},
			{Name: "flat", Role: "air.texture", Index: 0, Dim: "2d", Kind: 'f', Holds: false},
			{Name: "arr", Role: "air.texture", Index: 0, Dim: "2d_array", Kind: 'f', Holds: false},
			{Name: "idx8", Role: "air.buffer", Index: 0, Holds: false},
			{Name: "idx16", Role: "air.buffer", Index: 2, Holds: false},
			{Name: "on", Role: "air.buffer", Index: 3, Holds: true},
			{Name: "color1", Role: "air.render_target", Index: 1, Output: true},
		},
	}
	if !k.Absent("air.texture 0", "arr") || k.Absent("air.texture 1", "arr") || k.Absent("air.buffer 3", "on") || k.Absent("air.render_target 1", "color1") {
		t.Fatal("Absent misjudges")
	}
	ph := k.Placeholders()
	if len(ph) != 2 || ph[0].Name != "flat" || ph[1].Name != "idx16" {
		t.Fatalf("placeholders %+v, want flat (texture 0) and idx16 (buffer 2; buffer 0 is held)", ph)
	}
}
