package translate

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/mathbound"
	"github.com/airpipe/airpipe/device"
)

// matrixInputs are the fixture's A (8×8 floats, 8 per row) and B (8 rows of
// 12 halves), small integers so that every product and sum is exact.
func matrixInputs() (a []float32, b []float32) {
	for i := range 64 {
		a = append(a, float32(i%7-3))
	}
	for i := range 96 {
		b = append(b, float32(i%5-2))
	}
	return a, b
}

// matrixExpected computes what simd_matrix.ll stores, from Metal's
// definitions: d = A·Bᵀ + 0.5 (B read transposed at 12 elements per row),
// e = H·H stored transposed (H = B read as is), f = A·A + A.
func matrixExpected(a, b []float32) (d, e, f [64]float32) {
	at := func(r, c int) float32 { return a[8*r+c] }
	bt := func(r, c int) float32 { return b[12*c+r] } // transposed load
	h := func(r, c int) float32 { return b[12*r+c] }
	for r := range 8 {
		for c := range 8 {
			sd, se, sf := float32(0.5), float32(0), at(r, c)
			for k := range 8 {
				sd += at(r, k) * bt(k, c)
				se += h(r, k) * h(k, c)
				sf += at(r, k) * at(k, c)
			}
			d[8*r+c], e[8*c+r], f[8*r+c] = sd, se, sf // e is stored transposed
		}
	}
	return d, e, f
}

// TestSIMDMatrixExecuted runs simd_matrix.ll on lavapipe (two threadgroups
// of 32 threads) and checks every stored element against the matrix
// products Metal defines; it also checks that the module validates.
func TestSIMDMatrixExecuted(t *testing.T) {
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	out := translatedFixture(t, "simd_matrix.ll")
	needValidator(t)
	mustValidate(t, out.SPIRV)
	d, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe cannot be opened here: %v", err)
	}
	t.Cleanup(func() { _ = d.Stop() })
	p, err := d.LoadPipeline(out.SPIRV, out.Entry)
	if err != nil {
		t.Fatal(err)
	}
	a, b := matrixInputs()
	sizes := []int{64 * 4, 96 * 2, 80 * 4, 64 * 2, 64 * 4, 4} // A, B, D (stride 10), E, F, N
	bufs := make([]*device.Buffer, len(sizes))
	for i, n := range sizes {
		if bufs[i], err = d.NewBuffer(int64(n)); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range a {
		binary.LittleEndian.PutUint32(bufs[0].Bytes()[4*i:], math.Float32bits(v))
	}
	for i, v := range b {
		binary.LittleEndian.PutUint16(bufs[1].Bytes()[2*i:], float32ToHalf(v))
	}
	binary.LittleEndian.PutUint32(bufs[5].Bytes(), 8) // elements per row 8 + 4
	var binds []device.Binding
	for i, rb := range out.Reflection.Bindings {
		binds = append(binds, device.Binding{Set: uint32(rb.Set), Binding: uint32(rb.Binding), Buffer: bufs[rb.Binding]})
		if rb.Binding != i {
			t.Fatalf("binding %d is %+v: want buffer i at binding i", i, rb)
		}
	}
	err = d.Run(context.Background(), p, device.DispatchArgs{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{32, 1, 1}, Bindings: binds})
	if err != nil {
		t.Fatal(err)
	}
	wantD, wantE, wantF := matrixExpected(a, b)
	f32 := func(buf int, i int) float32 {
		return math.Float32frombits(binary.LittleEndian.Uint32(bufs[buf].Bytes()[4*i:]))
	}
	for r := range 8 {
		for c := range 8 {
			if got := f32(2, 10*r+c); got != wantD[8*r+c] {
				t.Errorf("d(%d, %d) = %g, want %g", r, c, got, wantD[8*r+c])
			}
			if got := float32(mathbound.HalfValue(binary.LittleEndian.Uint16(bufs[3].Bytes()[2*(8*r+c):]))); got != wantE[8*r+c] {
				t.Errorf("e stored at (%d, %d) = %g, want %g", r, c, got, wantE[8*r+c])
			}
			if got := f32(4, 8*r+c); got != wantF[8*r+c] {
				t.Errorf("f(%d, %d) = %g, want %g", r, c, got, wantF[8*r+c])
			}
		}
		if got := f32(2, 10*r+8); got != 0 {
			t.Errorf("D row %d: the gap after the row was written (%g)", r, got)
		}
	}
	t.Logf("%s", d.Facts().Name)
}

// TestSIMDMatrixExpectedCanFail shows the check above able to fail: b·a in
// place of a·b gives other values for these inputs.
func TestSIMDMatrixExpectedCanFail(t *testing.T) {
	a, b := matrixInputs()
	d, _, _ := matrixExpected(a, b)
	differ := false
	for r := range 8 {
		for c := range 8 {
			var s float32 = 0.5
			for k := range 8 {
				s += b[12*r+k] * a[8*k+c] // (Bᵀ)ᵀ·A's shape: the swapped operands
			}
			differ = differ || s != d[8*r+c]
		}
	}
	if !differ {
		t.Fatal("the fixture's inputs cannot tell a·b from b·a")
	}
}

// TestSIMDMatrixRefused checks that the uses whose meaning depends on the
// unspecified lane layout, and the operands the lowering does not define,
// are refused by name.
func TestSIMDMatrixRefused(t *testing.T) {
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	const head = `target triple = "air64-apple-macosx14.0.0"
declare <64 x float> @air.simdgroup_matrix_8x8_load.v64f32.p1f32(ptr addrspace(1), i64, <2 x i64>, i1)
declare void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float>, ptr addrspace(1), i64, <2 x i64>, i1)
define void @k(ptr addrspace(1) %p, i1 %t) {
  %m = call <64 x float> @air.simdgroup_matrix_8x8_load.v64f32.p1f32(ptr addrspace(1) %p, i64 8, <2 x i64> zeroinitializer, i1 false)
`
	const tail = `  ret void
}
!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"p"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"bool", !"air.arg_name", !"t"}
`
	tests := []struct{ name, body, want string }{
		{"thread_elements read", "  %x = extractelement <64 x float> %m, i64 0\n  store float %x, ptr addrspace(1) %p\n", "extractelement on a simdgroup matrix"},
		{"thread_elements write", "  %x = insertelement <64 x float> %m, float 1.0, i64 1\n  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %x, ptr addrspace(1) %p, i64 8, <2 x i64> zeroinitializer, i1 false)\n", "insertelement on a simdgroup matrix"},
		{"thread_elements from a vector", "  %v = insertelement <2 x float> poison, float 1.0, i32 0\n  %x = shufflevector <2 x float> %v, <2 x float> poison, <64 x i32> <i32 0, i32 1" + strings.Repeat(", i32 poison", 62) + ">\n  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %x, ptr addrspace(1) %p, i64 8, <2 x i64> zeroinitializer, i1 false)\n", "shufflevector on a simdgroup matrix (thread_elements"},
		{"arithmetic", "  %x = fadd <64 x float> %m, %m\n  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %x, ptr addrspace(1) %p, i64 8, <2 x i64> zeroinitializer, i1 false)\n", "fadd on a simdgroup matrix"},
		{"stored as a value", "  store <64 x float> %m, ptr addrspace(1) %p\n", "store of a simdgroup matrix as a value"},
		{"origin", "  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %m, ptr addrspace(1) %p, i64 8, <2 x i64> <i64 1, i64 0>, i1 false)\n", "with a matrix origin other than zero"},
		{"variable transpose", "  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %m, ptr addrspace(1) %p, i64 8, <2 x i64> zeroinitializer, i1 %t)\n", "with a variable transpose flag"},
		{"non-splat constant", "  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> <float 1.0" + strings.Repeat(", float 0.0", 63) + ">, ptr addrspace(1) %p, i64 8, <2 x i64> zeroinitializer, i1 false)\n", "simdgroup matrix constant other than a splat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body + tail
			if tc.name == "variable transpose" {
				src = strings.Replace(src, "define void @k(ptr addrspace(1) %p, i1 %t) {", "define void @k(ptr addrspace(1) %p, ptr addrspace(1) %tp) {\n  %t = load i1, ptr addrspace(1) %tp", 1)
			} else {
				src = strings.Replace(src, "i1 %t) {", "ptr addrspace(1) %tp) {", 1)
			}
			m, err := bitcode.ReadModule(assembleText(t, src))
			if err != nil {
				t.Fatal(err)
			}
			eps, err := air.EntryPoints(m)
			if err != nil || len(eps) != 1 {
				t.Fatal(eps, err)
			}
			_, err = Translate(m, eps[0])
			var me *MissingError
			if !errors.As(err, &me) {
				t.Fatalf("want a MissingError, got %v", err)
			}
			for _, f := range me.Missing {
				if strings.Contains(f.Detail, tc.want) {
					return
				}
			}
			t.Errorf("missing %v, want one naming %q", me.Missing, tc.want)
		})
	}
}

// assembleText runs llvm-as-19 on LLVM text and returns the bitcode.
func assembleText(t *testing.T, src string) []byte {
	t.Helper()
	cmd := exec.Command("llvm-as-19", "-o", "-")
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, src)
	}
	return out
}
