package cpuref

import (
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"math"
	"strings"
)

// Vertices is how many vertices a vertex function runs for: one triangle, vertex_id 0..2, in
// one instance. Vertex shaders often index a constant array of a triangle's corners by
// vertex_id; a fourth vertex would read past it (undefined on a GPU, and outside the
// reference's bounds checks, which guard buffers only).
const Vertices = 3

// OutputBuffer is the harness buffer index of a vertex function's outputs: per vertex, one
// record of VertexOutputs × 16 bytes; output j at byte 16·j, its components widened to 32 bits
// (as the SPIR-V interface carries them), the rest of the slot left as Clear.
const OutputBuffer = RenderTargetBase

// VertexOutput is one output of a vertex function.
type VertexOutput struct {
	// Role is air.position, air.point_size, air.render_target_array_index,
	// air.viewport_array_index or air.vertex_output; Name is a vertex output's
	// varying key ("generated(5color)").
	Role, Name string
	// Field is the output's field in the returned struct, -1 when returned alone.
	Field int
	// Type, Kind and Components are as for RenderTarget.
	Type       string
	Kind       byte
	Components int
}

// attributeValue is component c of attribute ordinal i of vertex v: k = 16v+4i+c gives
// ±(3k+2)/8 for floats (exact in half) and ±(3k+1) for integers (narrower AIR types read
// its truncation), alternating in sign, positive for unsigned.
func attributeValue(v, i, c int, kind byte) uint32 {
	return inputValue(4*v+i, c, kind)
}

// inspectVertex reads a vertex function's interface: outputs, attributes, built-ins, buffers.
func inspectVertex(t *textModule, entry string, node []string) (*Kernel, error) {
	k, err := newKernel(t, entry, air.Vertex, node)
	if err != nil {
		return nil, err
	}
	err = k.eachOutput(t, entry, node, func(_ string, o []string, role, ty string, field int) error {
		out := VertexOutput{Role: role, Field: field, Type: ty}
		switch role {
		case "air.position", "air.point_size", "air.render_target_array_index", "air.viewport_array_index":
		case "air.vertex_output":
			out.Name, _ = mdString(first(o[1:]))
		default:
			return notJudgeable(KindArgument, "output "+role, "a vertex output of role %s, which the capture does not read", role)
		}
		kind, comps, ok := kindOf(ty, keyString(o, "air.arg_type_name"))
		if !ok {
			return notJudgeable(KindArgument, "vertex output "+ty, "a vertex output of type %s, which the capture cannot read", ty)
		}
		out.Kind, out.Components = kind, comps
		k.Outputs = append(k.Outputs, out)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = k.bindArguments(t, entry, node, func(p *Param, n int, role string, arg []string) error {
		switch role {
		case "air.vertex_input":
			loc := -1
			for j := 2; j+1 < len(arg); j++ {
				if s, _ := mdString(arg[j]); s == "air.location_index" {
					if v, ok := mdInt(arg[j+1]); ok {
						loc = int(v)
					}
				}
			}
			kind, comps, ok := kindOf(p.Type, keyString(arg, "air.arg_type_name"))
			if !ok || loc < 0 || loc > 31 {
				return notJudgeable(KindArgument, "vertex input "+p.Type, "a vertex input of type %s at location %d, which the draw cannot give", p.Type, loc)
			}
			in := Input{Param: n, Name: keyString(arg, "air.arg_name"), Location: loc, Type: p.Type, Kind: kind, Components: comps}
			for v := range Vertices {
				var ws []uint32
				for c := range comps {
					ws = append(ws, attributeValue(v, len(k.Inputs), c, kind))
				}
				in.PerVertex = append(in.PerVertex, ws)
			}
			k.Inputs = append(k.Inputs, in)
		case "air.vertex_id", "air.instance_id", "air.base_vertex", "air.base_instance":
			return integerBuiltin(role, p.Type)
		default:
			return unsuppliedArgument("vertex", role)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// eachOutput reads the outputs of entry, a fragment or vertex function (node[1]), against
// the fields of its return type k.Return, and calls do with each output's node (ref and
// operands), role, LLVM type and field (-1 when the function returns the output alone).
func (k *Kernel) eachOutput(t *textModule, entry string, node []string, do func(ref string, o []string, role, ty string, field int) error) error {
	fields, isStruct, err := t.returnFields(k.Return)
	if err != nil {
		return fmt.Errorf("cpuref: @%s: %w", entry, err)
	}
	outs := t.md[node[1]]
	if len(fields) != len(outs) {
		return fmt.Errorf("cpuref: @%s returns %s (%d fields) but declares %d outputs", entry, k.Return, len(fields), len(outs))
	}
	for i, ref := range outs {
		o := t.md[ref]
		role, _ := mdString(first(o))
		field := i
		if !isStruct {
			field = -1
		}
		if role == absentRole {
			continue // conditional.go: its predicate is false, it is no output
		}
		if err := do(ref, o, role, fields[i], field); err != nil {
			return err
		}
	}
	return nil
}

// returnFields splits a function's return type into its fields: a struct's (named or literal)
// or the type itself; void has none.
func (t *textModule) returnFields(ret string) ([]string, bool, error) {
	body := ret
	if strings.HasPrefix(body, "%") {
		body = t.namedType(body)
		if body == "" {
			return nil, false, fmt.Errorf("return type %s is not defined", ret)
		}
	}
	switch {
	case body == "void":
		return nil, false, nil
	case strings.HasPrefix(body, "{") || strings.HasPrefix(body, "<{"):
		inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(body, "<"), "{"), ">")
		return splitTop(strings.TrimSuffix(strings.TrimSpace(inner), "}")), true, nil
	}
	return []string{body}, false, nil
}

// scalarConstant is the LLVM constant of type e (float, half, iN) holding the interface
// word w: a float as is, a half from the float (exact for the patterns used), an integer
// truncated.
func scalarConstant(e string, w uint32) string {
	switch e {
	case "float":
		return fmt.Sprintf("float 0x%016X", math.Float64bits(float64(math.Float32frombits(w))))
	case "half":
		return fmt.Sprintf("half 0xH%04X", halfBits(math.Float32frombits(w)))
	case "i8":
		return fmt.Sprintf("i8 %d", int8(w))
	case "i16":
		return fmt.Sprintf("i16 %d", int16(w))
	}
	return fmt.Sprintf("%s %d", e, int32(w))
}

// typedConstant is the LLVM constant of type ty (a scalar or vector) from its words.
func typedConstant(ty string, ws []uint32) string {
	e := elem(ty)
	if !strings.HasPrefix(ty, "<") {
		return scalarConstant(e, ws[0])
	}
	var cs []string
	for _, w := range ws {
		cs = append(cs, scalarConstant(e, w))
	}
	return fmt.Sprintf("%s <%s>", ty, strings.Join(cs, ", "))
}

// storeWidened writes the IR that stores value x of type ty (kind) component by component,
// widened to 32 bits, at ptr base (4 bytes apart); prefix names its temporaries.
func storeWidened(b *strings.Builder, prefix, ty string, kind byte, comps int, x, base string) {
	e := elem(ty)
	for c := range comps {
		v := x
		if strings.HasPrefix(ty, "<") {
			v = fmt.Sprintf("%%%se%d", prefix, c)
			fmt.Fprintf(b, "  %s = extractelement %s %s, i32 %d\n", v, ty, x, c)
		}
		st := "i32"
		w := fmt.Sprintf("%%%sw%d", prefix, c)
		switch {
		case e == "half":
			fmt.Fprintf(b, "  %s = fpext half %s to float\n", w, v)
			v, st = w, "float"
		case e == "float":
			st = "float"
		case e != "i32" && kind == 'u':
			fmt.Fprintf(b, "  %s = zext %s %s to i32\n", w, e, v)
			v = w
		case e != "i32":
			fmt.Fprintf(b, "  %s = sext %s %s to i32\n", w, e, v)
			v = w
		}
		fmt.Fprintf(b, "  %%%sp%d = getelementptr i8, ptr %s, i64 %d\n  store %s %s, ptr %%%sp%d, align 4\n", prefix, c, base, 4*c, st, v, prefix, c)
	}
}

// vertexWrapper is airpipe_thread for a vertex function: the vertex is the thread's grid
// position x (id 0). It builds the arguments — buffers, vertex_id, 0 for instance and bases,
// each attribute's value for this vertex from a constant table — calls the function and
// stores each output, widened to 32 bits, in the vertex's record of OutputBuffer.
func vertexWrapper(k *Kernel) string {
	var b strings.Builder
	for i, in := range k.Inputs {
		var rows []string
		for _, ws := range in.PerVertex {
			rows = append(rows, typedConstant(in.Type, ws))
		}
		fmt.Fprintf(&b, "@airpipe_attr%d = private constant [%d x %s] [%s]\n", i, Vertices, in.Type, strings.Join(rows, ", "))
	}
	b.WriteString("\ndefine void @airpipe_thread(ptr %bufs, ptr %ids) {\nentry:\n")
	b.WriteString("  %vid = load i32, ptr %ids\n  %vid64 = zext i32 %vid to i64\n")
	fmt.Fprintf(&b, "  %%recoff = mul i64 %%vid64, %d\n", 16*len(k.Outputs))
	var args []string
	for i, p := range k.Params {
		v := fmt.Sprintf("%%arg%d", i)
		switch p.Role {
		case "air.buffer":
			bufferArg(&b, p, i, v)
		case "air.vertex_id":
			if p.Type == "i16" {
				fmt.Fprintf(&b, "  %s = trunc i32 %%vid to i16\n", v)
			} else {
				fmt.Fprintf(&b, "  %s = add i32 %%vid, 0\n", v)
			}
		case "air.instance_id", "air.base_vertex", "air.base_instance":
			fmt.Fprintf(&b, "  %s = add %s 0, 0\n", v, p.Type)
		case "air.texture", "air.sampler":
			resourceArg(&b, p, v)
		case absentRole:
			absentArg(&b, p, v) // conditional.go
		case "air.vertex_input":
			for j, in := range k.Inputs {
				if in.Param == i {
					fmt.Fprintf(&b, "  %%ap%d = getelementptr [%d x %s], ptr @airpipe_attr%d, i64 0, i64 %%vid64\n  %s = load %s, ptr %%ap%d\n", i, Vertices, in.Type, j, v, in.Type, i)
				}
			}
		}
		args = append(args, p.Type+" "+v)
	}
	callEntry(&b, k, args)
	fmt.Fprintf(&b, "  %%obp = getelementptr ptr, ptr %%bufs, i64 %d\n  %%ob = load ptr, ptr %%obp\n  %%rec = getelementptr i8, ptr %%ob, i64 %%recoff\n", OutputBuffer)
	for j, o := range k.Outputs {
		x := returnedField(&b, k, o.Field, fmt.Sprintf("%%o%d", j))
		fmt.Fprintf(&b, "  %%slot%d = getelementptr i8, ptr %%rec, i64 %d\n", j, 16*j)
		storeWidened(&b, fmt.Sprintf("o%d_", j), o.Type, o.Kind, o.Components, x, fmt.Sprintf("%%slot%d", j))
	}
	b.WriteString("  ret void\n}\n")
	return b.String()
}
