package judge

import (
	"encoding/binary"
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"math"
	"strconv"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
)

// Compare judges lavapipe's buffers against the reference's, word by word, each as its
// element type (kindOfWord): integers and untyped words bit for bit; float, half and
// bfloat lanes bit for bit except that a NaN equals any NaN (data nan_payload_words), and
// that a float denormal flushed to zero on either side is accepted when the module
// disables denormals (data denormals_flushed).
//
// A function that calls order-only operations (ref.Approximate) passes
// with float output words within ULPBound of the reference's; its data says
// how many words needed the bound and the largest distance seen.
func Compare(ref *cpuref.Result, got map[int][]byte) Verdict {
	words, changed, typed, nanPayloads, flushed, undefined := 0, 0, 0, 0, 0, 0
	firstUndefined, undefinedMsg := "", ""
	tol := toleranceFor(ref)
	for i, want := range ref.Outputs {
		in := ref.Inputs[i].Bytes
		have := got[want.Index]
		if want.Index == cpuref.DepthBuffer && have == nil {
			return fail(codes.EmulatorMismatch, "depth", "the AIR function writes depth; the draw has no depth attachment")
		}
		if want.Index == cpuref.StencilBuffer && have == nil {
			return fail(codes.EmulatorMismatch, "stencil", "the AIR function writes a stencil reference; the draw has no stencil attachment")
		}
		if want.Index >= cpuref.RenderTargetBase && want.Index < cpuref.StorageTextureBase && have == nil {
			n := want.Index - cpuref.RenderTargetBase
			return fail(codes.EmulatorMismatch, fmt.Sprintf("render target %d", n),
				fmt.Sprintf("the AIR function writes render target %d; the SPIR-V has no colour output at location %d", n, n))
		}
		kinds := kindsOf(ref.Kernel, want.Index)
		for w := 0; w*4 < len(want.Bytes); w++ {
			a, b, c := Word(want.Bytes, w), Word(have, w), Word(in, w)
			words++
			if a != c || b != c {
				changed++
			}
			kind := kinds.at(w)
			if kind != wordBits {
				typed++
			}
			switch {
			case a == b:
			case kind.sameValue(a, b):
				nanPayloads++
			case kind == wordFloat && tol.accepts(a, b):
			case (kind == wordHalf || kind == wordBFloat) && tol.acceptsLanes(kind, a, b):
			case kind == wordFloat && ref.Kernel.DenormsDisabled && flushedDenormal(a, b):
				flushed++
			case ref.Kernel.NoNaNsOrInfs && kind.nonFiniteDiffer(a, b):
				if undefined == 0 {
					firstUndefined = WordName(ref, want.Index, w)
					undefinedMsg = fmt.Sprintf("expected %s got %s", kind.show(a), kind.show(b))
				}
				undefined++
			default:
				far := ""
				if kind == wordFloat {
					far = tol.farther(a, b)
				}
				r := fail(codes.EmulatorMismatch, WordName(ref, want.Index, w),
					fmt.Sprintf("expected %s got %s (the word started as %#08x%s)", kind.show(a), kind.show(b), c, far))
				r.Data = map[string]string{"compared_as": kind.String()}
				tol.describe(r.Data)
				return r
			}
		}
	}
	if undefined > 0 {
		r := unjudgedBecause(fmt.Sprintf("%d words differ, each where the reference computed a NaN or an infinity in a module compiled with fast math (nnan/ninf), which lets the compiler assume neither arises: the AIR fixes no value there on these inputs; first %s: %s", undefined, firstUndefined, undefinedMsg))
		r.Code, r.Detail = codes.EmulatorFastMathUndefined, firstUndefined
		r.Data = map[string]string{"fast_math_undefined_words": strconv.Itoa(undefined)}
		return r
	}
	if changed == 0 {
		r := unjudgedBecause(fmt.Sprintf("neither the reference nor the device changed any of the %d words: the kernel wrote nothing on these inputs, so nothing was compared", words))
		r.Code, r.Detail = codes.EmulatorWritesNothing, "no word changed"
		return r
	}
	r := Verdict{Status: Passed}
	r.Data = map[string]string{"words_compared": strconv.Itoa(words), "words_written": strconv.Itoa(changed)}
	if typed > 0 {
		r.Data["float_words"] = strconv.Itoa(typed)
	}
	if nanPayloads > 0 {
		r.Data["nan_payload_words"] = strconv.Itoa(nanPayloads)
	}
	if flushed > 0 {
		r.Data["denormals_flushed"] = strconv.Itoa(flushed)
	}
	tol.describe(r.Data)
	return r
}

// WordName names word w of the output with harness index index: "buffer B
// word I", "vertex V output J (NAME) component C" or "render target N pixel
// (X,Y) component C".
func WordName(ref *cpuref.Result, index, w int) string {
	if n := len(ref.Kernel.Outputs); ref.Kernel.Stage == air.Vertex && index == cpuref.OutputBuffer && n > 0 {
		o := ref.Kernel.Outputs[w/4%n]
		name := o.Role
		if o.Name != "" {
			name = o.Name
		}
		return fmt.Sprintf("vertex %d output %d (%s) component %d", w/(4*n), w/4%n, name, w%4)
	}
	if index == cpuref.DepthBuffer || index == cpuref.StencilBuffer {
		width := int(ref.Grid.Size()[0])
		what := "depth"
		if index == cpuref.StencilBuffer {
			what = "stencil"
		}
		return fmt.Sprintf("%s pixel (%d,%d)", what, w%width, w/width)
	}
	if n := index - cpuref.StorageTextureBase; n >= 0 {
		texel := w / (cpuref.TexelSize / 4)
		e := cpuref.TextureExtent
		return fmt.Sprintf("texture %d texel (%d,%d,%d) component %d", n, texel%e, texel/e%e, texel/(e*e), w%(cpuref.TexelSize/4))
	}
	if n := index - cpuref.RenderTargetBase; n >= 0 {
		width := int(ref.Grid.Size()[0])
		px := w / (cpuref.TexelSize / 4)
		return fmt.Sprintf("render target %d pixel (%d,%d) component %d", n, px%width, px/width, w%(cpuref.TexelSize/4))
	}
	return fmt.Sprintf("buffer %d word %d", index, w)
}

// floatWord reports whether word w of the output with harness index index is known to be a
// float: a word of a float render target or of a float vertex output's slot. There, a NaN
// equals any NaN: IEEE 754, Metal and Vulkan leave the sign and payload of a NaN result open
// (an NVIDIA H200 returns 0x7fffffff where the CPU returns 0xffc00000). Buffer words take
// their buffer's element type (kindOfWord).
func floatWord(k *cpuref.Kernel, index, w int) bool {
	switch {
	case k.Stage == air.Vertex && index == cpuref.OutputBuffer && len(k.Outputs) > 0:
		return k.Outputs[w/4%len(k.Outputs)].Kind == 'f'
	case index == cpuref.DepthBuffer:
		return true
	case index >= cpuref.StorageTextureBase:
		for _, t := range k.Textures {
			if t.Writable() && cpuref.StorageTextureBase+t.Index == index {
				return t.Kind == 'f'
			}
		}
	case k.Stage == air.Fragment && index >= cpuref.RenderTargetBase:
		for _, t := range k.Targets {
			if cpuref.RenderTargetBase+t.Index == index {
				return t.Kind == 'f'
			}
		}
	}
	return false
}

// Word is the little-endian 32-bit word w of b, zero-padded past its end.
func Word(b []byte, w int) uint32 {
	var x [4]byte
	if 4*w < len(b) {
		copy(x[:], b[4*w:])
	}
	return binary.LittleEndian.Uint32(x[:])
}

// Show prints a word as hex and as a float.
func Show(w uint32) string {
	return fmt.Sprintf("%#08x (%g)", w, math.Float32frombits(w))
}
