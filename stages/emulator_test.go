package stages

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/proc"
	"github.com/airpipe/airpipe/pipeline"
)

// emuNeed skips when the tools of the reference or lavapipe are absent.
func emuNeed(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"llvm-as-19", "llvm-dis-19", "llc-19", "opt-19", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	d, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe cannot be opened here: %v", err)
	}
	_ = d.Stop()
}

// emuModule assembles a fixture and carries it through reader and translate
// as the pipeline does.
func emuModule(t *testing.T, path string) *Module {
	t.Helper()
	bc, err := exec.Command("llvm-as-19", "-o", "-", path).Output()
	if err != nil {
		t.Fatalf("llvm-as-19 %s: %v", path, err)
	}
	ir, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	eps, err := air.EntryPoints(ir)
	if err != nil || len(eps) != 1 {
		t.Fatalf("%s: %d entry points, %v", path, len(eps), err)
	}
	out, err := translate.Translate(ir, eps[0])
	if err != nil {
		t.Fatalf("translate %s: %v", path, err)
	}
	return &Module{Bitcode: bc, SHA256: filepath.Base(path), artifacts: artifacts{IR: ir, Translation: out}}
}

// emuPasses judges the fixture at path with the emulator stage (the test is
// skipped without the tools) and fails the test unless it passes with each
// key of wantData starting with its value; it returns the module and the
// result.
func emuPasses(t *testing.T, path string, wantData map[string]string) (*Module, pipeline.Result) {
	t.Helper()
	emuNeed(t)
	m := emuModule(t, path)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed {
		t.Fatalf("%s: %s %s %q %s", filepath.Base(path), r.Status, r.Code, r.Detail, r.Message)
	}
	for key, want := range wantData {
		if got := r.Data[key]; !strings.HasPrefix(got, want) {
			t.Fatalf("data %s = %q, want %q…", key, got, want)
		}
	}
	return m, r
}

// referenceAndLavapipe computes m's CPU reference and opens lavapipe (the
// test is skipped without it; the device stops when the test ends).
func referenceAndLavapipe(t *testing.T, m *Module, entry string) (*cpuref.Result, *device.Device) {
	t.Helper()
	ref, err := cpuref.Run(context.Background(), m.Bitcode, entry, cpuref.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dev, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { _ = dev.Stop() })
	return ref, dev
}

func TestEmulatorFixtures(t *testing.T) {
	emuNeed(t)
	cases := []struct {
		file   string
		status pipeline.Status
		code   codes.Code
		detail string
	}{
		{"saxpy.ll", pipeline.Passed, "", ""},
		{"swizzle.ll", pipeline.Passed, "", ""},
		{"builtins.ll", pipeline.Passed, "", ""},
		{"readonly.ll", pipeline.Unjudged, codes.EmulatorWritesNothing, "no writable buffer"},
		{"guarded.ll", pipeline.Unjudged, codes.EmulatorWritesNothing, "no word changed"},
		{"racy.ll", pipeline.Unjudged, codes.EmulatorNoReference, cpuref.KindRace},
		{"../../../testdata/sample/src/scale.ll", pipeline.Passed, "", ""},
		{"../../../testdata/sample/src/sum_sqrt.ll", pipeline.Passed, "", ""}, // approximate: the device's sqrt results substituted
		{"fragment.ll", pipeline.Passed, "", ""},
		{"../../../testdata/sample/src/solid_frag.ll", pipeline.Passed, "", ""},
		{"fragment_silent.ll", pipeline.Unjudged, codes.EmulatorWritesNothing, "no render target or writable buffer"},
		{"vertex.ll", pipeline.Passed, "", ""},
		{"vertex_layer.ll", pipeline.Passed, "", ""},
		{"../../../testdata/sample/src/pass_vert.ll", pipeline.Passed, "", ""},
		{"texture.ll", pipeline.Passed, "", ""},
		{"texture_size.ll", pipeline.Passed, "", ""},
		{"gather.ll", pipeline.Passed, "", ""},
		{"storage_write.ll", pipeline.Passed, "", ""},
		{"fnconst.ll", pipeline.Passed, "", ""},
		{"depth.ll", pipeline.Passed, "", ""},
		{"fract.ll", pipeline.Passed, "", ""},
		{"threadgroup.ll", pipeline.Passed, "", ""},
		{"simd.ll", pipeline.Passed, "", ""},
		// lavapipe (Mesa 22.3) has no shaderStorageImageReadWithoutFormat,
		// which reading a read_write texture of Unknown format needs: the
		// device says so as unavailable (a GPU with it passes the module).
		{"storage_read_write.ll", pipeline.Unavailable, "", ""},
	}
	st := Emulator(EmulatorOptions{})
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			m := emuModule(t, filepath.Join("testdata", "emulator", c.file))
			r := st.Run(context.Background(), m)
			if c.status == pipeline.Unavailable && r.Status == pipeline.Passed {
				t.Logf("this lavapipe has the feature the case was unavailable for: %v", r.Data)
				return
			}
			if c.status == pipeline.Unavailable && !strings.Contains(r.Message, "WithoutFormat") {
				t.Fatalf("unavailable for another reason than the feature: %s %s", r.Status, r.Message)
			}
			if r.Status != c.status || r.Code != c.code || r.Detail != c.detail {
				t.Fatalf("got %s %q %q (%s), want %s %q %q", r.Status, r.Code, r.Detail, r.Message, c.status, c.code, c.detail)
			}
			if r.Status == pipeline.Passed && (r.Data["words_written"] == "" || r.Data["words_written"] == "0") {
				t.Fatalf("passed without a written word: %v", r.Data)
			}
			if c.file == "simd.ll" && r.Data["simd_width"] != "8" {
				t.Fatalf("SIMD-groups judged at width %q, want lavapipe's 8", r.Data["simd_width"])
			}
			if c.file == "gather.ll" && r.Data["input_family"] != "small-integers" {
				t.Fatalf("judged on input family %q, want small-integers", r.Data["input_family"])
			}
			if r.Status == pipeline.Unjudged && r.Message == "" {
				t.Fatal("unjudged without a reason")
			}
			if r.Code == codes.EmulatorNoReference && (len(r.Missing) == 0 || r.Missing[0] != pipeline.Finding{Code: codes.EmulatorNoReference, Detail: c.detail}) {
				t.Fatalf("set aside without what the reference lacks first in Missing: %+v", r.Missing)
			}
			t.Logf("%s %s %v", r.Status, r.Message, r.Data)
		})
	}
}

// plantedLowering judges the AIR of fixture right with the translation of

// compare judges the device's outputs against the reference's
// (judge.Compare) as a stage result.
func compare(ref *cpuref.Result, got map[int][]byte) pipeline.Result {
	return judged(judge.Compare(ref, got))
}

func word(b []byte, w int) uint32 { return judge.Word(b, w) }

// dispatchOn runs ref's inputs through spirv's entry on dev
// (harness.Dispatch), drawn as dq when it is set; the result is why it did
// not run when the outputs are nil.
func dispatchOn(dev *device.Device, spirv []byte, entry string, ref *cpuref.Result, dq *harness.Draw) (map[int][]byte, pipeline.Result) {
	rep := harness.Dispatch(context.Background(), dev, harness.Request{Entry: entry, SPIRV: spirv, Grid: ref.Grid, Buffers: ref.Inputs, Kernel: ref.Kernel, Draw: dq})
	return rep.Buffers, judged(rep.Verdict)
}

// drawOf is the draw harness.Prepare lays out for m's fragment function.
func drawOf(t *testing.T, m *Module, ref *cpuref.Result) *harness.Draw {
	t.Helper()
	q, v, ok := harness.Prepare("lavapipe", m.SHA256, m.Translation, ref)
	if !ok || q.Draw == nil {
		t.Fatalf("draw request: %s %s %s", v.Code, v.Detail, v.Message)
	}
	return q.Draw
}

// lowerings judges testdata/emulator/right on lavapipe, which must pass
// with words written, then the same module with wrong's translation, which
// must be a mismatch; it returns the mismatch for the caller to check where.
func lowerings(t *testing.T, right, wrong string) pipeline.Result {
	t.Helper()
	m := emuModule(t, "testdata/emulator/"+right)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("%s: %s %s %q %s %v", right, r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s: %s %v", right, r.Status, r.Data)
	w := plantedLowering(t, right, wrong)
	if w.Status != pipeline.Failed || w.Code != codes.EmulatorMismatch {
		t.Fatalf("%s: %s %s %q %s, want a mismatch", wrong, w.Status, w.Code, w.Detail, w.Message)
	}
	t.Logf("%s: %q %s", wrong, w.Detail, w.Message)
	return w
}

// fixture wrong, as a translator that lowered it wrongly would hand it on.
func plantedLowering(t *testing.T, right, wrong string) pipeline.Result {
	t.Helper()
	m := emuModule(t, "testdata/emulator/"+right)
	m.Translation = emuModule(t, "testdata/emulator/"+wrong).Translation
	return Emulator(EmulatorOptions{}).Run(context.Background(), m)
}

// TestEmulatorCatchesWrongShuffle plants a wrong lowering: the SPIR-V of
// simd.ll with simd_shuffle_down lowered as simd_shuffle_up, judged against
// the right AIR at lavapipe's SIMD width.
func TestEmulatorCatchesWrongShuffle(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "simd.ll", "simd_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "buffer 1 word 4" {
		t.Fatalf("got %s %s %q %s, want a mismatch at buffer 1 word 4 (thread 0's shuffle_down)", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorCatchesSwappedComponents plants a wrong lowering: the SPIR-V
// of a kernel whose two vector components are swapped, judged against the
// AIR of the right one. The stage must see the mismatch and name the word.
func TestEmulatorCatchesSwappedComponents(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "swizzle.ll", "swizzle_swapped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch {
		t.Fatalf("got %s %s %s, want a mismatch", r.Status, r.Code, r.Message)
	}
	if r.Detail != "buffer 1 word 0" || !strings.HasPrefix(r.Message, "expected ") || !strings.Contains(r.Message, " got ") {
		t.Fatalf("detail %q message %q: want buffer 1 word 0, expected X got Y", r.Detail, r.Message)
	}
}

// TestEmulatorCatchesTextureFaults plants wrong texture lowerings: a
// texel's components swapped, and a texture bound with another texture's
// content (as a wrong binding number would). Both are mismatches at render
// target 0; the right lowering's pass says its textures were uniform.
func TestEmulatorCatchesTextureFaults(t *testing.T) {
	emuNeed(t)
	right := emuModule(t, "testdata/emulator/texture.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), right)
	if r.Status != pipeline.Passed || !strings.HasPrefix(r.Data["textures"], "uniform") || !strings.Contains(r.Data["textures"], "2 texture(s) [0 2d f, 3 2d_array f], 1 sampler(s)") {
		t.Fatalf("right lowering: %s %s %s %v", r.Status, r.Code, r.Message, r.Data)
	}
	wrong := emuModule(t, "testdata/emulator/texture_swapped.ll")
	swapped := *right
	swapped.Translation = wrong.Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), &swapped)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "render target 0 pixel (0,0) component 0" {
		t.Fatalf("swapped components: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}

	ref, dev := referenceAndLavapipe(t, right, "frag")
	dq := drawOf(t, right, ref)
	k := *ref.Kernel
	k.Textures = append([]cpuref.Texture(nil), k.Textures...)
	k.Textures[0].Texel = k.Textures[1].Texel // texture 0 bound with texture 3's content
	moved := *ref
	moved.Kernel = &k
	rep := harness.Dispatch(context.Background(), dev, harness.Request{Entry: "frag", SPIRV: right.Translation.SPIRV, Grid: moved.Grid, Buffers: moved.Inputs, Kernel: moved.Kernel, Draw: dq})
	got := rep.Buffers
	if got == nil {
		t.Fatalf("dispatch: %s %s", rep.Verdict.Code, rep.Verdict.Message)
	}
	if r := compare(ref, got); r.Code != codes.EmulatorMismatch || r.Detail != "render target 0 pixel (0,0) component 0" {
		t.Fatalf("texture bound with another's content: %s %s %q", r.Status, r.Code, r.Detail)
	}
	if dev.Facts().CanTime() && rep.GPUNanos == 0 {
		t.Errorf("the device can time but the draw's split gave no time")
	}
}

// TestEmulatorCatchesStorageFaults plants a wrong lowering of a texture
// write (its coordinates swapped): the texels read back differ from the
// reference's, named by texture, texel and component.
func TestEmulatorCatchesStorageFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "storage_write.ll", "storage_write_swapped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "texture 2 texel (") {
		t.Fatalf("swapped write coordinates: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorCatchesFunctionConstantFaults plants a SPIR-V whose function
// constant sits at another SpecId (an interface mismatch) and a device
// specialised with another value than the reference's (a mismatch).
func TestEmulatorCatchesFunctionConstantFaults(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/fnconst.ll")
	moved := *m.Translation
	moved.Reflection.SpecConstants = append([]translate.SpecConstant(nil), moved.Reflection.SpecConstants...)
	moved.Reflection.SpecConstants[1].ID++
	wrong := *m
	wrong.Translation = &moved
	r := Emulator(EmulatorOptions{}).Run(context.Background(), &wrong)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorInterfaceMismatch || !strings.HasPrefix(r.Detail, "spec constant ") {
		t.Fatalf("moved SpecId: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}

	ref, dev := referenceAndLavapipe(t, m, "fc")
	k := *ref.Kernel
	k.FunctionConstants = append([]cpuref.FunctionConstant(nil), k.FunctionConstants...)
	k.FunctionConstants[1].Word ^= 1 // the float constant, one ULP off
	other := *ref
	other.Kernel = &k
	got, res := dispatchOn(dev, m.Translation.SPIRV, "fc", &other, nil)
	if got == nil {
		t.Fatalf("dispatch: %s %s", res.Code, res.Message)
	}
	if r := compare(ref, got); r.Code != codes.EmulatorMismatch || r.Detail != "buffer 0 word 1" {
		t.Fatalf("another specialisation value: %s %s %q", r.Status, r.Code, r.Detail)
	}
}

// TestEmulatorCatchesDepthFaults plants a wrong lowering of a depth
// output: the depth attachment's words differ, named by pixel.
func TestEmulatorCatchesDepthFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "depth.ll", "depth_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "depth pixel (1,0)" {
		t.Fatalf("wrong depth: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorCatchesSizeQueryFaults plants a wrong use of a texture size
// query: the reference's answers (TextureExtent texels, one layer, one mip)
// must be the device's, word for word.
func TestEmulatorCatchesSizeQueryFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "texture_size.ll", "texture_size_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "buffer 0 word 0" {
		t.Fatalf("wrong size arithmetic: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorCatchesThreadgroupFaults plants two wrong lowerings of a kernel
// whose threads exchange values through threadgroup memory across barriers:
// one reading the wrong neighbour (a wrong result on purpose), and one whose
// barriers are gone, as a translator making air.wg.barrier a no-op would
// emit. lavapipe advances a group's invocations in lockstep batches (8 lanes
// here), so a missing barrier shows only across batches: the reference runs
// a barrier kernel over cpuref.CooperativeGridFor's 32 threads a group, where
// a thread of one batch reads its neighbour in the next before that batch
// ran; over 8 threads a group the barrier-less SPIR-V passes (logged).
func TestEmulatorCatchesThreadgroupFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "threadgroup.ll", "threadgroup_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "buffer 1 word 0" {
		t.Fatalf("wrong neighbour: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	right, wrong := emuModule(t, "testdata/emulator/threadgroup.ll"), emuModule(t, "testdata/emulator/threadgroup_nobarrier.ll")
	if got := controlBarriers(right.Translation.SPIRV); got != 3 {
		t.Fatalf("the translation of threadgroup.ll has %d OpControlBarrier, want 3", got)
	}
	if got := controlBarriers(wrong.Translation.SPIRV); got != 0 {
		t.Fatalf("the planted translation has %d OpControlBarrier, want none", got)
	}
	r = plantedLowering(t, "threadgroup.ll", "threadgroup_nobarrier.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "buffer 1 word ") || r.Data["grid"] != "2x1x1 groups of 32x1x1" {
		t.Fatalf("barriers made no-ops: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	right.Translation = wrong.Translation
	small := EmulatorOptions{Grid: cpuref.Grid{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{8, 1, 1}}}
	r = Emulator(small).Run(context.Background(), right)
	t.Logf("barriers made no-ops, 8 threads a group (one lavapipe batch): %s %s", r.Status, r.Detail)
}

// controlBarriers counts the OpControlBarrier instructions of a SPIR-V module.
func controlBarriers(spv []byte) int {
	n := 0
	for i := 20; i+4 <= len(spv); {
		w := binary.LittleEndian.Uint32(spv[i:])
		if w&0xffff == 224 { // OpControlBarrier
			n++
		}
		size := int(w>>16) * 4
		if size == 0 {
			break
		}
		i += size
	}
	return n
}

// TestEmulatorCatchesUnclampedFract plants GLSL's fract for Metal's: a tiny
// negative value gives 1.0 instead of the largest float below 1.
func TestEmulatorCatchesUnclampedFract(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "fract.ll", "fract_unclamped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "buffer 1 word 1" || !strings.Contains(r.Message, "expected 0x3f7fffff") {
		t.Fatalf("unclamped fract: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorCatchesInterfaceMismatch plants a SPIR-V binding the AIR
// entry point does not have.
func TestEmulatorCatchesInterfaceMismatch(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/swizzle.ll")
	m.Translation.Reflection.Bindings = append(m.Translation.Reflection.Bindings, translate.Binding{Binding: 7, Kind: "storage-buffer", Metal: "air.buffer 7"})
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorInterfaceMismatch || r.Detail != "set 0 binding 7" {
		t.Fatalf("got %s %s %q, want an interface mismatch at set 0 binding 7", r.Status, r.Code, r.Detail)
	}
}

// TestEmulatorCatchesWrongInput plants the other kind of fault: lavapipe
// given inputs other than the reference's (a binding moved by one byte).
func TestEmulatorCatchesWrongInput(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/saxpy.ll")
	ref, dev := referenceAndLavapipe(t, m, "saxpy")
	x := ref.Inputs[1].Bytes
	x[0]++ // buffer 1 (x) read by thread 0
	got, res := dispatchOn(dev, m.Translation.SPIRV, m.Translation.Entry, ref, nil)
	if got == nil {
		t.Fatalf("dispatch: %s %s", res.Code, res.Message)
	}
	x[0]-- // the reference saw the original byte
	r := compare(ref, got)
	// The first differing word is the input itself (buffers are compared
	// whole, read-only ones included), and the result y[0] differs too.
	if r.Status != pipeline.Failed || r.Detail != "buffer 1 word 0" {
		t.Fatalf("got %s %s %q, want a mismatch at buffer 1 word 0", r.Status, r.Code, r.Detail)
	}
	if word(got[2], 0) == word(ref.Outputs[2].Bytes, 0) {
		t.Fatal("y[0] computed from a different x[0] agrees with the reference")
	}
}

// TestEmulatorSetsAside checks the unjudged and unavailable paths: a
// mesh shader, a missing translation, a device that is not there.
func TestEmulatorSetsAside(t *testing.T) {
	mesh := &Module{artifacts: artifacts{Translation: &translate.Output{Reflection: translate.Reflection{Stage: "mesh"}}}}
	r := Emulator(EmulatorOptions{}).Run(context.Background(), mesh)
	if r.Status != pipeline.Unjudged || r.Code != codes.EmulatorNotImplemented || r.Detail != "mesh" || !strings.Contains(r.Message, "mesh execution not implemented") {
		t.Fatalf("mesh: %+v", r)
	}
	if r := Emulator(EmulatorOptions{}).Run(context.Background(), &Module{}); r.Status != pipeline.Failed || r.Code != codes.EmulatorNoTranslation {
		t.Fatalf("no translation: %+v", r)
	}
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/swizzle.ll")
	r = Emulator(EmulatorOptions{Device: "no-such-gpu"}).Run(context.Background(), m)
	if r.Status != pipeline.Unavailable || r.Message == "" {
		t.Fatalf("absent device: %+v", r)
	}
}

// TestEmulatorCorpus runs every compute kernel of the real corpus through
// reader, translate and the emulator, and counts the verdicts by reason.
func TestEmulatorCorpus(t *testing.T) {
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS is not set: no real corpus to run")
	}
	emuNeed(t)
	counts := emuCorpus(t, root)
	if counts["passed"] == 0 {
		t.Error("no corpus kernel passed the emulator")
	}
}

// TestEmulatorGrids runs the built-ins fixture over other grids: one
// threadgroup of 4×4, 3×1 groups of 8×2 threads, 2×3 groups of 3×2.
func TestEmulatorGrids(t *testing.T) {
	emuNeed(t)
	for _, g := range []cpuref.Grid{
		{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 4, 1}},
		{Groups: [3]uint32{3, 1, 1}, Threads: [3]uint32{8, 2, 1}},
		{Groups: [3]uint32{2, 3, 1}, Threads: [3]uint32{3, 2, 1}},
	} {
		m := emuModule(t, "testdata/emulator/builtins.ll")
		r := Emulator(EmulatorOptions{Grid: g}).Run(context.Background(), m)
		if r.Status != pipeline.Passed {
			t.Fatalf("grid %v: %s %s %s %s", g, r.Status, r.Code, r.Detail, r.Message)
		}
		want := fmt.Sprintf("%dx%dx%d groups of %dx%dx%d", g.Groups[0], g.Groups[1], g.Groups[2], g.Threads[0], g.Threads[1], g.Threads[2])
		if r.Data["grid"] != want {
			t.Fatalf("grid recorded as %q, want %q", r.Data["grid"], want)
		}
	}
}

// TestEmulatorChildProcess is the child side of TestEmulatorChild, run by
// the test binary itself.
func TestEmulatorChildProcess(t *testing.T) {
	switch os.Getenv("AIRPIPE_EMU_CHILD") {
	case "serve":
		if err := harness.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "serve-fast", "serve-default":
		// The emulator's children compile fast (GALLIVM_PERF=nopt) unless
		// the stage was asked for lavapipe's defaults.
		fast := strings.Contains(os.Getenv("GALLIVM_PERF"), "nopt")
		if fast != (os.Getenv("AIRPIPE_EMU_CHILD") == "serve-fast") {
			fmt.Fprintf(os.Stderr, "GALLIVM_PERF=%q in a %s child\n", os.Getenv("GALLIVM_PERF"), os.Getenv("AIRPIPE_EMU_CHILD"))
			os.Exit(3)
		}
		if err := harness.Serve(checkDraws(os.Stdin, fast), os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "crash":
		// A driver that dies on the shader (SIGKILL: Go's runtime would
		// turn a SIGSEGV sent by kill into a panic and exit status 2).
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

// checkDraws passes r's request lines on, and exits the child (status 3) at
// a draw request that asks for a scratch depth attachment when scratch is
// not set, or does not when it is.
func checkDraws(r io.Reader, scratch bool) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			line := sc.Bytes()
			if bytes.Contains(line, []byte(`"draw":{`)) && bytes.Contains(line, []byte(`"scratch_depth":true`)) != scratch {
				fmt.Fprintf(os.Stderr, "a draw request without the scratch depth attachment asked for (%v)\n", scratch)
				os.Exit(3)
			}
			if _, err := pw.Write(append(line, '\n')); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err())
	}()
	return pr
}

// TestEmulatorChild runs the dispatch in a child process: the verdict is the
// same as in-process, and a child that crashes fails only its module.
func TestEmulatorChild(t *testing.T) {
	emuNeed(t)
	argv := []string{os.Args[0], "-test.run=^TestEmulatorChildProcess$"}
	m := emuModule(t, "testdata/emulator/saxpy.ll")
	r := Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: []string{"AIRPIPE_EMU_CHILD=serve"}}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["emulator_device"] == "" {
		t.Fatalf("through a child: %s %s %s %s", r.Status, r.Code, r.Detail, r.Message)
	}
	wrong := emuModule(t, "testdata/emulator/swizzle_swapped.ll")
	right := emuModule(t, "testdata/emulator/swizzle.ll")
	right.Translation = wrong.Translation
	r = Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: []string{"AIRPIPE_EMU_CHILD=serve"}}).Run(context.Background(), right)
	if r.Code != codes.EmulatorMismatch {
		t.Fatalf("planted swap through a child: %s %s %s", r.Status, r.Code, r.Message)
	}
	// A draw and a capture travel through the child too, and a reference cache returns the
	// same verdict the second time (from the stored reference).
	cache := t.TempDir()
	for _, f := range []string{"fragment.ll", "vertex.ll"} {
		for run := range 2 {
			g := emuModule(t, "testdata/emulator/"+f)
			r := Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: []string{"AIRPIPE_EMU_CHILD=serve"}, ReferenceCache: cache}).Run(context.Background(), g)
			if r.Status != pipeline.Passed {
				t.Fatalf("%s through a child (run %d): %s %s %s %s", f, run, r.Status, r.Code, r.Detail, r.Message)
			}
		}
	}
	if stored, _ := filepath.Glob(filepath.Join(cache, "*.json")); len(stored) != 2 {
		t.Fatalf("reference cache holds %d entries, want 2", len(stored))
	}
	r = Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: []string{"AIRPIPE_EMU_CHILD=crash"}}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorDriverCrash || !strings.HasPrefix(r.Detail, "signal ") {
		t.Fatalf("crashing child: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorChildRetires runs modules through children retired after every reply (a
// one-byte resident-set budget) and through children with the default budget, which none of
// these reaches: each retiring request ends its child, and every row is the same.
func TestEmulatorChildRetires(t *testing.T) {
	emuNeed(t)
	argv := []string{os.Args[0], "-test.run=^TestEmulatorChildProcess$"}
	env := []string{"AIRPIPE_EMU_CHILD=serve"}
	ended := func() int { return proc.Tally()[proc.ProgramName(proc.Spec{Path: argv[0], Args: argv[1:]})].Runs }
	files := []string{"saxpy.ll", "swizzle.ll", "fragment.ll", "vertex.ll"}
	rows := func(maxRSS uint64) (out []string) {
		st := Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: env, ChildMaxRSS: maxRSS})
		for _, f := range files {
			r := st.Run(context.Background(), emuModule(t, "testdata/emulator/"+f))
			if r.Status != pipeline.Passed {
				t.Fatalf("%s (budget %d): %s %s %s %s", f, maxRSS, r.Status, r.Code, r.Detail, r.Message)
			}
			var data []string
			for k, v := range r.Data {
				if !strings.HasSuffix(k, "_ms") && !strings.HasSuffix(k, "_ns") { // timings
					data = append(data, k+"="+v)
				}
			}
			sort.Strings(data)
			out = append(out, fmt.Sprint(f, r.Status, r.Code, r.Detail, r.Message, data))
		}
		return out
	}
	before := ended()
	want := rows(0)
	if n := ended() - before; n != 0 {
		t.Fatalf("%d children ended under the default budget", n)
	}
	before = ended()
	got := rows(1)
	if n := ended() - before; n < len(files) {
		t.Errorf("%d children ended over a one-byte budget, want one per request (at least %d)", n, len(files))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("retiring children: %s\nsteady children:   %s", got[i], want[i])
		}
	}
}

// TestEmulatorCatchesFragmentFaults plants wrong lowerings of fragment shaders: the SPIR-V of
// a function whose render target components are swapped, and a reflection that gives two
// varyings each other's locations (so the draw feeds each the other's constant). Both must be
// mismatches naming the render target, pixel and component.
func TestEmulatorCatchesFragmentFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "fragment.ll", "fragment_swapped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "render target 0 pixel (0,0) component 0" {
		t.Fatalf("swapped components: got %s %s %q (%s), want a mismatch at render target 0 pixel (0,0) component 0", r.Status, r.Code, r.Detail, r.Message)
	}
	m := emuModule(t, "testdata/emulator/fragment_two.ll")
	if r := Emulator(EmulatorOptions{}).Run(context.Background(), m); r.Status != pipeline.Passed {
		t.Fatalf("fragment_two.ll: %s %s %s", r.Status, r.Code, r.Message)
	}
	swapVaryingNames(t, m.Translation.Reflection.Inputs)
	r = Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "render target 0 pixel (0,0)") {
		t.Fatalf("swapped varyings: got %s %s %q (%s), want a mismatch", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Log(r.Message)
}

// swapVaryingNames gives the two located varyings of a reflection each
// other's names, as a translator that mixed up their locations would.
func swapVaryingNames(t *testing.T, vs []translate.Varying) {
	t.Helper()
	var named []int
	for i, v := range vs {
		if v.Location >= 0 {
			named = append(named, i)
		}
	}
	if len(named) != 2 {
		t.Fatalf("reflection varyings %+v: want two", vs)
	}
	vs[named[0]].Name, vs[named[1]].Name = vs[named[1]].Name, vs[named[0]].Name
}

// TestEmulatorCatchesVertexFaults plants wrong lowerings of a vertex shader: SPIR-V whose
// position components are swapped, and a reflection that gives two varyings each other's
// names (so each is captured into the other's slot).
func TestEmulatorCatchesVertexFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "vertex.ll", "vertex_swapped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "vertex 1 output 0 (air.position) component 0" {
		t.Fatalf("swapped components: got %s %s %q (%s), want a mismatch at vertex 1 output 0 component 0", r.Status, r.Code, r.Detail, r.Message)
	}
	m := emuModule(t, "testdata/emulator/vertex.ll")
	swapVaryingNames(t, m.Translation.Reflection.Outputs)
	r = Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "vertex 0 output 1") {
		t.Fatalf("swapped varyings: got %s %s %q (%s), want a mismatch at vertex 0 output 1", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Log(r.Detail, ": ", r.Message)
}

// TestCompareNaN: a NaN in a float output equals any NaN (sign and payload are left open by
// IEEE 754, Metal and Vulkan); in an integer output or a buffer the same words differ.
func TestCompareNaN(t *testing.T) {
	le := func(ws ...uint32) []byte {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
		return b
	}
	in := le(cpuref.Clear[:]...)
	want := le(0xffc00000, 1, cpuref.Clear[2], cpuref.Clear[3])
	got := le(0x7fffffff, 1, cpuref.Clear[2], cpuref.Clear[3])
	for _, c := range []struct {
		name  string
		k     *cpuref.Kernel
		index int
		pass  bool
	}{
		{"float vertex output", &cpuref.Kernel{Stage: "vertex", Outputs: []cpuref.VertexOutput{{Kind: 'f', Components: 2}}}, cpuref.OutputBuffer, true},
		{"int vertex output", &cpuref.Kernel{Stage: "vertex", Outputs: []cpuref.VertexOutput{{Kind: 'i', Components: 2}}}, cpuref.OutputBuffer, false},
		{"float render target", &cpuref.Kernel{Stage: "fragment", Targets: []cpuref.RenderTarget{{Index: 1, Kind: 'f'}}}, cpuref.RenderTargetBase + 1, true},
		{"uint render target", &cpuref.Kernel{Stage: "fragment", Targets: []cpuref.RenderTarget{{Index: 1, Kind: 'u'}}}, cpuref.RenderTargetBase + 1, false},
		{"kernel buffer", &cpuref.Kernel{}, 3, false},
	} {
		ref := &cpuref.Result{Kernel: c.k, Grid: cpuref.Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}},
			Inputs: []cpuref.Data{{Index: c.index, Bytes: in}}, Outputs: []cpuref.Data{{Index: c.index, Bytes: want}}}
		r := compare(ref, map[int][]byte{c.index: got})
		if (r.Status == pipeline.Passed) != c.pass {
			t.Errorf("%s: %s %s %s, want passed=%v", c.name, r.Status, r.Detail, r.Message, c.pass)
		}
	}
}

// TestEmulatorFastCompile judges a kernel with a loop and a fragment shader
// twice each through children: with the stage's fast compile (loops marked
// DontUnroll, draws with a scratch depth attachment, GALLIVM_PERF=nopt in the
// child; each child checks its environment and every draw request it reads)
// and with lavapipe's defaults. Loop controls, a depth test that passes every
// fragment and llvmpipe's optimisation passes change how long lavapipe
// compiles, never what the function computes: both pass with the same
// output. A child whose environment or draws are not the ones asked for
// exits, failing its row: the check can fail.
func TestEmulatorFastCompile(t *testing.T) {
	emuNeed(t)
	t.Setenv("GALLIVM_PERF", "")
	argv := []string{os.Args[0], "-test.run=^TestEmulatorChildProcess$"}
	for _, fixture := range []string{"bfloat_gemv.ll", "fragment.ll"} {
		run := func(defaults bool, mode string) pipeline.Result {
			m := emuModule(t, "testdata/emulator/"+fixture)
			return Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: []string{"AIRPIPE_EMU_CHILD=" + mode}, LavapipeDefaults: defaults}).Run(context.Background(), m)
		}
		fast, slow := run(false, "serve-fast"), run(true, "serve-default")
		for _, r := range []pipeline.Result{fast, slow} {
			if r.Status != pipeline.Passed {
				t.Fatalf("%s: %s %s %q %s", fixture, r.Status, r.Code, r.Detail, r.Message)
			}
		}
		if fast.Data["output_sha256"] != slow.Data["output_sha256"] {
			t.Fatalf("%s: outputs differ: fast %s, defaults %s", fixture, fast.Data["output_sha256"], slow.Data["output_sha256"])
		}
		if r := run(true, "serve-fast"); r.Code != codes.EmulatorDriverCrash {
			t.Fatalf("%s: a default-compiling child that expected the fast compile: %s %s %s", fixture, r.Status, r.Code, r.Message)
		}
		if r := run(false, "serve-default"); r.Code != codes.EmulatorDriverCrash {
			t.Fatalf("%s: a fast-compiling child that expected the defaults: %s %s %s", fixture, r.Status, r.Code, r.Message)
		}
	}
}

// TestEmulatorMarksLoops: the fast compile's loop marking reads the SPIR-V
// it sends, and refuses words that are not SPIR-V by name; lavapipe's
// defaults send them as they are (and the driver refuses them).
func TestEmulatorMarksLoops(t *testing.T) {
	emuNeed(t)
	for _, defaults := range []bool{false, true} {
		m := emuModule(t, "testdata/emulator/saxpy.ll")
		m.Translation.SPIRV = append([]byte{1, 2, 3, 4}, m.Translation.SPIRV[4:]...)
		r := Emulator(EmulatorOptions{LavapipeDefaults: defaults}).Run(context.Background(), m)
		marked := r.Detail == "loop controls" && strings.Contains(r.Message, "magic number")
		if r.Status != pipeline.Failed || marked == defaults {
			t.Fatalf("lavapipe defaults %v: %s %s %q %s", defaults, r.Status, r.Code, r.Detail, r.Message)
		}
	}
}

// TestEmulatorSharesIdenticalRuns: a second module whose request to lavapipe
// is the first's (here the same fixture, as library variants are) takes the
// first's run, says so in its data and is judged as the first was; a run that
// failed is not shared; the device stage's emulator never shares (it reruns
// a mismatch to tell a flaky device).
func TestEmulatorSharesIdenticalRuns(t *testing.T) {
	emuNeed(t)
	st := Emulator(EmulatorOptions{})
	first := st.Run(context.Background(), emuModule(t, "testdata/emulator/saxpy.ll"))
	second := st.Run(context.Background(), emuModule(t, "testdata/emulator/saxpy.ll"))
	if first.Status != pipeline.Passed || second.Status != pipeline.Passed {
		t.Fatalf("%s %s / %s %s", first.Status, first.Message, second.Status, second.Message)
	}
	if first.Data["shared_run"] != "" || second.Data["shared_run"] == "" || first.Data["output_sha256"] != second.Data["output_sha256"] {
		t.Fatalf("first shared %q, second %q; digests %s %s", first.Data["shared_run"], second.Data["shared_run"], first.Data["output_sha256"], second.Data["output_sha256"])
	}
	// A run that crashed its child: the second module runs again (and crashes again).
	argv := []string{os.Args[0], "-test.run=^TestEmulatorChildProcess$"}
	crashing := Emulator(EmulatorOptions{ChildArgv: argv, ChildEnv: []string{"AIRPIPE_EMU_CHILD=crash"}})
	for range 2 {
		if r := crashing.Run(context.Background(), emuModule(t, "testdata/emulator/saxpy.ll")); r.Code != codes.EmulatorDriverCrash || r.Data["shared_run"] != "" {
			t.Fatalf("a crashed run: %s %s %v", r.Code, r.Message, r.Data)
		}
	}
	dev := newEmulator(EmulatorOptions{}, true)
	for range 2 {
		if r := dev.run(context.Background(), emuModule(t, "testdata/emulator/saxpy.ll")); r.Status != pipeline.Passed || r.Data["shared_run"] != "" {
			t.Fatalf("the device stage's emulator: %s %s %v", r.Status, r.Message, r.Data["shared_run"])
		}
	}
}
