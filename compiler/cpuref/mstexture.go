package cpuref

import (
	"fmt"
	"strings"
)

// Multisample textures (doc.go, "Textures"). A texture2d_ms or texture2d_ms_array argument
// (read access: Metal's only one) is uniform like every read texture: TextureExtent×TextureExtent
// texels (an array: one layer), MSSamples samples each, every sample of every texel holding
// TexelWords(index, kind). The device binds an image of MSSamples samples whose every sample
// it cleared to the same words. The reference defines
//
//	air.read_texture_2d_ms[_array].<texel>(texture, coord[, layer], sample, ...)
//	air.get_width_texture_2d_ms[_array](texture), air.get_height_…  → TextureExtent
//	air.get_num_samples_texture_2d_ms[_array](texture)               → MSSamples
//	air.get_array_size_texture_2d_ms_array(texture)                  → 1
//
// A read checks its coordinate against the extent, its layer against 1 and its sample index
// against MSSamples (outside: out of bounds, which Metal leaves undefined), then returns the
// texel as a single-sample read does. Depth multisample textures and other operations on
// multisample textures are set aside by name.

// MSSamples is the sample count of every multisample texture the reference gives (and the
// device binds): 4, the count Vulkan requires every device to support for sampled colour
// images (sampledImageColorSampleCounts) and Metal every GPU for texture2d_ms.
const MSSamples = 4

// msDims are the multisample texture dimensions the reference gives, by Metal type name.
var msDims = map[string]string{"texture2d_ms": "2d_ms", "texture2d_ms_array": "2d_ms_array"}

// msDim reports whether dim (a Texture.Dim) is a multisample one.
func msDim(dim string) bool { return dim == "2d_ms" || dim == "2d_ms_array" }

// multisampleOp defines an operation on a multisample texture (ok: n names one): a read or
// a size, sample-count or array-size query; any other is refused by name.
func multisampleOp(d declaration, refuse func(string, ...any) (string, error)) (def string, ok bool, err error) {
	n := d.Name
	if !strings.Contains(n, "_ms") {
		return "", false, nil
	}
	for _, q := range []string{"width", "height", "num_samples", "array_size"} {
		rest, found := strings.CutPrefix(n, "air.get_"+q+"_texture_")
		if !found || !msDim(rest) {
			continue
		}
		def, err := msQuery(d, q, rest, refuse)
		return def, true, err
	}
	if rest, found := strings.CutPrefix(n, "air.read_texture_"); found {
		dim, suffix, _ := strings.Cut(rest, ".")
		if msDim(dim) {
			def, err := msRead(d, dim, strings.TrimPrefix(suffix, "i16."), refuse)
			return def, true, err
		}
	}
	if strings.Contains(n, "_2d_ms") {
		// Samples, gathers, mip-level counts (Metal has none of these on a multisample
		// texture) and depth multisample textures.
		_, err := refuse("the reference reads and queries the size and sample count of multisample colour textures (texture2d_ms, texture2d_ms_array) only")
		return "", true, err
	}
	return "", false, nil
}

// msQuery defines a size, sample-count or array-size query of a multisample texture: its one
// operand is the texture (a multisample texture has one level, so no LOD).
func msQuery(d declaration, query, dim string, refuse func(string, ...any) (string, error)) (string, error) {
	if query == "array_size" && dim != "2d_ms_array" {
		return refuse("a %s texture has no array size", dim)
	}
	if d.Ret != "i32" || len(d.Params) != 1 || d.Params[0] != "ptr addrspace(1)" {
		return refuse("result %s, operands (%s): not an i32 of a texture alone", d.Ret, strings.Join(d.Params, ", "))
	}
	value := map[string]int{"width": TextureExtent, "height": TextureExtent, "num_samples": MSSamples, "array_size": 1}[query]
	return fmt.Sprintf("define internal i32 @%q(ptr addrspace(1) %%a0) {\nentry:\n  ret i32 %d\n}\n", d.Name, value), nil
}

// msRead defines air.read_texture_2d_ms[_array].<texel>(texture, <2 x iN> coord[, layer],
// sample, ...), returning the texel or { texel, i8 residency } (always resident): operands
// after the sample (the AIR access word) are not read.
func msRead(d declaration, dim, suffix string, refuse func(string, ...any) (string, error)) (string, error) {
	want, ok := texelTypes[suffix]
	if !ok {
		return refuse("texel type %q is not one the reference gives (v4f32, v4f16, s.v4i32, u.v4i32)", suffix)
	}
	sample := 2
	if dim == "2d_ms_array" {
		sample = 3
	}
	// The read returns the texel, or the texel and its residency ({ T, i8 }).
	resident := d.Ret == "{ "+want.ty+", i8 }"
	if d.Ret != want.ty && !resident || !allSane(d.Params) || len(d.Params) < sample+1 || d.Params[0] != "ptr addrspace(1)" {
		return refuse("declaration %s (%s) not as the reference reads it (texture, coordinate, layer of an array, sample, ...) returning %s or { %s, i8 }",
			d.Ret, strings.Join(d.Params, ", "), want.ty, want.ty)
	}
	coord := d.Params[1]
	if elemBits(coord) < 8 || isFloatType(coord) || vecLen(coord) != "2" {
		return refuse("coordinate of type %s, not 2 integer lanes", coord)
	}
	var b strings.Builder
	e := elem(coord)
	var conds []string
	for c := range 2 {
		fmt.Fprintf(&b, "  %%c%d = extractelement %s %%a1, i32 %d\n  %%k%d = icmp ult %s %%c%d, %d\n", c, coord, c, c, e, c, TextureExtent)
		conds = append(conds, fmt.Sprintf("%%k%d", c))
	}
	bounds := []struct {
		op, limit int
	}{{sample, MSSamples}}
	if sample == 3 {
		bounds = append(bounds, struct{ op, limit int }{2, 1})
	}
	for _, o := range bounds {
		ty := d.Params[o.op]
		if strings.HasPrefix(ty, "<") || isFloatType(ty) || elemBits(ty) < 8 {
			return refuse("sample or layer operand of type %s", ty)
		}
		c := fmt.Sprintf("%%k%d", len(conds))
		fmt.Fprintf(&b, "  %s = icmp ult %s %%a%d, %d\n", c, ty, o.op, o.limit)
		conds = append(conds, c)
	}
	all := conds[0]
	for i, c := range conds[1:] {
		next := fmt.Sprintf("%%all%d", i)
		fmt.Fprintf(&b, "  %s = and i1 %s, %s\n", next, all, c)
		all = next
	}
	fmt.Fprintf(&b, "  br i1 %s, label %%in, label %%out\nout:\n  call void @airpipe_texture_oob()\n  unreachable\nin:\n", all)
	fmt.Fprintf(&b, "  %%w = call <4 x i32> @airpipe_texel(ptr addrspace(1) %%a0, ptr addrspace(2) null, i1 false, i32 %d, i32 %d)\n", want.kind, dimCode(dim))
	return finishTexel(&b, d.Name, d.Ret, want.ty, resident, d.Params), nil // textures.go
}

// DimSamples is the sample count of a texture of dimension dim (a Texture.Dim) as the
// reference gives it: MSSamples for a multisample one, 0 for any other.
func DimSamples(dim string) int {
	if msDim(dim) {
		return MSSamples
	}
	return 0
}
