package harness

import (
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"math"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/internal/codes"
)

// Prepare checks a translation (out) against the reference and lays out
// its run on the device named dev: a compute dispatch over the reference's
// grid, a fragment shader's draw or a vertex shader's capture. When the
// module cannot be run in the reference's contract — nothing to compare, a
// depth no attachment holds, bindings or specialization constants that are
// not the AIR entry point's — ok is false and the verdict says why.
func Prepare(dev, name string, out *translate.Output, ref *cpuref.Result) (q Request, v judge.Verdict, ok bool) {
	refl := out.Reflection
	if !anyWritable(ref.Kernel) && len(ref.Kernel.Targets) == 0 && len(ref.Kernel.Outputs) == 0 && !ref.Kernel.WritesDepth && !ref.Kernel.WritesStencil {
		detail := "no writable buffer"
		switch refl.Stage {
		case air.Fragment:
			detail = "no render target or writable buffer"
		case air.Vertex:
			detail = "no output or writable buffer"
		}
		return q, unjudged(codes.EmulatorWritesNothing, detail, "the shader has no buffer it may write and no render target or output: nothing to compare"), false
	}
	if w, px, ok := depthInRange(ref); !ok {
		return q, unjudged(codes.EmulatorNoReference, "depth outside [0, 1]",
			fmt.Sprintf("the function writes depth %s at %s: outside [0, 1], which a depth attachment without VK_EXT_depth_range_unrestricted cannot hold", judge.Show(w), judge.WordName(ref, cpuref.DepthBuffer, px))), false
	}
	if w, px, ok := stencilFits(ref); !ok {
		return q, unjudged(codes.EmulatorNoReference, "stencil above 255",
			fmt.Sprintf("the function writes stencil reference %d at %s: above 255, while every Metal stencil format holds 8 bits, and the Metal Shading Language does not say whether a larger [[stencil]] value is masked or clamped", w, judge.WordName(ref, cpuref.StencilBuffer, px))), false
	}
	if v, ok := checkInterface(presentBindings(refl.Bindings, ref.Kernel), ref.Kernel); !ok {
		return q, v, false
	}
	if v, ok := checkSpecConstants(refl.SpecConstants, ref.Kernel); !ok {
		return q, v, false
	}
	q = Request{Device: dev, Name: name, Entry: out.Entry, SPIRV: out.SPIRV, Grid: ref.Grid, Buffers: ref.Inputs, Kernel: ref.Kernel}
	if refl.Stage == air.Fragment {
		if q.Draw, v, ok = drawRequestFor(refl, ref, out.SPIRV); !ok {
			return Request{}, v, false
		}
	}
	if refl.Stage == air.Vertex {
		if q.Capture, v, ok = captureRequestFor(refl, ref); !ok {
			return Request{}, v, false
		}
	}
	return q, judge.Verdict{}, true
}

// anyWritable reports whether the function has a buffer or texture it may
// write.
func anyWritable(k *cpuref.Kernel) bool {
	for _, b := range k.Buffers {
		if b.Writable() {
			return true
		}
	}
	for _, t := range k.Textures {
		if t.Writable() {
			return true
		}
	}
	return false
}

// depthInRange reports whether every depth the reference wrote lies in
// [0, 1] (what a D32_SFLOAT attachment holds without
// VK_EXT_depth_range_unrestricted); otherwise the first word outside and
// its position.
func depthInRange(ref *cpuref.Result) (uint32, int, bool) {
	for _, o := range ref.Outputs {
		if o.Index != cpuref.DepthBuffer {
			continue
		}
		for w := 0; 4*w < len(o.Bytes); w++ {
			x := judge.Word(o.Bytes, w)
			if f := math.Float32frombits(x); !(f >= 0 && f <= 1) {
				return x, w, false
			}
		}
	}
	return 0, 0, true
}

// stencilFits reports whether every stencil reference the reference wrote
// fits the 8 bits of a stencil attachment; otherwise the first word above
// 255 and its position.
func stencilFits(ref *cpuref.Result) (uint32, int, bool) {
	for _, o := range ref.Outputs {
		if o.Index != cpuref.StencilBuffer {
			continue
		}
		for w := 0; 4*w < len(o.Bytes); w++ {
			if x := judge.Word(o.Bytes, w); x > 0xff {
				return x, w, false
			}
		}
	}
	return 0, 0, true
}

// Describe is the data of a run of q (docs/schema.md): the grid, draw or
// capture it ran as, the textures, samplers and function constants bound,
// the reference's input family and SIMD-group width.
func Describe(ref *cpuref.Result, q Request) map[string]string {
	d := map[string]string{}
	if t := texturesUsed(ref.Kernel); t != "" {
		d["textures"] = t
	}
	if f := functionConstantsUsed(ref.Kernel); f != "" {
		d["function_constants"] = f
	}
	if p := ref.Kernel.Predicates(); p != "" {
		d["function_constant_predicates"] = p
	}
	if a := ref.Kernel.FunctionConstantSearch; a != "" {
		d["function_constant_assignment"] = a // compiler/cpuref/fcsearch.go
	}
	if ref.InputFamily != "" && len(ref.Kernel.Buffers) > 0 {
		d["input_family"] = ref.InputFamily
	}
	if ref.SIMDWidth > 0 {
		d["simd_width"] = strconv.Itoa(ref.SIMDWidth)
	}
	g := ref.Grid
	d["grid"] = fmt.Sprintf("%dx%dx%d groups of %dx%dx%d", g.Groups[0], g.Groups[1], g.Groups[2], g.Threads[0], g.Threads[1], g.Threads[2])
	if q.Capture != nil {
		d["grid"] = fmt.Sprintf("%d vertices", q.Capture.Vertices)
	}
	if q.Draw != nil {
		d["grid"] = fmt.Sprintf("%dx%d pixels", q.Draw.Width, q.Draw.Height)
		if ref.Kernel.WritesDepth {
			d["depth"] = "compared (D32_SFLOAT attachment, test ALWAYS)"
		}
		if ref.Kernel.WritesStencil {
			d["stencil"] = "compared (the 8-bit stencil aspect of a D32_SFLOAT_S8_UINT attachment, test ALWAYS, REPLACE, every reference at most 255)"
		}
	}
	return d
}

// texturesUsed is the data value "textures": which textures and samplers
// were bound, and that their content was uniform, so that a pass says what
// it could not see.
func texturesUsed(k *cpuref.Kernel) string {
	if len(k.Textures) == 0 && len(k.Samplers) == 0 {
		return ""
	}
	var parts []string
	for _, t := range k.Textures {
		p := fmt.Sprintf("%d %s %c", t.Index, t.Dim, t.Kind)
		if t.Writable() {
			p += " " + t.Access + " (starts uniform, read back and compared)"
		}
		parts = append(parts, p)
	}
	s := fmt.Sprintf("uniform (every texel one value; coordinates, filtering and addressing not judged): %d texture(s) [%s], %d sampler(s)",
		len(k.Textures), strings.Join(parts, ", "), len(k.Samplers))
	for _, c := range k.ConstexprSamplers {
		st := c.State
		s += fmt.Sprintf(", constexpr sampler %#016x (mag %s, min %s, mip %s, address %s; decoded from evidence, bound as its VkSampler)",
			st.Word, st.Mag, st.Min, st.Mip, strings.Join(st.Address[:], "/"))
	}
	return s
}
