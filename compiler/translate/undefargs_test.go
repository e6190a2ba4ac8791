package translate

import (
	"errors"
	"strings"
	"testing"
)

// undefArgModule is a kernel calling a helper whose texture parameter it
// passes as undef (the helper does not read it); USE is replaced by an
// instruction of the helper's body.
const undefArgModule = `
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)

define internal void @helper(ptr addrspace(1) %out, ptr addrspace(1) readnone %tex, i32 %i) noinline {
entry:
  USE
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p, align 4
  ret void
}

define void @k(ptr addrspace(1) %out, i32 %gid) {
entry:
  call void @helper(ptr addrspace(1) %out, ptr addrspace(1) undef, i32 %gid)
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
`

// TestUndefPointerArgument: an undef pointer argument the callee never reads
// translates and validates; one it reads is refused as an undefined pointer.
func TestUndefPointerArgument(t *testing.T) {
	needValidator(t)
	out, err := translateText(t, strings.Replace(undefArgModule, "USE", "", 1))
	if err != nil {
		t.Fatal(err)
	}
	validDisassembly(t, out)
	_, err = translateText(t, strings.Replace(undefArgModule, "USE",
		"%r = call { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) %tex, <2 x i32> zeroinitializer, i32 0, i32 0)", 1))
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("a read undef texture: want a refusal, got %v", err)
	}
	for _, f := range me.Missing {
		if f.Detail == "undefined pointer" {
			return
		}
	}
	t.Fatalf("want the finding %q, got %v", "undefined pointer", me.Missing)
}
