package cpuref

import (
	"fmt"
	"strings"
)

// Metal 4's texture reads (AIR 2.8): read(coord[, lod]) compiles to
// air.read_texture_*(tex, air.get_read_sampler(), coord, offset, lod,
// access), a sampler the function makes for itself and a texel offset. The
// Metal Shading Language's read takes neither: it reads the texel at coord.
// The reference defines air.get_read_sampler() as a null constant-space
// pointer (a read does not look at it) and such a read as the classic
// read(tex, coord, lod, access) the same texture operation defines
// (textures.go), after checking that the offset is zero: a read with another
// offset traps, which the harness reports rather than guessing a meaning
// Metal does not give.

// isReadSamplerRead reports a texture read of the Metal 4 form: its second
// operand is a constant-space pointer (the read sampler).
func isReadSamplerRead(d declaration) bool {
	return strings.HasPrefix(d.Name, "air.read_texture_") && len(d.Params) >= 4 && d.Params[0] == "ptr addrspace(1)" &&
		d.Params[1] == "ptr addrspace(2)"
}

// getReadSamplerOp defines air.get_read_sampler().
func getReadSamplerOp(d declaration) (string, error) {
	if d.Ret != "ptr addrspace(2)" || len(d.Params) != 0 {
		return "", notJudgeable(KindTexture, d.Name, "%s of type %s(%s), not ptr addrspace(2)()", d.Name, d.Ret, strings.Join(d.Params, ", "))
	}
	return "define internal ptr addrspace(2) @\"air.get_read_sampler\"() {\n  ret ptr addrspace(2) null\n}\n", nil
}

// readSamplerRead defines a Metal 4 read as the classic read without the
// sampler and the (zero) offset.
func readSamplerRead(d declaration) (string, error) {
	coord, offset := d.Params[2], d.Params[3]
	if coord != offset || isFloatType(offset) || elemBits(offset) == 0 {
		return "", notJudgeable(KindTexture, d.Name, "texture operation %s: operands (%s) are not (texture, sampler, coordinate, offset of the coordinate's type, ...)", d.Name, strings.Join(d.Params, ", "))
	}
	classic := declaration{Name: d.Name, Ret: d.Ret, Params: append([]string{d.Params[0], coord}, d.Params[4:]...), Line: d.Line}
	def, err := textureOp(classic)
	if err != nil {
		return "", err
	}
	inner := d.Name + " without read sampler"
	def = strings.Replace(def, fmt.Sprintf("@%q(", d.Name), fmt.Sprintf("@%q(", inner), 1)
	var ps, args []string
	for i, p := range d.Params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
		if i != 1 && i != 3 {
			args = append(args, fmt.Sprintf("%s %%a%d", p, i))
		}
	}
	test := fmt.Sprintf("  %%any = icmp ne %s %%a3, 0\n", offset)
	if strings.HasPrefix(offset, "<") {
		test = fmt.Sprintf("  %%nz = icmp ne %s %%a3, zeroinitializer\n  %%any = call i1 @llvm.vector.reduce.or.%s(%s %%nz)\n", offset, mangle(boolOf(offset)), boolOf(offset))
	}
	return def + fmt.Sprintf("define internal %s @%q(%s) {\nentry:\n%s  br i1 %%any, label %%offset, label %%read\noffset:\n  call void @llvm.trap()\n  unreachable\nread:\n  %%r = call %s @%q(%s)\n  ret %s %%r\n}\n",
		d.Ret, d.Name, strings.Join(ps, ", "), test, d.Ret, inner, strings.Join(args, ", "), d.Ret), nil
}
