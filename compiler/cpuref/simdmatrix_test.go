package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// matrixFixture is the stages' emulator fixture for simdgroup matrices.
const matrixFixture = "../../stages/testdata/emulator/simd_matrix.ll"

// matrixHalf decodes an IEEE half (finite values only, as the fixture's are).
func matrixHalf(h uint16) float32 {
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	v := math.Ldexp(1+m/1024, e-15)
	if e == 0 {
		v = math.Ldexp(m, -24)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return float32(v)
}

// TestSIMDMatrixReference runs the fixture at SIMD width 8 and checks what
// it stores against the matrix products computed here: d = A·Bᵀ + 0.5 at 10
// elements per row, e = B·B stored transposed, G = X transposed bit for bit;
// the words between D's rows keep their pattern. The multiply-accumulates
// are named order-only.
func TestSIMDMatrixReference(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile(matrixFixture)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), assemble(t, string(ll)), "matrices", Options{SIMDWidth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Approximate) != 2 || !strings.Contains(res.Approximate[0], "multiply_accumulate") {
		t.Errorf("Approximate = %v, want the two multiply_accumulate declarations", res.Approximate)
	}
	out := map[int][]byte{}
	for _, o := range res.Outputs {
		out[o.Index] = o.Bytes
	}
	var in []byte
	for _, d := range res.Inputs {
		if d.Index == 0 {
			in = d.Bytes
		}
	}
	a := func(r, c int) float32 { i := 8*r + c; return float32((5*i)%7 - 3) }
	b := func(r, c int) float32 { i := 8*r + c; return float32(i%5 - 2) }
	for r := range 8 {
		for c := range 8 {
			d, e := float32(0.5), float32(0)
			for k := range 8 {
				d += a(r, k) * b(c, k) // B loaded transposed
				e += b(r, k) * b(k, c)
			}
			if got := math.Float32frombits(binary.LittleEndian.Uint32(out[1][4*(10*r+c):])); got != d {
				t.Errorf("d(%d, %d) = %g, want %g", r, c, got, d)
			}
			if got := matrixHalf(binary.LittleEndian.Uint16(out[2][2*(8*c+r):])); got != e {
				t.Errorf("e(%d, %d) (stored transposed) = %g, want %g", r, c, got, e)
			}
			if got, want := binary.LittleEndian.Uint16(out[3][2*(8*c+r):]), binary.LittleEndian.Uint16(in[2*(8*r+c):]); got != want {
				t.Errorf("G at (%d, %d) = %#04x, want X(%d, %d) = %#04x", c, r, got, r, c, want)
			}
		}
		pat := Pattern(1, 4*80)
		if got, want := binary.LittleEndian.Uint32(out[1][4*(10*r+8):]), binary.LittleEndian.Uint32(pat[4*(10*r+8):]); got != want {
			t.Errorf("D's word after row %d changed: %#x, want the pattern %#x", r, got, want)
		}
	}
}

// TestSIMDMatrixReferenceSetsAside checks the forms the reference does not
// define: a non-zero matrix origin, and a declaration of another form.
func TestSIMDMatrixReferenceSetsAside(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile(matrixFixture)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, from, to, detail string }{
		{"origin", "i64 8, <2 x i64> zeroinitializer, i1 true)\n", "i64 8, <2 x i64> <i64 0, i64 1>, i1 true)\n", "simdgroup matrix origin"},
		{"bfloat", "declare void @air.wg.barrier(i32, i32)\n", "declare void @air.wg.barrier(i32, i32)\ndeclare <64 x bfloat> @air.simdgroup_matrix_8x8_load.v64bf16.p3bf16(ptr addrspace(3), i64, <2 x i64>, i1)\n", "air.simdgroup_matrix_8x8_load.v64bf16.p3bf16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(string(ll), tc.from, tc.to, 1)
			if src == string(ll) {
				t.Fatal("the edit did not apply")
			}
			_, err := Run(context.Background(), assemble(t, src), "matrices", Options{SIMDWidth: 8})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != KindSIMDGroup || nj.Detail != tc.detail {
				t.Fatalf("got %v, want set aside as %s %q", err, KindSIMDGroup, tc.detail)
			}
		})
	}
}

// TestSIMDMatrixReferenceCatchesTranspose shows the check above able to
// fail: the fixture with B loaded as is (no transpose) stores another d.
func TestSIMDMatrixReferenceCatchesTranspose(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile(matrixFixture)
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(ll), "i64 8, <2 x i64> zeroinitializer, i1 true)\n  %d", "i64 8, <2 x i64> zeroinitializer, i1 false)\n  %d", 1)
	if src == string(ll) {
		t.Fatal("the edit did not apply")
	}
	res, err := Run(context.Background(), assemble(t, src), "matrices", Options{SIMDWidth: 8})
	if err != nil {
		t.Fatal(err)
	}
	// d(0, 1) = 0.5 + Σ A(0, k)·B(1, k) with B transposed; B(k, 1) without.
	var want, wrong float32 = 0.5, 0.5
	for k := range 8 {
		want += float32((5*k)%7-3) * float32((8+k)%5-2)
		wrong += float32((5*k)%7-3) * float32((8*k+1)%5-2)
	}
	for _, o := range res.Outputs {
		if o.Index == 1 {
			got := math.Float32frombits(binary.LittleEndian.Uint32(o.Bytes[4:]))
			if got == want || got != wrong {
				t.Fatalf("untransposed B: d(0, 1) = %g; the transposed load gives %g, the untransposed %g", got, want, wrong)
			}
		}
	}
}
