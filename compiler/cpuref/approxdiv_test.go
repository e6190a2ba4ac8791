package cpuref

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// divisionKernel divides with fast, afn (on two lanes) and no flags:
// out[gid] = f/3 + (7/3 + f/5) + f/7 with f = (v & 0xffff) + 1.
var divisionKernel = variant("kernel", "", "",
	`  %m = and i32 %v, 65535
  %f0 = uitofp i32 %m to float
  %f = fadd float %f0, 1.0
  %q = fdiv fast float %f, 3.0
  %vec = insertelement <2 x float> <float 7.0, float poison>, float %f, i32 1
  %d = fdiv afn <2 x float> %vec, <float 3.0, float 5.0>
  %pr = fdiv float %f, 7.0
  %d0 = extractelement <2 x float> %d, i32 0
  %d1 = extractelement <2 x float> %d, i32 1
  %s0 = fadd float %q, %d0
  %s1 = fadd float %s0, %d1
  %s2 = fadd float %s1, %pr
  store float %s2, ptr addrspace(1) %p`, "")

// TestApproximateDivisions: the ordinary reference divides exactly and
// names the approximate divisions; the provisional run calls the division
// functions and computes the same output bit for bit (the precise fdiv
// stays an fdiv); substituted, each division takes its record's quotient
// (one ulp off here: the device's), and a record with another operand is
// not taken.
func TestApproximateDivisions(t *testing.T) {
	needTools(t)
	ctx := context.Background()
	exact, err := RunText(ctx, divisionKernel, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(exact.Divisions, ",") != "fdiv.f32,fdiv.v2f32" || exact.Provisional || len(exact.Substitutable) != 0 || strings.Contains(exact.LL, "airpipe.fdiv") {
		t.Fatalf("ordinary run: Divisions %v Provisional %v Substitutable %v", exact.Divisions, exact.Provisional, exact.Substitutable)
	}
	prov, err := RunText(ctx, divisionKernel, "k", Options{ApproximateProvisional: true})
	if err != nil {
		t.Fatal(err)
	}
	if !prov.Provisional || strings.Join(prov.Substitutable, ",") != "fdiv.f32,fdiv.v2f32" || !bytes.Equal(prov.Outputs[0].Bytes, exact.Outputs[0].Bytes) {
		t.Fatalf("provisional run: Provisional %v Substitutable %v, outputs equal %v", prov.Provisional, prov.Substitutable, bytes.Equal(prov.Outputs[0].Bytes, exact.Outputs[0].Bytes))
	}
	for _, want := range []string{`%q = call float @"airpipe.fdiv.f32"(float %f, float 3.0`, `%d = call <2 x float> @"airpipe.fdiv.v2f32"(<2 x float> %vec, <2 x float> <float 3.0`, "%pr = fdiv float %f, 7.0"} {
		if !strings.Contains(prov.LL, want) {
			t.Errorf("the provisional module lacks %q", want)
		}
	}
	n := int(prov.Grid.Size()[0])
	const capacity = 4
	words := 1 + (capacity+1)*16
	b := make([]byte, n*words*4)
	want := make([]float32, n)
	put := func(at int, fs ...float32) {
		for k, f := range fs {
			binary.LittleEndian.PutUint32(b[at+4*k:], math.Float32bits(f))
		}
	}
	up := func(f float32, ulps int32) float32 {
		return math.Float32frombits(uint32(int32(math.Float32bits(f)) + ulps))
	}
	for i := range n {
		v := binary.LittleEndian.Uint32(exact.Inputs[0].Bytes[4*i:])
		f := float32(v&0xffff) + 1
		q, d0, d1 := up(f/3, 1), float32(7)/3, up(f/5, -1)
		base := i * words * 4
		binary.LittleEndian.PutUint32(b[base:], 2)
		rec := base + 4
		binary.LittleEndian.PutUint32(b[rec:], 0)
		put(rec+4, f)
		put(rec+20, 3)
		if i == 5 {
			put(rec+20, 4) // not the reference's divisor: unmatched
			q = f / 3
		}
		put(rec+36, q)
		rec += 64
		binary.LittleEndian.PutUint32(b[rec:], 1)
		put(rec+4, 7, f)
		put(rec+20, 3, 5)
		put(rec+36, d0, d1)
		want[i] = ((q + d0) + d1) + f/7
	}
	sub := &Substitution{Ops: []string{"fdiv.f32", "fdiv.v2f32"}, Invocations: n, InvocationWords: words, Capacity: capacity, Words: b, Digest: "test"}
	res, err := Substitute(ctx, prov, sub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Substituted.Calls != int64(2*n) || res.Substituted.Matched != int64(2*n-1) {
		t.Fatalf("substituted %+v, want %d calls, %d matched", res.Substituted, 2*n, 2*n-1)
	}
	changed := 0
	for i := range n {
		got := math.Float32frombits(binary.LittleEndian.Uint32(res.Outputs[0].Bytes[4*i:]))
		if got != want[i] {
			t.Errorf("substituted word %d: %v, want %v", i, got, want[i])
		}
		if got != math.Float32frombits(binary.LittleEndian.Uint32(exact.Outputs[0].Bytes[4*i:])) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no output changed with the quotients one ulp off")
	}
}

// TestApproximateDivisionLines: which fdivs are approximate (fast, arcp,
// afn; float, up to 4 lanes) and how their operands are read.
func TestApproximateDivisionLines(t *testing.T) {
	for _, c := range []struct {
		line, ty, x, y, rest string
		ok                   bool
	}{
		{"  %6 = fdiv fast <2 x float> %4, %5", "<2 x float>", "%4", "%5", "", true},
		{"  %q = fdiv arcp float 1.000000e+00, %x, !dbg !12", "float", "1.000000e+00", "%x", ", !dbg !12", true},
		{"  %q = fdiv nnan afn <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, splat (float 3.0)", "<4 x float>", "<float 1.0, float 2.0, float 3.0, float 4.0>", "splat (float 3.0)", "", true},
		{`  %"a b" = fdiv reassoc nnan ninf nsz arcp contract afn float %x, %y`, "float", "%x", "%y", "", true},
		{"  %q = fdiv float %x, %y", "", "", "", "", false},
		{"  %q = fdiv nnan ninf nsz contract reassoc float %x, %y", "", "", "", "", false},
		{"  %q = fdiv fast half %x, %y", "", "", "", "", false},
		{"  %q = fdiv fast <8 x float> %x, %y", "", "", "", "", false},
		{"  %q = fdiv fast double %x, %y", "", "", "", "", false},
	} {
		_, ty, x, y, rest, ok := approximateDivision(c.line)
		if ok != c.ok || ty != c.ty || x != c.x || y != c.y || rest != c.rest {
			t.Errorf("%q: %v %q %q %q %q", c.line, ok, ty, x, y, rest)
		}
	}
}
