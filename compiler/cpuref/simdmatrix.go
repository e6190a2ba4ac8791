package cpuref

import (
	"fmt"
	"strings"
)

// SIMD-group matrices (MSL §6.7: simdgroup_matrix<T, 8, 8>, T half or
// float). The reference defines AIR's three matrix functions on the whole
// matrix, the <64 x T> value read as row-major (element (r, c) at index
// 8r + c), which is what every lane of a simdgroup holds when, as Metal
// requires, the SIMD-group executes them together on operands that are the
// same in every lane:
//
//   - air.simdgroup_matrix_8x8_load(src, elements_per_row, origin,
//     transpose): (r, c) = src[r·elements_per_row + c], or with transpose
//     src[c·elements_per_row + r] (the transpose of that matrix);
//   - air.simdgroup_matrix_8x8_store(m, dst, elements_per_row, origin,
//     transpose): the same places written from m, by lane 0 of the
//     simdgroup (the matrix is stored once; the other lanes write nothing);
//   - air.simdgroup_matrix_8x8_multiply_accumulate(a, b, c): d = a·b + c,
//     d(r, c) = ((c(r, c) + a(r, 0)·b(0, c)) + a(r, 1)·b(1, c)) + … + a(r, 7)·b(7, c),
//     plain fmul and fadd in d's element type (a half operand of a float
//     product extended exactly with fpext), no fast-math flags. Metal does not fix
//     that order or whether the hardware rounds each step, so the float
//     results are order-only (simdOrderOnly: Result.Approximate names the
//     operation and the stage compares within a ULP bound).
//
// Each is a rendezvous of the simdgroup's lanes (simdSited), so lanes that
// do not all reach the same matrix operation are SIMD-group divergence, as
// Metal requires them to be together. The translator
// (compiler/translate/simdmatrix.go) lowers the same three functions with
// the same reading; what it refuses because its meaning depends on the lane
// layout (thread_elements' extractelement and insertelement, matrices in
// memory as values) the reference never sees in a module it judges. Set
// aside (KindSIMDGroup, by checkSIMDMatrixCalls): a load or store whose
// matrix_origin operand is not the constant zero, whose combination with
// transpose the specification does not state. Other matrix names and
// element types are set aside by simdMatrixOp.

// isSIMDMatrixName reports the air.* simdgroup matrix functions.
func isSIMDMatrixName(n string) bool { return strings.HasPrefix(n, "air.simdgroup_matrix_") }

// simdMatrixElem is the element type of a matrix type ("<64 x float>" →
// "float"), or "" when t is not one the reference defines.
func simdMatrixElem(t string) string {
	for _, e := range []string{"half", "float"} {
		if t == "<64 x "+e+">" {
			return e
		}
	}
	return ""
}

// simdMatrixOp defines a simdgroup matrix function (see the top of the
// file), or says why the reference does not.
func simdMatrixOp(d declaration) (string, error) {
	n := d.Name
	refuse := func() (string, error) {
		return "", notJudgeable(KindSIMDGroup, n, "%s: not a simdgroup matrix function the reference defines in this form (%s(%s))", n, d.Ret, strings.Join(d.Params, ", "))
	}
	op, _, _ := strings.Cut(strings.TrimPrefix(n, "air."), ".")
	memory := func(ps []string) bool {
		return len(ps) == 4 && strings.HasPrefix(ps[0], "ptr") && ps[1] == "i64" && ps[2] == "<2 x i64>" && ps[3] == "i1"
	}
	switch op {
	case "simdgroup_matrix_8x8_load":
		e := simdMatrixElem(d.Ret)
		if e == "" || !memory(d.Params) {
			return refuse()
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("")
			m := "poison"
			for i := range 8 {
				for j := range 8 {
					p := matrixElemPtr(b, e, d.Params[0], "%a0", "%a1", i, j)
					x := b.emit(fmt.Sprintf("load %s, %s %s", e, d.Params[0], p))
					m = b.emit(fmt.Sprintf("insertelement %s %s, %s %s, i32 %d", d.Ret, m, e, x, 8*i+j))
				}
			}
			t := b.emit(fmt.Sprintf("shufflevector %s %s, %s poison, %s", d.Ret, m, d.Ret, transposeMask()))
			return b.emit(fmt.Sprintf("select i1 %%a3, %s %s, %s %s", d.Ret, t, d.Ret, m))
		}), nil
	case "simdgroup_matrix_8x8_store":
		if d.Ret != "void" || len(d.Params) != 5 || simdMatrixElem(d.Params[0]) == "" || !memory(d.Params[1:]) {
			return refuse()
		}
		e, mt, pt := simdMatrixElem(d.Params[0]), d.Params[0], d.Params[1]
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("")
			first := b.emit("icmp eq i32 %lane, 0")
			b.b.WriteString("  br i1 " + first + ", label %write, label %skip\nwrite:\n")
			t := b.emit(fmt.Sprintf("shufflevector %s %%a0, %s poison, %s", mt, mt, transposeMask()))
			m := b.emit(fmt.Sprintf("select i1 %%a4, %s %s, %s %%a0", mt, t, mt))
			for i := range 8 {
				for j := range 8 {
					p := matrixElemPtr(b, e, pt, "%a1", "%a2", i, j)
					x := b.emit(fmt.Sprintf("extractelement %s %s, i32 %d", mt, m, 8*i+j))
					b.b.WriteString(fmt.Sprintf("  store %s %s, %s %s\n", e, x, pt, p))
				}
			}
			b.b.WriteString("  br label %skip\nskip:\n")
			return ""
		}), nil
	case "simdgroup_matrix_8x8_multiply_accumulate":
		if len(d.Params) != 3 || d.Params[2] != d.Ret {
			return refuse()
		}
		de, ae, be := simdMatrixElem(d.Ret), simdMatrixElem(d.Params[0]), simdMatrixElem(d.Params[1])
		if de == "" || ae == "" || be == "" || (de == "half" && (ae != "half" || be != "half")) {
			return refuse()
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("")
			get := func(v, mt, e string, i int) string {
				x := b.emit(fmt.Sprintf("extractelement %s %s, i32 %d", mt, v, i))
				if e != de {
					x = b.emit(fmt.Sprintf("fpext %s %s to %s", e, x, de))
				}
				return x
			}
			out := "poison"
			for r := range 8 {
				for c := range 8 {
					acc := get("%a2", d.Ret, de, 8*r+c)
					for k := range 8 {
						x := get("%a0", d.Params[0], ae, 8*r+k)
						y := get("%a1", d.Params[1], be, 8*k+c)
						p := b.emit(fmt.Sprintf("fmul %s %s, %s", de, x, y))
						acc = b.emit(fmt.Sprintf("fadd %s %s, %s", de, acc, p))
					}
					out = b.emit(fmt.Sprintf("insertelement %s %s, %s %s, i32 %d", d.Ret, out, de, acc, 8*r+c))
				}
			}
			return out
		}), nil
	}
	return refuse()
}

// matrixElemPtr is the address of memory element (i, j) of a matrix at
// base (of pointer type pt) with epr elements per row: base + i·epr + j.
func matrixElemPtr(b *simdBody, e, pt, base, epr string, i, j int) string {
	row := b.emit(fmt.Sprintf("mul i64 %s, %d", epr, i))
	off := b.emit(fmt.Sprintf("add i64 %s, %d", row, j))
	return b.emit(fmt.Sprintf("getelementptr %s, %s %s, i64 %s", e, pt, base, off))
}

// transposeMask is the shufflevector mask that transposes a row-major 8×8
// matrix: element 8r + c of the result is element 8c + r.
func transposeMask() string {
	var s []string
	for r := range 8 {
		for c := range 8 {
			s = append(s, fmt.Sprintf("i32 %d", 8*c+r))
		}
	}
	return "<64 x i32> <" + strings.Join(s, ", ") + ">"
}

// simdMatrixOrderOnly reports a multiply-accumulate with float results
// (half or float): Metal fixes its products but not their order.
func simdMatrixOrderOnly(d declaration) bool {
	return strings.HasPrefix(d.Name, "air.simdgroup_matrix_8x8_multiply_accumulate.")
}

// checkSIMDMatrixCalls sets aside a module calling a matrix load or store
// with a matrix_origin other than the constant zero (line l is one of the
// module's lines).
func checkSIMDMatrixCalls(l string) error {
	if !strings.HasPrefix(l, "  ") || !strings.Contains(l, "@air.simdgroup_matrix_8x8_") {
		return nil
	}
	if !strings.Contains(l, "@air.simdgroup_matrix_8x8_load.") && !strings.Contains(l, "@air.simdgroup_matrix_8x8_store.") {
		return nil
	}
	if strings.Contains(l, "<2 x i64> zeroinitializer") || strings.Contains(l, "<2 x i64> <i64 0, i64 0>") {
		return nil
	}
	return notJudgeable(KindSIMDGroup, "simdgroup matrix origin", "a simdgroup matrix load or store with a matrix origin other than the constant zero: how the specification's origin combines with transpose is not stated (%s)", strings.TrimSpace(l))
}
