package cpuref

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needTools skips a test when the LLVM tools or the C compiler are absent.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"llvm-dis-19", "llc-19", "opt-19", "cc", "ld"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the reference cannot run here", tool)
		}
	}
}

// assemble turns a fixture .ll into bitcode with llvm-as-19.
func assemble(t *testing.T, ll string) []byte {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip("llvm-as-19 is not installed")
	}
	cmd := exec.Command("llvm-as-19", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(ll)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("llvm-as-19: %v", err)
	}
	return out
}

func TestPattern(t *testing.T) {
	b := Pattern(0, 4)
	if b[0] != 13 || b[1] != 20 || b[2] != 27 || b[3] != 34 {
		t.Fatalf("buffer 0 starts % x, want seed 003's (i*7+13)&0xff: 0d 14 1b 22", b)
	}
	if string(Pattern(1, 64)) == string(Pattern(0, 64)) || string(Pattern(2, 64)) == string(Pattern(1, 64)) {
		t.Fatal("two buffers start alike: a lowering that swapped them would pass")
	}
}

// TestAffine runs the fixture kernel and checks every output word against
// an answer computed here, from the pattern, by Go.
func TestAffine(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile("testdata/affine.ll")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), assemble(t, string(ll)), "affine", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outputs) != 3 || res.Outputs[1].Index != 1 {
		t.Fatalf("outputs %d, want buffers 0, 1, 2", len(res.Outputs))
	}
	in, out, pos := res.Inputs[0].Bytes, res.Outputs[1].Bytes, res.Outputs[2].Bytes
	orig := res.Inputs[1].Bytes
	for i := 0; i < len(out)/4; i++ {
		got := binary.LittleEndian.Uint32(out[4*i:])
		want := binary.LittleEndian.Uint32(orig[4*i:])
		if i < 4 { // thread_position_in_grid.x runs 0..3
			v := math.Float32frombits(binary.LittleEndian.Uint32(in[4*i:]))
			want = math.Float32bits(v*2 + 1)
		}
		if got != want {
			t.Fatalf("out word %d: got %#x want %#x", i, got, want)
		}
	}
	// pos[y*4+x] = (x, max(tid.y*16+tid.x, x)) over 2×2 groups of 2×2 threads.
	for y := range 4 {
		for x := range 4 {
			i := y*4 + x
			tid := uint32(y%2*16 + x%2)
			want := [2]uint32{uint32(x), max(tid, uint32(x))}
			got := [2]uint32{binary.LittleEndian.Uint32(pos[8*i:]), binary.LittleEndian.Uint32(pos[8*i+4:])}
			if got != want {
				t.Fatalf("pos[%d] (thread %d,%d): got %v want %v", i, x, y, got, want)
			}
		}
	}
	if string(pos[8*16:]) != string(res.Inputs[2].Bytes[8*16:]) {
		t.Fatal("pos: words no thread writes changed")
	}
}

// variant writes a one-buffer kernel around body, with extra module text.
func variant(stage, decls, params, body, extraMD string) string {
	return `source_filename = "v"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"
` + decls + `
define void @k(ptr addrspace(1) %out, i32 %gid` + params + `) {
entry:
  %idx = zext i32 %gid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  %v = load i32, ptr addrspace(1) %p, align 4
` + body + `
  ret void
}
!air.` + stage + ` = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4` + extraRef(extraMD) + `}
` + extraMD + `
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.thread_position_in_grid"}
`
}

func extraRef(md string) string {
	if strings.HasPrefix(md, "!5 =") {
		return ", !5"
	}
	return ""
}

// TestNotJudgeable makes the reference meet each thing it cannot run and
// checks that it says so, with the right kind, instead of answering.
func TestNotJudgeable(t *testing.T) {
	needTools(t)
	cases := []struct {
		name, kind, ll string
	}{
		{"texture argument", KindTexture, variant("kernel", "", ", ptr addrspace(1) %tex", "", "!5 = !{i32 2, !\"air.texture\", !\"air.location_index\", i32 0, i32 1, !\"air.read\"}")},
		{"simdgroup barrier without a SIMD width", KindSIMDGroup, variant("kernel", "declare void @air.simdgroup.barrier(i32, i32)", "", "  call void @air.simdgroup.barrier(i32 2, i32 1)", "")},
		{"approximate op", KindApproximate, variant("kernel", "declare float @air.fast_sqrt.f32(float)", "", "  %f = bitcast i32 %v to float\n  %s = call float @air.fast_sqrt.f32(float %f)\n  store float %s, ptr addrspace(1) %p", "")},
		{"length", KindApproximate, variant("kernel", "declare float @air.length.v2f32(<2 x float>)", "", "  %d = call float @air.length.v2f32(<2 x float> zeroinitializer)\n  store float %d, ptr addrspace(1) %p", "")},
		{"unknown op", KindUnknownOp, variant("kernel", "declare i32 @air.frobnicate.i32(i32)", "", "  %f = call i32 @air.frobnicate.i32(i32 %v)\n  store i32 %f, ptr addrspace(1) %p", "")},
		{"external threadgroup global", KindThreadgroupMemory, variant("kernel", "@tg = external addrspace(3) global [4 x i32], align 4", "", "  store i32 %v, ptr addrspace(3) @tg", "")},
		{"threadgroup argument", KindThreadgroupMemory, variant("kernel", "", ", ptr addrspace(3) %tg", "", "!5 = !{i32 2, !\"air.threadgroup\", !\"air.location_index\", i32 0}")},
		{"simdgroup built-in", KindSIMDGroup, variant("kernel", "", ", i32 %lane", "", "!5 = !{i32 2, !\"air.thread_index_in_simdgroup\"}")},
		{"vector function constant", KindFunctionConstant, variant("kernel", "@fc = internal addrspace(2) externally_initialized constant <2 x float> undef, align 8", "", "", "") + "!air.function_constants = !{!9}\n!9 = !{ptr addrspace(2) @fc, !\"float2\", !\"fc\", i32 0, i1 true}\n"},
		{"unlisted externally initialized global", KindFunctionConstant, variant("kernel", "@fc = internal addrspace(2) externally_initialized constant i32 undef, align 4", "", "", "")},
		{"out of bounds", KindOutOfBounds, variant("kernel", "", "", "  %v64 = zext i32 %v to i64\n  %far = add i64 %v64, 1048576\n  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %far\n  store i32 1, ptr addrspace(1) %q", "")},
		{"just past the end", KindOutOfBounds, variant("kernel", "", "", "  %q = getelementptr inbounds i8, ptr addrspace(1) %out, i64 131072\n  store i8 1, ptr addrspace(1) %q", "")},
		{"into the canary bytes", KindOutOfBounds, strings.Replace(variant("kernel", "", "", "  %q = getelementptr inbounds i8, ptr addrspace(1) %out, i64 12\n  store i8 1, ptr addrspace(1) %q", ""),
			`!"air.read_write",`, `!"air.read_write", !"air.buffer_size", i32 12,`, 1)},
		{"trap", KindTrap, variant("kernel", "declare void @llvm.trap()", "", "  call void @llvm.trap()", "")},
		{"endless loop", KindTimeout, variant("kernel", "", "", "  br label %spin\nspin:\n  store volatile i32 %v, ptr addrspace(1) %p\n  br label %spin\nexit:", "")},
		{"vertex function taking a thread position", KindArgument, variant("vertex", "", "", "", "")},
		{"object function", KindNotKernel, variant("object", "", "", "", "")},
		{"fragment function taking a thread position", KindArgument, variant("fragment", "", "", "", "")},
		{"unannotated parameter", KindArgument, variant("kernel", "", ", float %x", "", "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := RunText(context.Background(), c.ll, "k", Options{Timeout: 3 * time.Second})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) {
				t.Fatalf("got %v, want a NotJudgeableError of kind %s", err, c.kind)
			}
			if nj.Kind != c.kind || nj.Reason == "" {
				t.Fatalf("kind %q (%v), want %q with a reason", nj.Kind, nj, c.kind)
			}
		})
	}
}

// TestExactOps runs the operations the reference defines on the CPU and
// compares with Go's own arithmetic (the C library's definitions).
func TestExactOps(t *testing.T) {
	needTools(t)
	body := `  %f = bitcast i32 %v to float
  %a = call float @air.fast_fmax.f32(float %f, float 1.0)
  %b = call float @air.floor.f32(float %f)
  %c = call float @air.fast_saturate.f32(float %f)
  %d = call i32 @air.convert.u.i32.f.f32(float 0x41EA13B860000000)
  %e = call <2 x i32> @air.convert.u.v2i32.u.v2i16(<2 x i16> <i16 65535, i16 7>)
  %g = call i32 @air.min.s.i32(i32 -5, i32 %v)
  %ctr = getelementptr inbounds i32, ptr addrspace(1) %out, i64 300
  %h = call i32 @air.atomic.global.add.u.i32(ptr addrspace(1) %ctr, i32 1, i32 0, i32 2, i1 false)
  %q1 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 32
  store float %a, ptr addrspace(1) %q1
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 64
  store float %b, ptr addrspace(1) %q2
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 96
  store float %c, ptr addrspace(1) %q3
  %q4 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 128
  store i32 %d, ptr addrspace(1) %q4
  %q5 = getelementptr inbounds <2 x i32>, ptr addrspace(1) %out, i64 %idx
  %q5b = getelementptr inbounds i32, ptr addrspace(1) %q5, i64 160
  store <2 x i32> %e, ptr addrspace(1) %q5b, align 4
  %q6 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 224
  store i32 %g, ptr addrspace(1) %q6`
	decls := `declare float @air.fast_fmax.f32(float, float)
declare float @air.floor.f32(float)
declare float @air.fast_saturate.f32(float)
declare i32 @air.convert.u.i32.f.f32(float)
declare <2 x i32> @air.convert.u.v2i32.u.v2i16(<2 x i16>)
declare i32 @air.min.s.i32(i32, i32)
declare i32 @air.atomic.global.add.u.i32(ptr addrspace(1), i32, i32, i32, i1)`
	res, err := RunText(context.Background(), variant("kernel", decls, "", body, ""), "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, out := res.Inputs[0].Bytes, res.Outputs[0].Bytes
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	f := func(u uint32) float32 { return math.Float32frombits(u) }
	for x := range 16 { // a line of 16 threads: the kernel's position is a scalar
		v := word(in, x)
		checks := []struct {
			at   int
			want uint32
		}{
			{32 + x, math.Float32bits(float32(math.Max(float64(f(v)), 1)))},
			{64 + x, math.Float32bits(float32(math.Floor(float64(f(v)))))},
			{96 + x, math.Float32bits(float32(math.Min(math.Max(float64(f(v)), 0), 1)))},
			{128 + x, 3500000000},
			{160 + 2*x, 65535},
			{161 + 2*x, 7},
			{224 + x, uint32(min(int32(-5), int32(v)))},
		}
		for _, c := range checks {
			if got := word(out, c.at); got != c.want {
				t.Errorf("thread %d word %d: got %#x want %#x", x, c.at, got, c.want)
			}
		}
	}
	// 16 threads each added 1 to word 300.
	if got, want := word(out, 300), word(in, 300)+16; got != want {
		t.Errorf("atomic counter: got %#x want %#x", got, want)
	}
}

// TestWriteConflict: two threads changing the same word without an atomic
// is a race on a GPU, which a serial run would hide; the reference says so.
// Two threads writing the same value, or adding atomically, is not one.
func TestWriteConflict(t *testing.T) {
	needTools(t)
	// Over a 4×4 grid the four rows of this line-shaped kernel share words.
	racy := variant("kernel", "", "", "  %y = add i32 %v, 1\n  store i32 %y, ptr addrspace(1) %p", "")
	if _, err := RunText(context.Background(), racy, "k", Options{}); err != nil {
		t.Fatalf("over its own line of threads: %v", err)
	}
	_, err := RunText(context.Background(), racy, "k", Options{Grid: DefaultGrid()})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindRace {
		t.Fatalf("read-modify-write by 4 rows of threads: got %v, want %s", err, KindRace)
	}
	same := variant("kernel", "", "", "  store i32 7, ptr addrspace(1) %p", "")
	if _, err := RunText(context.Background(), same, "k", Options{}); err != nil {
		t.Fatalf("threads writing the same value: %v", err)
	}
	atomic := variant("kernel", "declare i32 @air.atomic.global.add.u.i32(ptr addrspace(1), i32, i32, i32, i1)", "",
		"  %h = call i32 @air.atomic.global.add.u.i32(ptr addrspace(1) %out, i32 1, i32 0, i32 2, i1 false)", "")
	if _, err := RunText(context.Background(), atomic, "k", Options{}); err != nil {
		t.Fatalf("atomic adds to one word: %v", err)
	}
}

// TestMissingTool checks that a missing LLVM tool is unavailability, not a verdict.
func TestMissingTool(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Disassemble(context.Background(), []byte("BC"), time.Second)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("got %v, want ErrUnavailable", err)
	}
}

func TestWorkDirKeepsFiles(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile("testdata/affine.ll")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := RunText(context.Background(), string(ll), "affine", Options{WorkDir: dir}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"kernel.ll", "kernel.o", "inputs.bin", "outputs.bin"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestBufferFiles: the inputs go to the harness in one file, one after the
// other, and its one output file splits back into outputs as long as each
// input; an output file of another length is an error.
func TestBufferFiles(t *testing.T) {
	dir := t.TempDir()
	inputs := []Data{{Index: 0, Bytes: []byte("abcd")}, {Index: 3, Bytes: []byte("ef")}, {Index: 40, Bytes: []byte("ghijkl")}}
	p := filepath.Join(dir, "inputs.bin")
	if err := writeInputs(p, inputs); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "abcdefghijkl" {
		t.Fatalf("inputs file %q", b)
	}
	for _, c := range []struct {
		file string
		ok   bool
	}{{"ABCDEFGHIJKL", true}, {"ABCDEFGHIJK", false}, {"ABCDEFGHIJKLM", false}, {"", false}} {
		q := filepath.Join(dir, "outputs.bin")
		if err := os.WriteFile(q, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		outs, err := readOutputs(q, inputs)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok %v", c.file, err, c.ok)
			continue
		}
		if c.ok && (len(outs) != 3 || string(outs[0].Bytes) != "ABCD" || outs[1].Index != 3 || string(outs[1].Bytes) != "EF" || string(outs[2].Bytes) != "GHIJKL" || cap(outs[0].Bytes) != 4) {
			t.Errorf("%q: outputs %+v", c.file, outs)
		}
	}
}

// TestFusedReference: a module whose AIR permits contraction says so, and
// its fused reference computes the other permitted answer — here the
// rounding error of x*x, which is 0 unfused and the exact residue fused.
// Without the fast flag the module does not permit it.
func TestFusedReference(t *testing.T) {
	needTools(t)
	// The second product reads x again through a volatile load, so that
	// llc cannot merge the two products before fusing.
	body := `  %x = bitcast i32 %v to float
  %xx = fmul FLAGS float %x, %x
  %v2 = load volatile i32, ptr addrspace(1) %p, align 4
  %x2 = bitcast i32 %v2 to float
  %r = fmul float %x2, %x2
  %nr = fneg float %r
  %z = fadd FLAGS float %xx, %nr
  %zi = bitcast float %z to i32
  store i32 %zi, ptr addrspace(1) %p, align 4`
	run := func(flags string, fuse bool) *Result {
		t.Helper()
		src := variant("kernel", "", "", strings.ReplaceAll(body, "FLAGS", flags), "")
		res, err := Run(context.Background(), assemble(t, src), "k", Options{FuseMulAdd: fuse})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	unfused, fused := run("fast", false), run("fast", true)
	if !unfused.ContractAllowed || unfused.Fused || !fused.Fused {
		t.Fatalf("flags: contract %v fused %v/%v", unfused.ContractAllowed, unfused.Fused, fused.Fused)
	}
	differ := 0
	u, f := unfused.Outputs[0].Bytes, fused.Outputs[0].Bytes
	for i := 0; i+4 <= 64; i += 4 {
		uz := math.Float32frombits(binary.LittleEndian.Uint32(u[i:]))
		if uz != 0 && !math.IsNaN(float64(uz)) {
			t.Fatalf("word %d: unfused x*x - x*x = %g, want 0", i/4, uz)
		}
		if binary.LittleEndian.Uint32(f[i:]) != binary.LittleEndian.Uint32(u[i:]) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the fused reference computed the same words as the unfused one: it did not fuse")
	}
	if plain := run("", false); plain.ContractAllowed {
		t.Error("a module without fast or contract flags claims contraction is allowed")
	}
}

// TestFusedReferenceFMulAdd: llvm.fmuladd permits fusing without any flag
// (LLVM fuses it or not at the code generator's choice), so a module
// calling it allows contraction, and its fused reference fuses it: x·x −
// x·x is 0 unfused and the rounding error of x·x fused.
func TestFusedReferenceFMulAdd(t *testing.T) {
	needTools(t)
	body := `  %x = bitcast i32 %v to float
  %v2 = load volatile i32, ptr addrspace(1) %p, align 4
  %x2 = bitcast i32 %v2 to float
  %r = fmul float %x2, %x2
  %nr = fneg float %r
  %z = call float @llvm.fmuladd.f32(float %x, float %x, float %nr)
  %zi = bitcast float %z to i32
  store i32 %zi, ptr addrspace(1) %p, align 4`
	src := variant("kernel", "declare float @llvm.fmuladd.f32(float, float, float)\n", "", body, "")
	run := func(fuse bool) *Result {
		t.Helper()
		res, err := Run(context.Background(), assemble(t, src), "k", Options{FuseMulAdd: fuse})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	unfused, fused := run(false), run(true)
	if !unfused.ContractAllowed {
		t.Fatal("a module calling llvm.fmuladd does not allow contraction")
	}
	if bytes.Equal(unfused.Outputs[0].Bytes, fused.Outputs[0].Bytes) {
		t.Error("the fused reference computed the same words as the unfused one: it did not fuse llvm.fmuladd")
	}
}

// metalSign is the Metal Shading Language's sign(x).
func metalSign(x float32) float32 {
	switch {
	case x != x:
		return 0
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// TestSignAnyAbs runs sign, any, all and integer abs on the pattern inputs
// and checks each thread's words against their Metal definitions.
func TestSignAnyAbs(t *testing.T) {
	needTools(t)
	body := `  %f = bitcast i32 %v to float
  %s = call float @air.sign.f32(float %f)
  %neg = fneg float %f
  %s2 = insertelement <2 x float> poison, float %f, i32 0
  %s2b = insertelement <2 x float> %s2, float %neg, i32 1
  %sv = call <2 x float> @air.sign.v2f32(<2 x float> %s2b)
  %odd = trunc i32 %v to i1
  %hi = icmp ugt i32 %v, 2147483647
  %b0 = insertelement <2 x i1> poison, i1 %odd, i32 0
  %b1 = insertelement <2 x i1> %b0, i1 %hi, i32 1
  %any = call i1 @air.any.v2i1(<2 x i1> %b1)
  %all = call i1 @air.all.v2i1(<2 x i1> %b1)
  %anyw = zext i1 %any to i32
  %allw = zext i1 %all to i32
  %abs = call i32 @air.abs.s.i32(i32 %v)
  %q1 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 32
  store float %s, ptr addrspace(1) %q1
  %q2 = getelementptr inbounds <2 x float>, ptr addrspace(1) %out, i64 %idx
  %q2b = getelementptr inbounds i32, ptr addrspace(1) %q2, i64 64
  store <2 x float> %sv, ptr addrspace(1) %q2b, align 4
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 96
  store i32 %anyw, ptr addrspace(1) %q3
  %q4 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 128
  store i32 %allw, ptr addrspace(1) %q4
  %q5 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 160
  store i32 %abs, ptr addrspace(1) %q5`
	decls := `declare float @air.sign.f32(float)
declare <2 x float> @air.sign.v2f32(<2 x float>)
declare i1 @air.any.v2i1(<2 x i1>)
declare i1 @air.all.v2i1(<2 x i1>)
declare i32 @air.abs.s.i32(i32)`
	res, err := RunText(context.Background(), variant("kernel", decls, "", body, ""), "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, out := res.Inputs[0].Bytes, res.Outputs[0].Bytes
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	bit := func(b bool) uint32 {
		if b {
			return 1
		}
		return 0
	}
	for x := range 16 {
		v := word(in, x)
		f := math.Float32frombits(v)
		odd, hi := v&1 == 1, v > math.MaxInt32
		abs := int32(v)
		if abs < 0 {
			abs = -abs
		}
		for _, c := range []struct {
			at   int
			want uint32
		}{
			{32 + x, math.Float32bits(metalSign(f))},
			{64 + 2*x, math.Float32bits(metalSign(f))},
			{65 + 2*x, math.Float32bits(metalSign(-f))},
			{96 + x, bit(odd || hi)},
			{128 + x, bit(odd && hi)},
			{160 + x, uint32(abs)},
		} {
			if got := word(out, c.at); got != c.want {
				t.Errorf("thread %d word %d (input %#x): got %#x want %#x", x, c.at, v, got, c.want)
			}
		}
	}
}

// TestMetalSign pins the definition the reference follows.
func TestMetalSign(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	for _, c := range []struct{ x, want float32 }{
		{2.5, 1}, {-1e-40, -1}, {0, 0}, {negZero, negZero}, {float32(math.NaN()), 0}, {float32(math.Inf(-1)), -1},
	} {
		if got := metalSign(c.x); math.Float32bits(got) != math.Float32bits(c.want) {
			t.Errorf("sign(%g) = %g, want %g", c.x, got, c.want)
		}
	}
}

func TestAssumesFinite(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"  %3 = fmul fast float %1, %2", true},
		{"  %3 = fadd nnan ninf float %1, %2", true},
		{"  %3 = fcmp ninf olt float %1, %2", true},
		{"  %3 = fmul float %1, %2", false},
		{`attributes #0 = { "no-nans-fp-math"="true" }`, false},
		{"; fast comment", false},
	} {
		if got := assumesFinite(parseText(c.line + "\n")); got != c.want {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
		}
	}
}

// TestInputFamilies: a kernel that indexes its buffer by the data it reads
// goes out of bounds on the pattern and is judged on the first family that
// keeps it inside (small integers), whose bytes become the inputs; one that
// leaves its buffers on every family stays out of bounds, saying so.
func TestInputFamilies(t *testing.T) {
	needTools(t)
	byData := variant("kernel", "", "", "  %far = zext i32 %v to i64\n  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %far\n  store i32 1, ptr addrspace(1) %q", "")
	res, err := RunText(context.Background(), byData, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.InputFamily != "small-integers" {
		t.Fatalf("input family %q, want small-integers", res.InputFamily)
	}
	for _, in := range res.Inputs {
		if want := InputFamilies[1].Fill(in.Index, int64(len(in.Bytes))); !bytes.Equal(in.Bytes, want) {
			t.Fatalf("buffer %d's inputs are not the small-integers family's", in.Index)
		}
	}
	far := variant("kernel", "", "", "  %v64 = zext i32 %v to i64\n  %far = add i64 %v64, 1048576\n  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %far\n  store i32 1, ptr addrspace(1) %q", "")
	_, err = RunText(context.Background(), far, "k", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindOutOfBounds || !strings.Contains(nj.Reason, "unit-floats") {
		t.Fatalf("got %v, want out of bounds on every family", err)
	}
	plain := variant("kernel", "", "", "  %y = add i32 %v, 1\n  store i32 %y, ptr addrspace(1) %p", "")
	if res, err := RunText(context.Background(), plain, "k", Options{}); err != nil || res.InputFamily != "pattern" {
		t.Fatalf("a kernel in bounds on the pattern: family %q, %v", res.InputFamily, err)
	}
}

// TestInputFamilyValues pins the families' first words.
func TestInputFamilyValues(t *testing.T) {
	w := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	small := InputFamilies[1].Fill(1, 16)
	if w(small, 0) != 3 || w(small, 1) != 4 || w(small, 3) != 6 {
		t.Errorf("small-integers for buffer 1: %x", small)
	}
	unit := InputFamilies[2].Fill(0, 8)
	if f := math.Float32frombits(w(unit, 0)); f != 13.0/64 {
		t.Errorf("unit-floats word 0 = %g, want 13/64", f)
	}
	if z := InputFamilies[len(InputFamilies)-1].Fill(2, 7); !bytes.Equal(z, make([]byte, 7)) { // zeros, the last
		t.Errorf("zeros: %x", z)
	}
	if odd := InputFamilies[1].Fill(0, 6); len(odd) != 6 {
		t.Errorf("a partial last word: %d bytes", len(odd))
	}
}

// TestFMax3 runs fmax3 and fmin3 on the pattern inputs: fmax(fmax(x, y),
// z) with C's rule that a NaN operand yields the other.
func TestFMax3(t *testing.T) {
	needTools(t)
	body := `  %f = bitcast i32 %v to float
  %mx = call float @air.fmax3.f32(float %f, float 0x7FF8000000000000, float 1.0)
  %mn = call float @air.fast_fmin3.f32(float 1.0, float %f, float -2.0)
  %q1 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 32
  store float %mx, ptr addrspace(1) %q1
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 64
  store float %mn, ptr addrspace(1) %q2`
	decls := "declare float @air.fmax3.f32(float, float, float)\ndeclare float @air.fast_fmin3.f32(float, float, float)"
	res, err := RunText(context.Background(), variant("kernel", decls, "", body, ""), "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, out := res.Inputs[0].Bytes, res.Outputs[0].Bytes
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	cmax := func(a, b float64) float64 {
		if math.IsNaN(a) {
			return b
		}
		if math.IsNaN(b) {
			return a
		}
		return math.Max(a, b)
	}
	cmin := func(a, b float64) float64 {
		if math.IsNaN(a) {
			return b
		}
		if math.IsNaN(b) {
			return a
		}
		return math.Min(a, b)
	}
	for x := range 16 {
		f := float64(math.Float32frombits(word(in, x)))
		wantMax := float32(cmax(cmax(f, math.NaN()), 1))
		wantMin := float32(cmin(cmin(1, f), -2))
		if got := math.Float32frombits(word(out, 32+x)); got != wantMax && !(got != got && wantMax != wantMax) {
			t.Errorf("thread %d: fmax3(%g, NaN, 1) = %g, want %g", x, f, got, wantMax)
		}
		if got := math.Float32frombits(word(out, 64+x)); got != wantMin {
			t.Errorf("thread %d: fmin3(1, %g, -2) = %g, want %g", x, f, got, wantMin)
		}
	}
}

// TestConvertBool: air.convert to i1 is C++'s conversion to bool (x != 0,
// a NaN true), which is how the Metal front end lowers `if (f)` on a float
// (SDL's `if (scRGB_output)`); from i1 it is bool's promotion to 0 or 1.
// A truncating or saturating conversion (what an ordinary float-to-integer
// conversion is) makes 2e-18, 0.5 and -3 false and 2 (an integer) false:
// this test fails with it.
func TestConvertBool(t *testing.T) {
	needTools(t)
	cases := []struct {
		call string
		want uint32
	}{
		{"i1 @air.convert.u.i1.f.f32(float 0x3C43B8B5C0000000)", 1}, // 2.1e-18
		{"i1 @air.convert.u.i1.f.f32(float 5.000000e-01)", 1},
		{"i1 @air.convert.u.i1.f.f32(float -3.000000e+00)", 1},
		{"i1 @air.convert.u.i1.f.f32(float 0x7FF8000000000000)", 1}, // NaN
		{"i1 @air.convert.u.i1.f.f32(float -0.000000e+00)", 0},
		{"i1 @air.convert.u.i1.f.f32(float 0.000000e+00)", 0},
		{"i1 @air.convert.s.i1.f.f16(half 0xH3800)", 1}, // 0.5
		{"i1 @air.convert.u.i1.u.i32(i32 2)", 1},
		{"i1 @air.convert.u.i1.s.i32(i32 -256)", 1},
		{"i1 @air.convert.u.i1.u.i32(i32 0)", 0},
	}
	promotions := []struct {
		call string
		want uint32
	}{
		{"i32 @air.convert.s.i32.s.i1(i1 true)", 1},
		{"i32 @air.convert.u.i32.u.i1(i1 true)", 1},
		{"float @air.convert.f.f32.s.i1(i1 true)", math.Float32bits(1)},
		{"float @air.convert.f.f32.u.i1(i1 false)", 0},
	}
	var body, decls strings.Builder
	declared := map[string]bool{}
	declare := func(call string) {
		ret, rest, _ := strings.Cut(call, " ")
		name, arg, _ := strings.Cut(rest, "(")
		argType, _, _ := strings.Cut(arg, " ")
		if !declared[name] {
			declared[name] = true
			fmt.Fprintf(&decls, "declare %s %s(%s)\n", ret, name, argType)
		}
	}
	for i, c := range cases {
		declare(c.call)
		fmt.Fprintf(&body, "  %%b%d = call %s\n  %%z%d = zext i1 %%b%d to i32\n  %%q%d = getelementptr inbounds i32, ptr addrspace(1) %%out, i64 %d\n  store i32 %%z%d, ptr addrspace(1) %%q%d\n", i, c.call, i, i, i, 32+i, i, i)
	}
	for i, c := range promotions {
		declare(c.call)
		ret, _, _ := strings.Cut(c.call, " ")
		fmt.Fprintf(&body, "  %%r%d = call %s\n  %%w%d = bitcast %s %%r%d to i32\n  %%s%d = getelementptr inbounds i32, ptr addrspace(1) %%out, i64 %d\n  store i32 %%w%d, ptr addrspace(1) %%s%d\n", i, c.call, i, ret, i, i, 64+i, i, i)
	}
	res, err := RunText(context.Background(), variant("kernel", decls.String(), "", body.String(), ""), "k", oneThread)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Outputs[0].Bytes
	for i, c := range cases {
		if got := binary.LittleEndian.Uint32(out[4*(32+i):]); got != c.want {
			t.Errorf("%s: got %d, want %d", c.call, got, c.want)
		}
	}
	for i, c := range promotions {
		if got := binary.LittleEndian.Uint32(out[4*(64+i):]); got != c.want {
			t.Errorf("%s: got %#x, want %#x", c.call, got, c.want)
		}
	}
}

// TestPreserveDenormals: a module compiled with denormals disabled runs
// flushing them (MXCSR FTZ+DAZ) unless Options.PreserveDenormals asks for
// the other answer MSL §8.5 permits; a module that keeps denormals keeps
// them either way.
func TestPreserveDenormals(t *testing.T) {
	needTools(t)
	body := `  %n = add i32 %gid, 1
  %nf = uitofp i32 %n to float
  %d = fmul float %nf, 0x3730000000000000
  %up = fmul float %d, 0x4630000000000000
  store float %up, ptr addrspace(1) %p, align 4`
	disabled := strings.Replace(variant("kernel", "", "", body, ""), "!air.kernel = ", "!air.compile_options = !{!90}\n!90 = !{!\"air.compile.denorms_disable\"}\n!air.kernel = ", 1)
	for _, c := range []struct {
		name           string
		ll             string
		preserve, kept bool
	}{
		{"disabled", disabled, false, false},
		{"disabled, preserved", disabled, true, true},
		{"kept", variant("kernel", "", "", body, ""), false, true},
		{"kept, preserved", variant("kernel", "", "", body, ""), true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := RunText(context.Background(), c.ll, "k", Options{PreserveDenormals: c.preserve})
			if err != nil {
				t.Fatal(err)
			}
			want := uint32(0)
			if c.kept {
				want = math.Float32bits(float32(math.Ldexp(3, -40))) // thread 2: 3·2^-140·2^100
			}
			if got := binary.LittleEndian.Uint32(res.Outputs[0].Bytes[8:]); got != want {
				t.Errorf("thread 2: got %#x, want %#x", got, want)
			}
			if res.DenormalsPreserved != (c.preserve && c.ll == disabled) {
				t.Errorf("DenormalsPreserved %v", res.DenormalsPreserved)
			}
		})
	}
}
