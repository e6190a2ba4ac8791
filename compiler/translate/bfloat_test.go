package translate

import (
	"encoding/binary"
	"math"
	"testing"
)

// bfloatInputs are bfloat_round.ll's float bit patterns and the bfloat each
// must round to: ties to even both ways, just above and below a tie,
// overflow to infinity and the largest finite, -inf, NaNs (quiet, sign and
// high payload kept, a signalling NaN whose payload lies only in the dropped
// half), subnormal ties, -0, the largest subnormal rounding up to the
// smallest normal, 1 and -pi.
var bfloatInputs = [16][2]uint32{
	{0x3f808000, 0x3f80}, {0x3f818000, 0x3f82}, {0x3f808001, 0x3f81}, {0x3f807fff, 0x3f80},
	{0x7f7fffff, 0x7f80}, {0x7f7f7fff, 0x7f7f}, {0xff800000, 0xff80}, {0x7fc00001, 0x7fc0},
	{0x7f800001, 0x7fc0}, {0xffa00000, 0xffe0}, {0x00008000, 0x0000}, {0x00018000, 0x0002},
	{0x80000000, 0x8000}, {0x007fffff, 0x0080}, {0x3f800000, 0x3f80}, {0xc0490fdb, 0xc049},
}

// wantBF rounds x to bfloat by comparing the distances to the two bfloats
// around it (exact in float64), ties to the even one; a NaN keeps its sign
// and high payload and is made quiet. It shares nothing with bfloat.go's
// bit formula.
func wantBF(bits uint32) uint16 {
	x := math.Float32frombits(bits)
	if x != x {
		return uint16(bits>>16) | 0x40
	}
	lo := uint16(bits >> 16) // toward zero
	hi := lo + 1
	dl := math.Abs(float64(x) - float64(math.Float32frombits(uint32(lo)<<16)))
	hv := float64(math.Float32frombits(uint32(hi) << 16))
	if math.IsInf(hv, 0) {
		// IEEE rounding treats the step past the largest finite as 2^128.
		hv = math.Copysign(0x1p128, hv)
	}
	dh := math.Abs(float64(x) - hv)
	if math.IsInf(float64(x), 0) || dl < dh || dl == dh && lo&1 == 0 {
		return lo
	}
	return hi
}

func bfFloat(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// TestBFloatRoundingTable: the table's expectations are the rounding rule.
func TestBFloatRoundingTable(t *testing.T) {
	for _, c := range bfloatInputs {
		if got := wantBF(c[0]); uint32(got) != c[1] {
			t.Errorf("%#08x: rule gives %#04x, table says %#04x", c[0], got, c[1])
		}
	}
}

// TestBFloatExecuted runs bfloat_round.ll on lavapipe: float to bfloat on
// the boundaries above, widening back, a multiply-add (llvm.fmuladd,
// unfused), fneg, fcmp and a bfloat store and load.
func TestBFloatExecuted(t *testing.T) {
	k := onLavapipe(t, "bfloat_round.ll")
	const n = 64
	bufs := k.buffers(16*n, 2*n)
	res, mem := bufs[0], bufs[1]
	k.run(1, n, bufs)
	word := func(i, j int) uint32 { return binary.LittleEndian.Uint32(res.Bytes()[16*i+4*j:]) }
	for i := 0; i < n; i++ {
		k := i & 15
		h := uint16(bfloatInputs[k][1])
		if got := word(i, 0); got != uint32(h) {
			t.Errorf("thread %d: bfloat(%#08x) = %#04x, want %#04x", i, bfloatInputs[k][0], got, h)
		}
		if got := word(i, 1); got != uint32(h)<<16 {
			t.Errorf("thread %d: widened %#08x, want %#08x", i, got, uint32(h)<<16)
		}
		if k == 11 {
			continue // a subnormal operand: float arithmetic may flush it
		}
		hf := bfFloat(h)
		sq := wantBF(math.Float32bits(hf * hf))
		s3 := unfusedBF(hf, 1.5, bfFloat(sq))
		ng := s3 ^ 0x8000
		lt := uint32(0)
		if bfFloat(ng) < 0 {
			lt = 1
		}
		if got := word(i, 2); got != lt {
			t.Errorf("thread %d: fcmp olt %#04x 0 = %d, want %d", i, ng, got, lt)
		}
		if got := word(i, 3); got != uint32(ng)<<16 {
			t.Errorf("thread %d: -(h*1.5 + h*h) = %#08x, want %#08x", i, got, uint32(ng)<<16)
		}
		if got := binary.LittleEndian.Uint16(mem.Bytes()[2*i:]); got != ng {
			t.Errorf("thread %d: stored bfloat %#04x, want %#04x", i, got, ng)
		}
	}
}

// unfusedBF is llvm.fmuladd of bfloats unfused: a·b rounded to bfloat, then
// the sum rounded (each float result rounds to the correctly rounded
// bfloat: float's 24 bits are at least 2·8+2).
func unfusedBF(a, b, c float32) uint16 {
	return wantBF(math.Float32bits(bfFloat(wantBF(math.Float32bits(a*b))) + c))
}

// bfloatMulAdd are bfloat_muladd.ll's operands (a, b, c of
// llvm.fmuladd.bf16) and the bfloat rounded once from the exact a·b+c:
// (1+2^-7)·1.5 is a bfloat midpoint, which unfused rounding takes to even
// before c is added; with c = -1.5 the exact result is a bfloat, with c =
// ∓2^-30 it lies just beside the midpoint (rounding a·b+c once through
// float, the lowering before, gives the unfused value there, not the
// fused one).
var bfloatMulAdd = [][4]uint16{
	{0x3f81, 0x3fc0, 0xbfc0, 0x3c40}, {0x3f81, 0x3fc0, 0xb080, 0x3fc1}, {0x3f81, 0x3fc0, 0x3080, 0x3fc2},
	{0x3f81, 0x3fc0, 0x0000, 0x3fc2}, {0x4049, 0xc049, 0x4120, 0x3e0c}, {0x3f80, 0x3f80, 0xbf80, 0x0000},
	{0x7f7f, 0x4000, 0x0000, 0x7f80}, {0x3e00, 0x3e00, 0x3c00, 0x3cc0},
}

// TestBFloatMulAddUnfused runs bfloat_muladd.ll on lavapipe: every
// llvm.fmuladd.bf16 result is the unfused one, which LLVM permits as much
// as the fused one and the reference computes; on the first operands the
// two differ, so the check tells them apart.
func TestBFloatMulAddUnfused(t *testing.T) {
	k := onLavapipe(t, "bfloat_muladd.ll")
	n := len(bfloatMulAdd)
	bufs := k.buffers(int64(4 * n))
	res := bufs[0]
	k.run(1, uint32(n), bufs)
	for i, c := range bfloatMulAdd {
		want := unfusedBF(bfFloat(c[0]), bfFloat(c[1]), bfFloat(c[2]))
		if i == 0 && want == c[3] {
			t.Fatalf("operands %#04x: the unfused and fused values agree (%#04x): the check cannot tell them apart", c[:3], want)
		}
		if got := binary.LittleEndian.Uint32(res.Bytes()[4*i:]); got != uint32(want) {
			t.Errorf("fmuladd(%#04x, %#04x, %#04x) = %#04x, want %#04x unfused (fused: %#04x)", c[0], c[1], c[2], got, want, c[3])
		}
	}
}
