package harness

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/internal/codes"
)

// TestCheckInterfaceResources: the SPIR-V's sampled images, samplers and
// storage images must sit where the descriptor ABI puts the AIR's textures
// and samplers, with the right kind; anything else is an interface mismatch.
func TestCheckInterfaceResources(t *testing.T) {
	k := &cpuref.Kernel{
		Buffers:  []cpuref.Buffer{{Index: 0}},
		Textures: []cpuref.Texture{{Index: 1, Access: "sample"}, {Index: 2, Access: "write"}},
		Samplers: []int{3},
		// Programmable blending: the function reads colour attachment 1.
		Destinations: []cpuref.Destination{{Index: 1, Kind: 'f'}},
	}
	for _, c := range []struct {
		name string
		b    translate.Binding
		ok   bool
	}{
		{"buffer", translate.Binding{Binding: 0, Kind: "storage-buffer"}, true},
		{"sampled texture", translate.Binding{Binding: textureBinding + 1, Kind: "sampled-image"}, true},
		{"writable texture", translate.Binding{Binding: storageTextureBinding + 2, Kind: "storage-image"}, true},
		{"sampler", translate.Binding{Binding: samplerBinding + 3, Kind: "sampler"}, true},
		{"texture at another index", translate.Binding{Binding: textureBinding + 2, Kind: "sampled-image"}, false},
		{"writable texture as sampled", translate.Binding{Binding: storageTextureBinding + 2, Kind: "sampled-image"}, false},
		{"sampled texture as storage", translate.Binding{Binding: textureBinding + 1, Kind: "storage-image"}, false},
		{"sampler at a texture's binding", translate.Binding{Binding: textureBinding + 1, Kind: "sampler"}, false},
		{"another set", translate.Binding{Set: 1, Binding: samplerBinding + 3, Kind: "sampler"}, false},
		{"input attachment", translate.Binding{Binding: inputAttachmentBinding + 1, Kind: "input-attachment", Dim: "SubpassData"}, true},
		{"input attachment the AIR does not read", translate.Binding{Binding: inputAttachmentBinding + 2, Kind: "input-attachment", Dim: "SubpassData"}, false},
	} {
		r, ok := checkInterface([]translate.Binding{c.b}, k)
		if ok != c.ok || !ok && (r.Code != codes.EmulatorInterfaceMismatch || !strings.HasPrefix(r.Detail, "set ")) {
			t.Errorf("%s: ok %v (%s %q), want %v", c.name, ok, r.Code, r.Detail, c.ok)
		}
	}
}

// TestCheckInterfaceViewShapes: an image the SPIR-V declares in another
// shape than the reference's texture (a cube read as a 2D array of faces, a
// multisampled image) is set aside by name, never bound as a wrong view.
func TestCheckInterfaceViewShapes(t *testing.T) {
	k := &cpuref.Kernel{Textures: []cpuref.Texture{{Index: 1, Access: "read", Dim: "cube"}, {Index: 2, Access: "sample", Dim: "2d"}}}
	for _, c := range []struct {
		name   string
		b      translate.Binding
		ok     bool
		detail string
	}{
		{"cube as cube", translate.Binding{Binding: textureBinding + 1, Kind: "sampled-image", Dim: "Cube"}, true, ""},
		{"cube as 2D array", translate.Binding{Binding: textureBinding + 1, Kind: "sampled-image", Dim: "2D", Arrayed: true}, false, "texture view 2D array of a cube"},
		{"2D as 2D", translate.Binding{Binding: textureBinding + 2, Kind: "sampled-image", Dim: "2D"}, true, ""},
		{"2D as multisampled", translate.Binding{Binding: textureBinding + 2, Kind: "sampled-image", Dim: "2D", Multisampled: true}, false, "texture view 2D multisampled of a 2d"},
	} {
		r, ok := checkInterface([]translate.Binding{c.b}, k)
		if ok != c.ok || !ok && (r.Status != judge.Unjudged || r.Code != codes.EmulatorNotImplemented || r.Detail != c.detail) {
			t.Errorf("%s: ok %v (%s %s %q), want %v %q", c.name, ok, r.Status, r.Code, r.Detail, c.ok, c.detail)
		}
	}
}

// TestDepthChecks: a reference depth outside [0, 1] (or NaN) is found and
// named; a draw that brought no depth back is a mismatch, not a pass.
func TestDepthChecks(t *testing.T) {
	depth := func(ws ...float32) *cpuref.Result {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(w))
		}
		k := &cpuref.Kernel{Stage: "fragment", WritesDepth: true}
		return &cpuref.Result{Kernel: k, Grid: cpuref.DefaultGrid(),
			Inputs:  []cpuref.Data{{Index: cpuref.DepthBuffer, Bytes: cpuref.ClearDepthBuffer(len(ws), 1)}},
			Outputs: []cpuref.Data{{Index: cpuref.DepthBuffer, Bytes: b}}}
	}
	nan := float32(math.NaN())
	for _, c := range []struct {
		ws []float32
		px int
		ok bool
	}{
		{[]float32{0, 0.5, 1}, 0, true},
		{[]float32{0.5, 1.5}, 1, false},
		{[]float32{-0.25}, 0, false},
		{[]float32{0.5, 0.5, nan}, 2, false},
	} {
		_, px, ok := depthInRange(depth(c.ws...))
		if ok != c.ok || !ok && px != c.px {
			t.Errorf("%v: pixel %d ok %v, want pixel %d ok %v", c.ws, px, ok, c.px, c.ok)
		}
	}
	if r := judge.Compare(depth(0.5, 0.25), map[int][]byte{}); r.Status != judge.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "depth" {
		t.Errorf("no depth brought back: %s %s %q", r.Status, r.Code, r.Detail)
	}
}

// TestCaptureWithoutOutputs: a vertex function that returns nothing runs
// for its buffer writes (no outputs, stride 0); one with a position output
// captures it.
func TestCaptureWithoutOutputs(t *testing.T) {
	ref := &cpuref.Result{Kernel: &cpuref.Kernel{Name: "vs", Stage: "vertex"}}
	cq, r, ok := captureRequestFor(translate.Reflection{}, ref)
	if !ok || cq == nil || cq.Stride != 0 || len(cq.Outputs) != 0 || cq.Vertices != cpuref.Vertices {
		t.Errorf("got %+v %+v %v", cq, r, ok)
	}
	ref.Kernel.Outputs = []cpuref.VertexOutput{{Role: "air.position", Name: "pos"}}
	if cq, r, ok := captureRequestFor(translate.Reflection{}, ref); !ok || cq.Stride != 16 || len(cq.Outputs) != 1 {
		t.Errorf("a vertex function with a position output: %+v %+v", cq, r)
	}
}

// TestMatchInputAttachments: the SPIR-V must read the attachments the AIR reads, as the same
// kind; each difference is an interface mismatch naming the attachment.
func TestMatchInputAttachments(t *testing.T) {
	ds := []cpuref.Destination{{Index: 0, Kind: 'f'}, {Index: 1, Kind: 'u'}}
	for _, c := range []struct {
		name   string
		ias    []translate.InputAttachment
		detail string
	}{
		{"same", []translate.InputAttachment{{Index: 0, SampledType: "float"}, {Index: 1, SampledType: "uint"}}, ""},
		{"another kind", []translate.InputAttachment{{Index: 0, SampledType: "float"}, {Index: 1, SampledType: "int"}}, "input attachment 1"},
		{"one more", []translate.InputAttachment{{Index: 0, SampledType: "float"}, {Index: 1, SampledType: "uint"}, {Index: 2, SampledType: "float"}}, "input attachment 2"},
		{"one fewer", []translate.InputAttachment{{Index: 1, SampledType: "uint"}}, "input attachment 0"},
	} {
		r, ok := matchInputAttachments(c.ias, ds)
		if ok != (c.detail == "") || !ok && (r.Code != codes.EmulatorInterfaceMismatch || r.Detail != c.detail) {
			t.Errorf("%s: ok %v %s %q, want %q", c.name, ok, r.Code, r.Detail, c.detail)
		}
	}
}
