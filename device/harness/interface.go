package harness

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
)

// checkInterface compares the SPIR-V's bindings (its reflection) with the
// arguments the reference read off the AIR: each binding must be a storage
// buffer at the index of one of the entry point's buffers, a sampled image
// at one of its textures' or a sampler at one of its samplers'.
func checkInterface(bs []translate.Binding, k *cpuref.Kernel) (judge.Verdict, bool) {
	known := map[int]string{}
	for _, b := range k.Buffers {
		known[b.Index] = "storage-buffer"
	}
	for _, t := range k.Textures {
		if t.Writable() {
			known[storageTextureBinding+t.Index] = "storage-image"
		} else {
			known[textureBinding+t.Index] = "sampled-image"
		}
	}
	for _, i := range k.Samplers {
		known[samplerBinding+i] = "sampler"
	}
	if r, ok := bindConstexprSamplers(bs, k, known); !ok { // constexpr.go
		return r, false
	}
	for _, d := range k.Destinations {
		known[inputAttachmentBinding+d.Index] = "input-attachment"
	}
	shape := map[int]string{} // the reference's texture shape, by binding
	for _, t := range k.Textures {
		if t.Writable() {
			shape[storageTextureBinding+t.Index] = t.Dim
		} else {
			shape[textureBinding+t.Index] = t.Dim
		}
	}
	for _, b := range bs {
		if b.Set != 0 || known[b.Binding] == "" || known[b.Binding] != b.Kind {
			return fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("set %d binding %d", b.Set, b.Binding),
				fmt.Sprintf("the SPIR-V declares a %s at set %d binding %d (%s), which is not one of the AIR entry point's buffers", b.Kind, b.Set, b.Binding, b.Metal)), false
		}
		if r, ok := viewShapeMatches(b, shape[b.Binding]); !ok {
			return r, false
		}
	}
	return judge.Verdict{}, true
}

// viewShapeMatches checks that an image binding's declared shape (the
// SPIR-V's Dim, Arrayed and MS) is the view the harness makes for the
// reference's texture shape. A translation may declare a Metal texture as
// another shape (a read-only cube as the 2D array of its faces, ABI.md); the
// harness then cannot bind a view the shader reads as the reference does,
// and the module is unjudged, naming the shape — never a mismatch.
func viewShapeMatches(b translate.Binding, refShape string) (judge.Verdict, bool) {
	if refShape == "" || b.Dim == "" {
		return judge.Verdict{}, true
	}
	want, known := textureDims[refShape]
	got, err := device.TextureDimOf(b.Dim, b.Arrayed)
	if known && err == nil && got == want && b.Multisampled == (cpuref.DimSamples(refShape) > 0) {
		return judge.Verdict{}, true
	}
	declared := b.Dim
	if b.Arrayed {
		declared += " array"
	}
	if b.Multisampled {
		declared += " multisampled"
	}
	return unjudged(codes.EmulatorNotImplemented, "texture view "+declared+" of a "+refShape,
		fmt.Sprintf("the SPIR-V declares %s (binding %d) as a %s image where the reference gives a %s texture: the harness binds views of the reference's shape only",
			b.Metal, b.Binding, declared, refShape)), false
}
