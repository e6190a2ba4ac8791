package cpuref

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// bfBoundaries are float bit patterns at bfloat's rounding edges: ties to
// even both ways, the largest finite bfloat's boundary, subnormals, NaNs
// with payloads in both halves.
var bfBoundaries = []uint32{
	0x3f808000, 0x3f818000, 0x3f807fff, 0x3f808001, 0x7f7f7fff, 0x7f7f8000, 0x7f7fffff, 0xff7f8000,
	0x00008000, 0x00018000, 0x00000001, 0x80007fff, 0x7f800000, 0xff800000, 0x7f800001, 0xffc12345,
	0x7fffffff, 0x7fa00000, 0x00000000, 0x80000000, 0x4049fdb0, 0xc0490fdb, 0x3e2aaaab, 0x007fffff,
}

// bfRound is compiler/translate/ABI.md's float → bfloat rounding.
func bfRound(b uint32) uint16 {
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b >> 16 & 1)) >> 16)
}

// TestBFloatRounding runs fptrunc float → bfloat (which llc lowers to the
// harness's __truncsfbf2) over the pattern-filled words and bfBoundaries and
// checks each against ABI.md's rounding.
func TestBFloatRounding(t *testing.T) {
	needTools(t)
	if got := bfRound(0x7f7f8000); got != 0x7f80 {
		t.Fatalf("bfRound(0x7f7f8000) = %#x: past the largest bfloat is infinity", got)
	}
	var vals []string
	for _, v := range bfBoundaries {
		vals = append(vals, fmt.Sprintf("i32 %d", int32(v)))
	}
	n := len(bfBoundaries)
	ll := `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@vals = internal constant [` + fmt.Sprint(n) + ` x i32] [` + strings.Join(vals, ", ") + `]

define void @k(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, ptr addrspace(1) noalias %out2, i32 %gid) {
entry:
  %g = zext i32 %gid to i64
  %ip = getelementptr inbounds float, ptr addrspace(1) %in, i64 %g
  %x = load float, ptr addrspace(1) %ip, align 4
  %b = fptrunc float %x to bfloat
  %op = getelementptr inbounds bfloat, ptr addrspace(1) %out, i64 %g
  store bfloat %b, ptr addrspace(1) %op, align 2
  %j = urem i64 %g, ` + fmt.Sprint(n) + `
  %vp = getelementptr inbounds [` + fmt.Sprint(n) + ` x i32], ptr @vals, i64 0, i64 %j
  %vi = load i32, ptr %vp, align 4
  %vf = bitcast i32 %vi to float
  %vb = fptrunc float %vf to bfloat
  %op2 = getelementptr inbounds bfloat, ptr addrspace(1) %out2, i64 %g
  store bfloat %vb, ptr addrspace(1) %op2, align 2
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1}
!6 = !{i32 3, !"air.thread_position_in_grid"}
`
	res, err := RunText(context.Background(), ll, "k", Options{Grid: Grid{Groups: [3]uint32{64, 1, 1}, Threads: [3]uint32{64, 1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	in, out, out2 := res.Inputs[0].Bytes, res.Outputs[1].Bytes, res.Outputs[2].Bytes
	for g := range 64 * 64 {
		if got, want := binary.LittleEndian.Uint16(out[2*g:]), bfRound(binary.LittleEndian.Uint32(in[4*g:])); got != want {
			t.Fatalf("bfloat(%#08x) = %#04x, want %#04x", binary.LittleEndian.Uint32(in[4*g:]), got, want)
		}
		if got, want := binary.LittleEndian.Uint16(out2[2*g:]), bfRound(bfBoundaries[g%n]); got != want {
			t.Fatalf("bfloat(%#08x) = %#04x, want %#04x", bfBoundaries[g%n], got, want)
		}
	}
}
