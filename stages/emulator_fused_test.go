package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// fusedKernel computes x*x - x*x with the products read apart: 0 unfused,
// the rounding residue of x*x when the multiply-add is fused.
const fusedKernel = `source_filename = "fused"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"
define void @k(ptr addrspace(1) %out, i32 %gid) {
entry:
  %idx = zext i32 %gid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  %v = load i32, ptr addrspace(1) %p, align 4
  %x = bitcast i32 %v to float
  %xx = fmul fast float %x, %x
  %v2 = load volatile i32, ptr addrspace(1) %p, align 4
  %x2 = bitcast i32 %v2 to float
  %r = fmul float %x2, %x2
  %nr = fneg float %r
  %z = fadd fast float %xx, %nr
  %zi = bitcast float %z to i32
  store i32 %zi, ptr addrspace(1) %p, align 4
  ret void
}
!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.thread_position_in_grid"}
`

// TestMismatchAgainstFusedReference: a device answer that differs from the
// unfused reference but equals the fused one passes, saying so in its data,
// when the AIR permits contraction; any other difference stays a mismatch.
func TestMismatchAgainstFusedReference(t *testing.T) {
	for _, tool := range []string{"llvm-as-19", "llvm-dis-19", "llc-19", "opt-19", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	cmd := exec.Command("llvm-as-19", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(fusedKernel)
	bc, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(bc)
	m := &Module{Bitcode: bc, SHA256: hex.EncodeToString(sum[:]), artifacts: artifacts{Translation: &translate.Output{Entry: "k"}}}
	e := newEmulator(EmulatorOptions{ReferenceCache: t.TempDir()}, false)
	ctx := context.Background()
	unfused, err := e.reference(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	fused, err := e.referenceWith(ctx, m, true)
	if err != nil {
		t.Fatal(err)
	}
	asGot := func(r *cpuref.Result) map[int][]byte {
		got := map[int][]byte{}
		for _, o := range r.Outputs {
			got[o.Index] = append([]byte(nil), o.Bytes...)
		}
		return got
	}
	// The device fused: a mismatch against the unfused reference, a pass
	// against the fused one.
	got := asGot(fused)
	if r := compare(unfused, got); r.Code != codes.EmulatorMismatch {
		t.Fatalf("fused answer against the unfused reference: %+v", r)
	}
	if !unfused.ContractAllowed {
		t.Fatal("the fixture's AIR does not permit contraction")
	}
	r := judged(e.h.Judge(ctx, harnessModule(m), unfused, got))
	if r.Status != pipeline.Passed || !strings.Contains(r.Data["reference"], "fused multiply-add") {
		t.Fatalf("fused answer: %+v", r)
	}
	// Words where the references agree (x·x exact) are fixed; the others
	// depend on contraction.
	u, f := unfused.Outputs[0].Bytes, fused.Outputs[0].Bytes
	fixed, loose := -1, -1
	for w := 0; 4*w < len(u); w++ {
		if word(u, w) == word(f, w) {
			fixed = w
		} else {
			loose = w
		}
	}
	if fixed < 0 || loose < 0 {
		t.Fatalf("the fixture has no fixed (%d) or no contraction-dependent (%d) word", fixed, loose)
	}
	judge := func(w int) pipeline.Result {
		bad := asGot(fused)
		bad[0][4*w] ^= 1
		return judged(e.h.Judge(ctx, harnessModule(m), unfused, bad))
	}
	// A wrong answer at a fixed word matches neither: a mismatch.
	if r := judge(fixed); r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Data["fused_reference"], "differs too") {
		t.Fatalf("wrong answer at fixed word %d: %+v", fixed, r)
	}
	// A third value where the references differ is unjudged, never passed.
	if r := judge(loose); r.Status != pipeline.Unjudged || r.Code != codes.EmulatorContractionDependent || !strings.Contains(r.Detail, "word") {
		t.Fatalf("third value at contraction-dependent word %d: %+v", loose, r)
	}
}
