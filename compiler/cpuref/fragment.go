package cpuref

import (
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"math"
	"strings"
)

// RenderTargetBase is the harness buffer index of render target 0: render target n of a
// fragment function is the reference's "buffer" RenderTargetBase+n (Metal buffers are 0..30),
// W×H pixels of TexelSize bytes, row-major.
const RenderTargetBase = 32

// TexelSize is the bytes per pixel of a render target: four 32-bit components, whatever the
// output's type. A half output is widened to float and an 8- or 16-bit integer to 32 bits (the
// SPIR-V interface is 32-bit, compiler/translate/ABI.md); components the output lacks keep the
// clear value.
const TexelSize = 16

// Clear is the value every render target holds before the draw, per component: finite floats
// read as float, distinctive words read as integers, so an untouched pixel shows.
var Clear = [4]uint32{0x7f7f7f7f, 0x7e7e7e7e, 0x7d7d7d7d, 0x7c7c7c7c}

// DepthBuffer is the harness buffer index of a fragment function's air.depth output: W×H
// float32 words, row-major, the depth of pixel (x, y) at byte 4·(y·W+x).
const DepthBuffer = 56

// ClearDepth is the word every pixel of DepthBuffer holds before the draw: 1.0, the clear
// value of the draw's depth attachment.
const ClearDepth = 0x3f800000

// StencilBuffer is the harness buffer index of a fragment function's air.stencil output:
// W×H 32-bit words, row-major, the stencil reference value of pixel (x, y) — the whole uint
// the function returned — at byte 4·(y·W+x).
const StencilBuffer = 57

// ClearStencil is the word every pixel of StencilBuffer holds before the draw: the clear
// value of the draw's stencil aspect (an 8-bit value).
const ClearStencil = 0x5a

// RenderTarget is one air.render_target output of a fragment function.
type RenderTarget struct {
	// Index is the Metal colour attachment index (air.render_target n).
	Index int
	// Field is the output's field in the returned struct, -1 when the function returns it alone.
	Field int
	// Type is its LLVM type (<4 x float>, half, <2 x i16> ...).
	Type string
	// Kind is 'f' (float or half), 'i' (signed integer) or 'u' (unsigned integer).
	Kind byte
	// Components is 1..4.
	Components int
}

// Input is one air.fragment_input of a fragment function and the constant every pixel reads
// from it (the reference's choice, a pattern independent of the pixel), or one air.vertex_input
// of a vertex function and its value per vertex.
type Input struct {
	// Param is the parameter's position; Name is its AIR varying key ("generated(5color)").
	Param int
	Name  string
	// Type is its LLVM type; Kind and Components as for RenderTarget.
	Type       string
	Kind       byte
	Components int
	// Words are the value's 32-bit interface words, one per component: a float as float,
	// a half widened to float, an integer sign- or zero-extended.
	Words []uint32 `json:",omitempty"`
	// Location is a vertex input's attribute location (air.location_index); PerVertex are
	// its words for each vertex (vertex functions only).
	Location  int        `json:",omitempty"`
	PerVertex [][]uint32 `json:",omitempty"`
}

// inputValue is the constant of component c of the i-th fragment input: k = 4i+c gives
// ±(3k+2)/8 for floats (exact in half and float) and ±(3k+1) for integers (exact in i8),
// alternating in sign, positive for unsigned.
func inputValue(i, c int, kind byte) uint32 {
	k := 4*i + c
	sign := 1 - 2*(k%2)
	switch kind {
	case 'f':
		return math.Float32bits(float32(sign) * float32(3*k+2) / 8)
	case 'i':
		return uint32(int32(sign * (3*k + 1)))
	}
	return uint32(3*k + 1)
}

// kindOf reads the numeric kind of an AIR varying or output from its LLVM type and Metal type
// name (air.arg_type_name), and its component count.
func kindOf(ty, typeName string) (byte, int, bool) {
	n := 1
	if strings.HasPrefix(ty, "<") {
		if _, err := fmt.Sscanf(vecLen(ty), "%d", &n); err != nil {
			return 0, 0, false
		}
	}
	if n < 1 || n > 4 {
		return 0, 0, false
	}
	switch elem(ty) {
	case "float", "half":
		return 'f', n, true
	case "i8", "i16", "i32":
		if strings.HasPrefix(typeName, "u") {
			return 'u', n, true
		}
		return 'i', n, true
	}
	return 0, 0, false
}

// keyString finds the string after key among metadata operands.
func keyString(ops []string, key string) string {
	for i := 0; i+1 < len(ops); i++ {
		if s, _ := mdString(ops[i]); s == key {
			v, _ := mdString(ops[i+1])
			return v
		}
	}
	return ""
}

// fragmentOps are the air.* operations a fragment function may call that the reference
// cannot imitate, and why: each has a Kind of its own. Derivatives (dfdx, dfdy, fwidth) are
// not among them: RunText's checkDerivatives (derivative.go) lets those of pixel-independent
// values run and sets the others aside (KindDerivative).
var fragmentOps = []struct{ prefix, kind, reason string }{}

// inspectFragment reads a fragment function's interface: its render targets, varyings,
// position and buffers. What the reference cannot give it is a *NotJudgeableError.
func inspectFragment(t *textModule, entry string, node []string) (*Kernel, error) {
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "declare ") {
			continue
		}
		for _, op := range fragmentOps {
			if strings.Contains(l, "@"+op.prefix) {
				return nil, notJudgeable(op.kind, op.prefix, "%s", op.reason)
			}
		}
	}
	k, err := newKernel(t, entry, air.Fragment, node)
	if err != nil {
		return nil, err
	}
	err = k.eachOutput(t, entry, node, func(ref string, o []string, role, ty string, field int) error {
		switch role {
		case "air.render_target":
			if len(o) < 3 {
				return fmt.Errorf("cpuref: render target node %s of @%s is too short", ref, entry)
			}
			n, ok := mdInt(o[1])
			idx, second := mdInt(o[2]) // AIR may leave the second index out
			if !second {
				idx = 0
			}
			if !ok || n < 0 || n > 7 {
				return fmt.Errorf("cpuref: render target node %s of @%s: index %q", ref, entry, o[1])
			}
			if idx != 0 {
				return notJudgeable(KindArgument, "dual-source render target", "render target %d index %d: dual-source blending, which the draw does not set up", n, idx)
			}
			kind, comps, ok := kindOf(ty, keyString(o, "air.arg_type_name"))
			if !ok {
				return notJudgeable(KindArgument, "render target "+ty, "render target %d of type %s, which the draw cannot read back", n, ty)
			}
			for _, r := range k.Targets {
				if r.Index == int(n) {
					return fmt.Errorf("cpuref: @%s writes render target %d twice", entry, n)
				}
			}
			k.Targets = append(k.Targets, RenderTarget{Index: int(n), Field: field, Type: ty, Kind: kind, Components: comps})
		case "air.depth":
			return singleOutput(&k.WritesDepth, &k.DepthField, entry, role, ty, field, "float", "a depth output of type %s; the draw's depth attachment holds float")
		case "air.stencil":
			return singleOutput(&k.WritesStencil, &k.StencilField, entry, role, ty, field, "i32", "a stencil output of type %s; Metal's [[stencil]] is a uint")
		default:
			return notJudgeable(KindArgument, "output "+role, "an output of role %s (it can remove the pixel or change what is stored), which the draw does not reproduce", role)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = k.bindArguments(t, entry, node, func(p *Param, n int, role string, arg []string) error {
		switch role {
		case "air.fragment_input":
			name, _ := mdString(first(arg[2:]))
			kind, comps, ok := kindOf(p.Type, keyString(arg, "air.arg_type_name"))
			if !ok {
				return notJudgeable(KindArgument, "fragment input "+p.Type, "a fragment input of type %s, which the draw cannot give a constant", p.Type)
			}
			in := Input{Param: n, Name: name, Type: p.Type, Kind: kind, Components: comps}
			for c := range comps {
				in.Words = append(in.Words, inputValue(len(k.Inputs), c, kind))
			}
			k.Inputs = append(k.Inputs, in)
		case "air.render_target": // programmable blending (blend.go)
			return k.addDestination(p, n, arg, entry)
		case "air.position":
			if p.Type != "<4 x float>" {
				return notJudgeable(KindArgument, "air.position "+p.Type, "a position of type %s", p.Type)
			}
		case "air.render_target_array_index", "air.viewport_array_index", "air.sample_id":
			// One layer, one viewport, one sample: each is 0 on every pixel.
			return integerBuiltin(role, p.Type)
		default:
			return unsuppliedArgument("fragment", role)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// singleOutput records an output that a fragment function returns at most
// once (air.depth, air.stencil) at field: it sets *written and *at, or is an
// error when the output was written already, or not judgeable when its type
// ty is not want (why says so, given ty).
func singleOutput(written *bool, at *int, entry, role, ty string, field int, want, why string) error {
	if *written {
		return fmt.Errorf("cpuref: @%s writes %s twice", entry, role)
	}
	if ty != want {
		return notJudgeable(KindArgument, role+" "+ty, why, ty)
	}
	*written, *at = true, field
	return nil
}

// namedType is the body of the named type %name ("{ <4 x float> }"), or "" when the module
// does not define it.
func (t *textModule) namedType(name string) string {
	for _, l := range t.lines {
		if rest, ok := strings.CutPrefix(l, name+" = type "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// defineReturnType reads the return type off a define line.
func defineReturnType(line string) string {
	s := strings.TrimPrefix(line, "define ")
	for {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "<") || strings.HasPrefix(s, "{") {
			if e := matching(s, 0); e > 0 {
				return s[:e+1]
			}
			return s
		}
		tok, rest, _ := strings.Cut(s, " ")
		switch {
		case tok == "void" || tok == "float" || tok == "half" || tok == "double" || len(tok) > 1 && tok[0] == 'i' && strings.Trim(tok[1:], "0123456789") == "":
			return tok
		case strings.HasPrefix(tok, "%"):
			return tok
		case strings.HasPrefix(tok, "@") || tok == "":
			return ""
		}
		s = rest
	}
}

// halfBits converts a float exactly representable as a normal half (the input pattern's
// values are) to its bits.
func halfBits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	if b&0x7fffffff == 0 {
		return sign
	}
	exp := int(b>>23&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16(b>>13&0x3ff)
}

// constant is the LLVM constant of component c of input in (its AIR type).
func (in Input) constant(c int) string {
	e := elem(in.Type)
	w := in.Words[c]
	switch e {
	case "float":
		return fmt.Sprintf("float 0x%016X", math.Float64bits(float64(math.Float32frombits(w))))
	case "half":
		return fmt.Sprintf("half 0xH%04X", halfBits(math.Float32frombits(w)))
	}
	return fmt.Sprintf("%s %d", e, int32(w))
}

// fragmentWrapper is airpipe_thread for a fragment function: the pixel (x, y) is the thread's
// grid position (ids 0, 1), the width the grid's (id 15). It builds the arguments — buffers,
// the position (x+0.5, y+0.5, 0.5, 1), each input's constant, 0 for the layer, viewport and
// sample index (the draw has one of each) — calls the function and stores
// each render target's components, widened to 32 bits, at pixel y·W+x of its buffer, the
// depth output, if any, as a float at word y·W+x of DepthBuffer, and the stencil output, if
// any, as a 32-bit word at word y·W+x of StencilBuffer.
func fragmentWrapper(k *Kernel) string {
	var b strings.Builder
	b.WriteString("\ndefine void @airpipe_thread(ptr %bufs, ptr %ids) {\nentry:\n")
	b.WriteString("  %px = load i32, ptr %ids\n  %pyp = getelementptr i32, ptr %ids, i64 1\n  %py = load i32, ptr %pyp\n")
	b.WriteString("  %pwp = getelementptr i32, ptr %ids, i64 15\n  %pw = load i32, ptr %pwp\n")
	b.WriteString("  %prow = mul i32 %py, %pw\n  %pix32 = add i32 %prow, %px\n  %pix = zext i32 %pix32 to i64\n  %pixoff = mul i64 %pix, 16\n")
	var args []string
	for i, p := range k.Params {
		v := fmt.Sprintf("%%arg%d", i)
		switch p.Role {
		case "air.buffer":
			bufferArg(&b, p, i, v)
		case "air.position":
			b.WriteString("  %fx0 = uitofp i32 %px to float\n  %fx = fadd float %fx0, 5.000000e-01\n")
			b.WriteString("  %fy0 = uitofp i32 %py to float\n  %fy = fadd float %fy0, 5.000000e-01\n")
			fmt.Fprintf(&b, "  %%pos%d_0 = insertelement <4 x float> <float 0.0, float 0.0, float 5.000000e-01, float 1.000000e+00>, float %%fx, i32 0\n", i)
			fmt.Fprintf(&b, "  %s = insertelement <4 x float> %%pos%d_0, float %%fy, i32 1\n", v, i)
		case "air.render_target_array_index", "air.viewport_array_index", "air.sample_id":
			fmt.Fprintf(&b, "  %s = add %s 0, 0\n", v, p.Type)
		case "air.texture", "air.sampler":
			resourceArg(&b, p, v)
		case "air.render_target":
			destinationArg(&b, k, i, v) // blend.go
		case absentRole:
			absentArg(&b, p, v) // conditional.go
		case "air.fragment_input":
			for _, in := range k.Inputs {
				if in.Param != i {
					continue
				}
				if !strings.HasPrefix(in.Type, "<") {
					fmt.Fprintf(&b, "  %s = bitcast %s to %s\n", v, in.constant(0), in.Type)
					break
				}
				var cs []string
				for c := range in.Components {
					cs = append(cs, in.constant(c))
				}
				fmt.Fprintf(&b, "  %s = bitcast %s <%s> to %s\n", v, in.Type, strings.Join(cs, ", "), in.Type)
			}
		}
		args = append(args, p.Type+" "+v)
	}
	callEntry(&b, k, args)
	for j, rt := range k.Targets {
		fmt.Fprintf(&b, "  %%rtp%d = getelementptr ptr, ptr %%bufs, i64 %d\n  %%rt%d = load ptr, ptr %%rtp%d\n", j, RenderTargetBase+rt.Index, j, j)
		fmt.Fprintf(&b, "  %%rtb%d = getelementptr i8, ptr %%rt%d, i64 %%pixoff\n", j, j)
		o := returnedField(&b, k, rt.Field, fmt.Sprintf("%%o%d", j))
		storeWidened(&b, fmt.Sprintf("rt%d_", j), rt.Type, rt.Kind, rt.Components, o, fmt.Sprintf("%%rtb%d", j))
	}
	if k.WritesDepth {
		fmt.Fprintf(&b, "  %%dbp = getelementptr ptr, ptr %%bufs, i64 %d\n  %%db = load ptr, ptr %%dbp\n", DepthBuffer)
		d := returnedField(&b, k, k.DepthField, "%depth")
		fmt.Fprintf(&b, "  %%dsp = getelementptr float, ptr %%db, i64 %%pix\n  store float %s, ptr %%dsp, align 4\n", d)
	}
	if k.WritesStencil {
		fmt.Fprintf(&b, "  %%sbp = getelementptr ptr, ptr %%bufs, i64 %d\n  %%sb = load ptr, ptr %%sbp\n", StencilBuffer)
		v := returnedField(&b, k, k.StencilField, "%stencil")
		fmt.Fprintf(&b, "  %%ssp = getelementptr i32, ptr %%sb, i64 %%pix\n  store i32 %s, ptr %%ssp, align 4\n", v)
	}
	b.WriteString("  ret void\n}\n")
	return b.String()
}
