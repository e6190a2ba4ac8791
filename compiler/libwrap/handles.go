package libwrap

import (
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// Texture and sampler handles (README.md, "Textures and samplers"). A
// pointer parameter the function passes as the texture operand of a 2D
// float texture operation, or as the sampler operand of a 2D sample, is a
// handle: the wrapper declares a texture (air.texture, index 0, 1, ... in
// parameter order) or a sampler (air.sampler, likewise) argument of its own
// and passes it. This is how a Core Image kernel's coreimage::sampler
// reaches its texture and sampler; the harness binds what it binds to any
// kernel's textures and samplers.

// Limits of the handles one wrapper declares (Metal's argument tables).
const (
	// MaxTextures bounds the texture handles.
	MaxTextures = 31
	// MaxSamplers bounds the sampler handles.
	MaxSamplers = 16
)

// handle is what a pointer parameter is to the operations it reaches.
type handle struct {
	// role is "texture" or "sampler" ("" when the parameter is no handle).
	role string
	// typeName is the Metal type of the wrapper's argument
	// ("texture2d<float, sample>", "texture2d<half, read>", "sampler").
	typeName string
	// refused, when not empty, is the operation that takes the parameter
	// as a handle the wrapper cannot give (the detail's @name).
	refused string
}

// handleOf classifies parameter a of fn by the air.* texture operations it
// is passed to, directly or through the same parameter of a defined callee
// (depth-bounded): operand 0 of air.sample_texture_2d.*, air.read_texture_2d.*,
// air.get_width_texture_2d and air.get_height_texture_2d is a texture,
// operand 1 of air.sample_texture_2d.* a sampler. Any other texture
// operation, or a parameter used both ways or with two component types, is
// refused by the operation's name.
func handleOf(fn *air.Function, a *air.Argument) handle {
	var h handle
	comp, sample := "", false
	var walk func(fn *air.Function, a air.Value, depth int)
	walk = func(fn *air.Function, a air.Value, depth int) {
		for _, b := range fn.Blocks {
			for _, in := range b.Insts {
				c, ok := in.(*air.Call)
				if !ok || h.refused != "" {
					continue
				}
				callee := c.Called()
				if callee == nil {
					continue
				}
				for i, x := range c.Args {
					if x != a {
						continue
					}
					if !callee.IsDeclaration() {
						if depth < 8 && i < len(callee.Args) {
							walk(callee, callee.Args[i], depth+1)
						}
						continue
					}
					if !strings.HasPrefix(callee.Name, "air.") || !strings.Contains(callee.Name, "texture") {
						continue
					}
					role, c2, isSample := handleOperand(callee.Name, i)
					switch {
					case role == "":
						h.refused = callee.Name
					case h.role != "" && h.role != role, role == "texture" && c2 != "" && comp != "" && c2 != comp:
						h.refused = callee.Name
					default:
						h.role = role
						if c2 != "" {
							comp = c2
						}
						sample = sample || isSample
					}
				}
			}
		}
	}
	walk(fn, a, 0)
	switch {
	case h.refused != "":
		h.role = ""
	case h.role == "sampler":
		h.typeName = "sampler"
	case h.role == "texture":
		if comp == "" {
			comp = "float"
		}
		access := "read"
		if sample {
			access = "sample"
		}
		h.typeName = "texture2d<" + comp + ", " + access + ">"
	}
	return h
}

// handleOperand is what operand i of the declared texture operation name
// is: its role, the texture's component type from the result ("float",
// "half"; "" for a size query) and whether it samples. role is "" for an
// operation or operand the wrapper gives no handle.
func handleOperand(name string, i int) (role, comp string, sample bool) {
	op := strings.TrimPrefix(name, "air.")
	component := func(rest string) string {
		switch {
		case strings.HasPrefix(rest, "v4f32"):
			return "float"
		case strings.HasPrefix(rest, "v4f16"):
			return "half"
		}
		return ""
	}
	switch {
	case strings.HasPrefix(op, "sample_texture_2d.v4"):
		c := component(strings.TrimPrefix(op, "sample_texture_2d."))
		if c == "" {
			return "", "", false
		}
		switch i {
		case 0:
			return "texture", c, true
		case 1:
			return "sampler", "", false
		}
	case strings.HasPrefix(op, "read_texture_2d.v4"):
		c := component(strings.TrimPrefix(op, "read_texture_2d."))
		if c != "" && i == 0 {
			return "texture", c, false
		}
	case op == "get_width_texture_2d" || op == "get_height_texture_2d":
		if i == 0 {
			return "texture", "", false
		}
	}
	return "", "", false
}

// handleSlot places handle parameter i (pointer type p) as the next texture
// or sampler of the wrapper; textures and samplers count those placed.
func handleSlot(i int, p *air.PointerType, h handle, textures, samplers *int, refuse func(string, string, ...any) error) (Slot, error) {
	if h.refused != "" {
		return Slot{}, refuse("handle passed to @"+h.refused, "parameter %d is passed to @%s, a texture operation taking it as a handle the wrapper ABI does not give (only 2D float and half textures and their samplers)", i, h.refused)
	}
	space, count, limit := 1, textures, MaxTextures
	if h.role == "sampler" {
		space, count, limit = 2, samplers, MaxSamplers
	}
	if p.AddrSpace != space {
		return Slot{}, refuse("handle in address space "+itoa(p.AddrSpace), "parameter %d is a %s handle in address space %d", i, h.role, p.AddrSpace)
	}
	if *count == limit {
		return Slot{}, refuse(h.role+" parameters", "more than %d %s parameters", limit, h.role)
	}
	s := Slot{Param: i, Type: h.typeName, Role: h.role, Buffer: *count}
	*count++
	return s, nil
}

// handleMD is the wrapper's metadata node for handle slot s, argument n.
func handleMD(n int, s Slot, name string) air.Metadata {
	if s.Role == "sampler" {
		return node(mdInt(uint64(n)), mdStr("air.sampler"), mdStr("air.location_index"), mdInt(uint64(s.Buffer)), mdInt(1),
			mdStr("air.arg_type_name"), mdStr("sampler"), mdStr("air.arg_name"), mdStr(name))
	}
	access := "air.read"
	if strings.HasSuffix(s.Type, ", sample>") {
		access = "air.sample"
	}
	return node(mdInt(uint64(n)), mdStr("air.texture"), mdStr("air.location_index"), mdInt(uint64(s.Buffer)), mdInt(1),
		mdStr(access), mdStr("air.arg_type_name"), mdStr(s.Type), mdStr("air.arg_name"), mdStr(name))
}

func itoa(n int) string { return strconv.Itoa(n) }

// metadataHandle reports whether parameter param of fn, which an
// air.visible node types as typeName, is a handle the wrapper gives: a
// "texture2d<...>" used as a texture handle, or a "sampler" used as a
// sampler handle.
func metadataHandle(fn *air.Function, param int, typeName string) bool {
	if param < 0 || param >= len(fn.Args) {
		return false
	}
	h := handleOf(fn, fn.Args[param])
	switch {
	case strings.HasPrefix(typeName, "texture2d<"):
		return h.role == "texture"
	case typeName == "sampler":
		return h.role == "sampler"
	}
	return false
}
