package cpuref

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Writable textures (doc.go, "Writable textures"): an air.texture argument with write or
// read_write access is a 1D, 1D-array, 2D, 2D-array or 3D texture of TextureExtent texels per
// dimension (one array layer), 16 bytes each (four 32-bit components; half is stored as
// 32-bit float), that starts with every texel TexelWords(index, kind) and is read back after
// the run as harness buffer StorageTextureBase+index, x fastest, then y, then z
// (StorageBytes). The wrapper passes the shader a pointer to that buffer;
// air.write_texture_* stores a texel there and air.read_texture_* on a read_write texture
// loads one, each after checking its coordinate, layer and LOD 0.

// StorageTextureBase is the harness buffer index of writable texture 0: texture i is buffer
// StorageTextureBase+i (Result.Inputs and Result.Outputs carry it like any buffer).
const StorageTextureBase = 40

// MaxStorageTextures bounds the Metal index of a writable texture: 0..MaxStorageTextures-1.
const MaxStorageTextures = 16

// StorageTextureSize is the byte size of a writable 2D (or 2D-array) texture's buffer: 4×4
// texels of TexelSize bytes, row-major (texel (x, y) at byte (y·4 + x)·16). StorageBytes
// gives every dimension's.
const StorageTextureSize = TextureExtent * TextureExtent * TexelSize

// StorageDims are the dimensions a writable texture may have (an array has one layer, a cube
// six faces).
var StorageDims = []string{"1d", "1d_array", "2d", "2d_array", "3d", "cube"}

// StorageBytes is the byte size of a writable texture's buffer of dimension dim, 0 for a
// dimension not in StorageDims: TexelSize bytes per texel, 4 texels in 1D (and a 1D array's
// one layer), 4×4 in 2D (and a 2D array's one layer), 4×4×4 in 3D, 4×4 on each of a cube's
// 6 faces; texel (x, y, z) at byte ((z·4 + y)·4 + x)·16, z a cube's face (Metal's and
// Vulkan's order: +X, −X, +Y, −Y, +Z, −Z).
func StorageBytes(dim string) int {
	switch dim {
	case "1d", "1d_array":
		return TextureExtent * TexelSize
	case "2d", "2d_array":
		return StorageTextureSize
	case "3d":
		return TextureExtent * StorageTextureSize
	case "cube":
		return 6 * StorageTextureSize
	}
	return 0
}

// storageDim reports whether dim is one of StorageDims.
func storageDim(dim string) bool { return StorageBytes(dim) > 0 }

// Writable reports whether the texture has write or read_write access: its texels are then a
// harness buffer (StorageTextureBase+Index), not a constant.
func (t Texture) Writable() bool { return t.Access == "write" || t.Access == "read_write" }

// StorageTexels is the initial content of a writable texture with Metal index index, kind
// kind and dimension dim: StorageBytes(dim) bytes, every texel TexelWords(index, kind) as
// little-endian words.
func StorageTexels(index int, kind byte, dim string) []byte {
	w := TexelWords(index, kind)
	b := make([]byte, StorageBytes(dim))
	for i := 0; i < len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], w[i/4%4])
	}
	return b
}

// checkStorage refuses a writable texture the reference cannot give (another dimension, a
// depth kind or an index beyond MaxStorageTextures).
func checkStorage(tx Texture, detail string) error {
	switch {
	case !storageDim(tx.Dim):
		return notJudgeable(KindTexture, detail, "a %s texture with %s access: the reference gives writable 1D, 2D, 3D and cube textures and 1D and 2D arrays only", tx.Dim, tx.Access)
	case tx.Kind == 'd':
		return notJudgeable(KindTexture, detail, "a depth texture with %s access: the reference gives writable float, half, int and uint textures only", tx.Access)
	case tx.Index >= MaxStorageTextures:
		return notJudgeable(KindTexture, detail, "writable texture index %d (the reference gives 0..%d)", tx.Index, MaxStorageTextures-1)
	}
	return nil
}

// storageInputs are the writable textures' initial buffers, by harness index.
func storageInputs(k *Kernel) []Data {
	var ds []Data
	for _, tx := range k.Textures {
		if tx.Writable() {
			ds = append(ds, Data{Index: StorageTextureBase + tx.Index, Bytes: StorageTexels(tx.Index, tx.Kind, tx.Dim)})
		}
	}
	return ds
}

// storageArg writes the wrapper's instructions for a writable texture parameter: load its
// buffer's pointer from the harness's array, remember it in @airpipe_storage_<index> (which
// airpipe_storage_texel compares operands with) and cast it to the parameter's type.
func storageArg(b *strings.Builder, p Param, v string) {
	fmt.Fprintf(b, "  %s_p = getelementptr ptr, ptr %%bufs, i64 %d\n  %s_b = load ptr, ptr %s_p\n", v, StorageTextureBase+p.Texture, v, v)
	fmt.Fprintf(b, "  store ptr %s_b, ptr @airpipe_storage_%d\n", v, p.Texture)
	fmt.Fprintf(b, "  %s = addrspacecast ptr %s_b to %s\n", v, v, p.Type)
}

// writeOp defines air.write_texture_<dim>.<texel>, whose operands are the texture, the
// coordinate, the array layer (arrays), the value and the LOD: it checks the coordinate,
// layer and LOD like a read, finds the texel through airpipe_storage_texel (which refuses an
// operand that is no writable argument texture of the operation's kind and dimension) and
// stores the value, half widened exactly to float, as four 32-bit words.
func writeOp(d declaration, dim, suffix string, refuse func(string, ...any) (string, error)) (string, error) {
	want, ok := texelTypes[strings.TrimPrefix(suffix, "i16.")]
	if !ok {
		return refuse("texel type %q is not one the reference writes (v4f32, v4f16, s.v4i32, u.v4i32)", suffix)
	}
	if !storageDim(dim) {
		return refuse("the reference writes 1D, 2D, 3D and cube textures and 1D and 2D arrays only")
	}
	value := 2 + len(readOperands[dim].indices)
	if d.Ret != "void" || !allSane(d.Params) || len(d.Params) < value+2 || d.Params[0] != "ptr addrspace(1)" || d.Params[value] != want.ty {
		return refuse("declaration %s (%s) not as the reference reads it (texture, coordinate, layer of an array, %s value, LOD...)", d.Ret, strings.Join(d.Params, ", "), want.ty)
	}
	var b strings.Builder
	if err := texelBounds(&b, d, dim, true, "airpipe_texture_oob_write"); err != "" {
		return refuse("%s", err)
	}
	x, y, z := storageCoords(&b, d, dim)
	fmt.Fprintf(&b, "  %%p = call ptr addrspace(1) @airpipe_storage_texel(ptr addrspace(1) %%a0, i32 %d, i32 %d, i32 %s, i32 %s, i32 %s, i1 true)\n", want.kind, dimCode(dim), x, y, z)
	v := fmt.Sprintf("%%a%d", value)
	switch want.ty {
	case "<4 x float>":
		fmt.Fprintf(&b, "  %%w = bitcast <4 x float> %s to <4 x i32>\n", v)
	case "<4 x half>":
		fmt.Fprintf(&b, "  %%f = fpext <4 x half> %s to <4 x float>\n  %%w = bitcast <4 x float> %%f to <4 x i32>\n", v)
	default:
		fmt.Fprintf(&b, "  %%w = add <4 x i32> %s, zeroinitializer\n", v)
	}
	b.WriteString("  store <4 x i32> %w, ptr addrspace(1) %p, align 4\n  ret void\n")
	var ps []string
	for i, p := range d.Params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
	}
	return fmt.Sprintf("define internal void @%q(%s) {\nentry:\n%s}\n", d.Name, strings.Join(ps, ", "), b.String()), nil
}

// storageCoords writes the conversion of a (bounds-checked) coordinate %a1 — and, for an
// array, its layer %a2, which is 0 — to the texel's x, y and z as i32 values, and returns
// their names (missing dimensions are 0).
func storageCoords(b *strings.Builder, d declaration, dim string) (string, string, string) {
	coord := d.Params[1]
	lanes := readOperands[dim].lanes
	names := [3]string{"0", "0", "0"}
	i32 := func(name, ty, v string) {
		switch {
		case ty == "i32":
			fmt.Fprintf(b, "  %s = add i32 %s, 0\n", name, v)
		case elemBits(ty) < 32:
			fmt.Fprintf(b, "  %s = zext %s %s to i32\n", name, ty, v)
		default:
			fmt.Fprintf(b, "  %s = trunc %s %s to i32\n", name, ty, v)
		}
	}
	for c := range lanes {
		names[c] = fmt.Sprintf("%%sx%d", c)
		if lanes == 1 {
			i32(names[c], coord, "%a1")
			continue
		}
		fmt.Fprintf(b, "  %%sc%d = extractelement %s %%a1, i32 %d\n", c, coord, c)
		i32(names[c], elem(coord), fmt.Sprintf("%%sc%d", c))
	}
	if len(readOperands[dim].indices) > 0 {
		names[lanes] = "%sxl"
		i32(names[lanes], d.Params[2], "%a2")
	}
	return names[0], names[1], names[2]
}

// storageRead writes, for a read whose coordinate was checked, the look-up of a writable
// texture: when the operand is one, %w is its texel at the coordinate; otherwise control goes
// on at label "uniform" (the uniform-texture path).
func storageRead(b *strings.Builder, d declaration, kind byte, dim string) {
	x, y, z := storageCoords(b, d, dim)
	fmt.Fprintf(b, "  %%sp = call ptr addrspace(1) @airpipe_storage_texel(ptr addrspace(1) %%a0, i32 %d, i32 %d, i32 %s, i32 %s, i32 %s, i1 false)\n", kind, dimCode(dim), x, y, z)
	b.WriteString("  %isst = icmp ne ptr addrspace(1) %sp, null\n  br i1 %isst, label %storage, label %uniform\n")
	b.WriteString("storage:\n  %sw = load <4 x i32>, ptr addrspace(1) %sp, align 4\n  br label %texel\nuniform:\n")
}

// storageSupport is the module text behind writable textures: a global per writable texture
// that the wrapper sets to its buffer, and airpipe_storage_texel(texture, kind, dim, x, y,
// z, write), which returns the texel's address when the texture operand is a writable argument
// texture; for another operand it returns null on a read (the caller then reads a uniform
// texture) and, on a write, has the harness exit with status 6 (airpipe_texture_unknown 4),
// as it does for a writable texture of another kind or dimension (3) and a read of a
// write-only texture (5).
func storageSupport(k *Kernel, defs string) string {
	var b strings.Builder
	for _, tx := range k.Textures {
		if tx.Writable() {
			fmt.Fprintf(&b, "@airpipe_storage_%d = internal global ptr null, align 8\n", tx.Index)
		}
	}
	if !strings.Contains(defs, "@airpipe_storage_texel(") {
		return b.String()
	}
	b.WriteString("\ndefine internal ptr addrspace(1) @airpipe_storage_texel(ptr addrspace(1) %t, i32 %kind, i32 %dim, i32 %x, i32 %y, i32 %z, i1 %write) {\nentry:\n")
	fmt.Fprintf(&b, "  %%zr = mul i32 %%z, %d\n  %%zy = add i32 %%zr, %%y\n  %%row = mul i32 %%zy, %d\n  %%i = add i32 %%row, %%x\n  %%i64 = zext i32 %%i to i64\n  %%off = mul i64 %%i64, %d\n",
		TextureExtent, TextureExtent, TexelSize)
	b.WriteString("  br label %s0\n")
	n := 0
	for _, tx := range k.Textures {
		if !tx.Writable() {
			continue
		}
		fmt.Fprintf(&b, "s%d:\n  %%g%d = load ptr, ptr @airpipe_storage_%d, align 8\n  %%c%d = addrspacecast ptr %%g%d to ptr addrspace(1)\n", n, n, tx.Index, n, n)
		fmt.Fprintf(&b, "  %%e%d = icmp eq ptr addrspace(1) %%t, %%c%d\n  br i1 %%e%d, label %%m%d, label %%s%d\n", n, n, n, n, n+1)
		fmt.Fprintf(&b, "m%d:\n  %%km%d = icmp eq i32 %%kind, %d\n  %%dm%d = icmp eq i32 %%dim, %d\n  %%ok%d = and i1 %%km%d, %%dm%d\n  br i1 %%ok%d, label %%a%d, label %%badkind\n",
			n, n, tx.Kind, n, dimCode(tx.Dim), n, n, n, n, n)
		fmt.Fprintf(&b, "a%d:\n", n)
		if tx.Access == "write" {
			fmt.Fprintf(&b, "  br i1 %%write, label %%at%d, label %%badaccess\n", n)
		} else {
			fmt.Fprintf(&b, "  br label %%at%d\n", n)
		}
		fmt.Fprintf(&b, "at%d:\n  %%p%d = getelementptr inbounds i8, ptr addrspace(1) %%t, i64 %%off\n  ret ptr addrspace(1) %%p%d\n", n, n, n)
		n++
	}
	fmt.Fprintf(&b, "s%d:\n  br i1 %%write, label %%badtexture, label %%none\nnone:\n  ret ptr addrspace(1) null\n", n)
	b.WriteString("badtexture:\n  call void @airpipe_texture_unknown(i32 4)\n  unreachable\n")
	b.WriteString("badkind:\n  call void @airpipe_texture_unknown(i32 3)\n  unreachable\n")
	b.WriteString("badaccess:\n  call void @airpipe_texture_unknown(i32 5)\n  unreachable\n}\n")
	return b.String()
}
