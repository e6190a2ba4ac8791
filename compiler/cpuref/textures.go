package cpuref

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Textures under the uniform-texture contract (doc.go, "Textures"): every texel of every
// texture an entry point samples or reads holds TexelWords(index, kind), so a sample's result
// depends on the texture's identity and the shader's use of it, not on coordinates, filtering,
// LOD, offsets or addressing.

// TextureExtent is the size of every dimension of a texture the reference gives a shader (and
// the device binds): 4 texels (1D: 4; 2D: 4×4; 3D: 4×4×4; cube: 4×4 faces), one mip level, one
// array layer (a cube: 6 faces; a cube array: one cube).
const TextureExtent = 4

// TextureDims are the texture dimensions the reference gives, as Texture.Dim spells them.
var TextureDims = []string{"1d", "1d_array", "2d", "2d_array", "3d", "cube", "cube_array", "2d_ms", "2d_ms_array"}

// Texture is one air.texture argument: sample or read access (a uniform texture of constant
// texels), or write or read_write access (Writable: a 2D texture whose texels are harness
// buffer StorageTextureBase+Index, starting as Texel).
type Texture struct {
	// Index is the Metal texture index (air.location_index).
	Index int
	// Param is the parameter's position.
	Param int
	// Dim is one of TextureDims.
	Dim string
	// Kind is 'f' (float or half), 'i' (int), 'u' (uint) or 'd' (a depth texture).
	Kind byte
	// TypeName is the Metal type (air.arg_type_name): "texture2d<float, sample>".
	TypeName string
	// Access is "sample", "read", "write" or "read_write".
	Access string
	// Texel is every texel's value (a writable texture's initial value): TexelWords(Index, Kind).
	Texel [4]uint32
	// Samples is a multisample texture's sample count (MSSamples; mstexture.go), 0 for others.
	Samples int
}

// TexelWords is the value every texel of the texture with Metal index index (0..127) and kind
// ('f', 'd', 'i', 'u') holds, as 32-bit words per component: float bits for 'f' and 'd', two's
// complement for 'i' and 'u'.
//
//	'f' (float, half): float32((4·(index%15) + c + 1) / 64), exact in half, in (0, 1]
//	'd' (depth):       float32((index%15 + 1) / 16) in word 0; words 1..3 are 0
//	'i' (int):         int32(−(16·index + c + 3))
//	'u' (uint):        uint32(16·index + c + 5)
//
// Each component and each index differs, so a swapped texture or a swizzled component shows.
func TexelWords(index int, kind byte) [4]uint32 {
	var w [4]uint32
	for c := range 4 {
		switch kind {
		case 'f':
			w[c] = math.Float32bits(float32(4*(index%15)+c+1) / 64)
		case 'd':
			if c == 0 {
				w[c] = math.Float32bits(float32(index%15+1) / 16)
			}
		case 'i':
			w[c] = uint32(int32(-(16*index + c + 3)))
		case 'u':
			w[c] = uint32(16*index + c + 5)
		}
	}
	return w
}

// textureTypes maps the Metal texture type names the reference gives to their dimension;
// depth textures are the "depth" ones.
var textureTypes = map[string]string{
	"texture1d": "1d", "texture1d_array": "1d_array", "texture2d": "2d", "texture2d_array": "2d_array",
	"texture3d": "3d", "texturecube": "cube", "texturecube_array": "cube_array",
	"depth2d": "2d", "depth2d_array": "2d_array", "depthcube": "cube", "depthcube_array": "cube_array",
}

// textureOf decodes an air.texture argument's keys and Metal type name. A texture the reference
// cannot give is a *NotJudgeableError naming it.
func textureOf(keys []string, ty string, param int) (Texture, error) {
	name := keyString(keys, "air.arg_type_name")
	tx := Texture{Index: -1, Param: param, TypeName: name}
	detail := name + " argument"
	if name == "" {
		detail = "texture argument without air.arg_type_name"
	}
	base, args, _ := strings.Cut(name, "<")
	parts := strings.Split(strings.TrimSuffix(args, ">"), ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if len(parts) > 1 {
		tx.Access = parts[1]
	}
	count := int64(1)
	for i := 0; i < len(keys); i++ {
		k, _ := mdString(keys[i])
		switch k {
		case "air.location_index":
			if i+1 < len(keys) {
				if v, ok := mdInt(keys[i+1]); ok {
					tx.Index = int(v)
				}
			}
			if i+2 < len(keys) {
				if v, ok := mdInt(keys[i+2]); ok {
					count = v
				}
			}
		case "air.sample", "air.read", "air.write", "air.read_write":
			tx.Access = strings.TrimPrefix(k, "air.")
		}
	}
	dim, known := textureTypes[base]
	if d, ms := msDims[base]; ms && tx.Access == "read" {
		dim, known, tx.Samples = d, true, MSSamples // mstexture.go
	}
	switch {
	case strings.Contains(base, "_ms") && tx.Samples == 0:
		return tx, notJudgeable(KindTexture, detail, "a multisample texture other than texture2d_ms and texture2d_ms_array with read access, which the reference and the draw give")
	case base == "texture_buffer":
		return tx, notJudgeable(KindTexture, detail, "a texture buffer: the reference gives 1D, 2D, 3D and cube textures only")
	case !known:
		return tx, notJudgeable(KindTexture, detail, "a texture of type %q, which the reference cannot give", name)
	case tx.Access != "sample" && tx.Access != "read" && !tx.Writable():
		return tx, notJudgeable(KindTexture, detail, "a texture with access %q, which the reference cannot give", tx.Access)
	case count != 1:
		return tx, notJudgeable(KindTexture, detail, "an array of %d textures: the reference gives single textures only", count)
	case tx.Index < 0 || tx.Index > 127:
		return tx, notJudgeable(KindTexture, detail, "texture index %d (the descriptor layout has 0..127)", tx.Index)
	case ty != "ptr addrspace(1)":
		return tx, notJudgeable(KindTexture, detail+" "+ty, "a texture parameter of LLVM type %s (AIR passes ptr addrspace(1))", ty)
	}
	tx.Dim = dim
	switch {
	case strings.HasPrefix(base, "depth") && parts[0] == "float":
		tx.Kind = 'd'
	case strings.HasPrefix(base, "depth"):
	case parts[0] == "float" || parts[0] == "half":
		tx.Kind = 'f'
	case parts[0] == "int":
		tx.Kind = 'i'
	case parts[0] == "uint":
		tx.Kind = 'u'
	}
	if tx.Kind == 0 {
		return tx, notJudgeable(KindTexture, detail, "a texture of element type %q: the reference gives float, half, int and uint textures only", parts[0])
	}
	tx.Texel = TexelWords(tx.Index, tx.Kind)
	if tx.Writable() {
		return tx, checkStorage(tx, detail)
	}
	return tx, nil
}

// addResource records an air.texture or air.sampler parameter (role), for
// every kind of entry point.
func (k *Kernel) addResource(role string, p *Param, n int, arg []string, entry string) error {
	if role == "air.sampler" {
		return k.addSampler(p, arg, entry)
	}
	return k.addTexture(p, n, arg, entry)
}

// addTexture records an air.texture parameter, refusing two parameters on one texture index.
func (k *Kernel) addTexture(p *Param, n int, arg []string, entry string) error {
	tx, err := textureOf(arg[2:], p.Type, n)
	if err != nil {
		return err
	}
	for _, o := range k.Textures {
		if o.Index == tx.Index {
			return fmt.Errorf("cpuref: @%s: two parameters are texture %d", entry, tx.Index)
		}
	}
	p.Texture = tx.Index
	p.Storage = tx.Writable()
	k.Textures = append(k.Textures, tx)
	sort.Slice(k.Textures, func(i, j int) bool { return k.Textures[i].Index < k.Textures[j].Index })
	return nil
}

// addSampler records an air.sampler parameter.
func (k *Kernel) addSampler(p *Param, arg []string, entry string) error {
	idx, count := int64(-1), int64(1)
	keys := arg[2:]
	for i := 0; i+1 < len(keys); i++ {
		if s, _ := mdString(keys[i]); s == "air.location_index" {
			idx, _ = mdInt(keys[i+1])
			if i+2 < len(keys) {
				if v, ok := mdInt(keys[i+2]); ok {
					count = v
				}
			}
		}
	}
	switch {
	case count != 1:
		return notJudgeable(KindTexture, "sampler array", "an array of %d samplers: the reference gives single samplers only", count)
	case idx < 0 || idx > 15:
		return notJudgeable(KindTexture, "sampler argument", "sampler index %d (the descriptor layout has 0..15)", idx)
	case p.Type != "ptr addrspace(2)":
		return notJudgeable(KindTexture, "sampler argument "+p.Type, "a sampler parameter of LLVM type %s (AIR passes ptr addrspace(2))", p.Type)
	}
	for _, o := range k.Samplers {
		if o == int(idx) {
			return fmt.Errorf("cpuref: @%s: two parameters are sampler %d", entry, idx)
		}
	}
	p.Texture = int(idx)
	k.Samplers = append(k.Samplers, int(idx))
	sort.Ints(k.Samplers)
	return nil
}

// isTextureOp reports whether the air.* operation n works on textures or samplers.
func isTextureOp(n string) bool {
	return strings.Contains(n, "texture") || strings.HasPrefix(n, "air.sample") || strings.HasPrefix(n, "air.get_width") ||
		strings.HasPrefix(n, "air.get_height") || strings.HasPrefix(n, "air.get_depth") || strings.HasPrefix(n, "air.get_num_") ||
		strings.HasPrefix(n, "air.get_array_size") || strings.HasPrefix(n, "air.gather") || strings.HasPrefix(n, "air.read_depth") ||
		strings.HasPrefix(n, "air.write_depth")
}

// dimCode is the number the texture objects carry for a dimension (1 + its place in
// TextureDims), 0 when the dimension is unknown.
func dimCode(dim string) int {
	for i, d := range TextureDims {
		if d == dim {
			return i + 1
		}
	}
	return 0
}

// texelTypes are the result suffixes of sample and read operations: the LLVM type and the
// texture kind each needs.
var texelTypes = map[string]struct {
	ty   string
	kind byte
}{
	"v4f32": {"<4 x float>", 'f'}, "v4f16": {"<4 x half>", 'f'},
	"s.v4i32": {"<4 x i32>", 'i'}, "u.v4i32": {"<4 x i32>", 'u'},
}

// textureOp defines a sample or read operation, reading its operands from the module's own
// declaration; any other texture operation is a *NotJudgeableError naming it.
func textureOp(d declaration) (string, error) {
	n := d.Name
	refuse := func(why string, args ...any) (string, error) {
		return "", notJudgeable(KindTexture, n, "texture operation %s: %s", n, fmt.Sprintf(why, args...))
	}
	var read, depth bool
	rest, ok := "", false
	for _, pre := range []struct {
		s           string
		read, depth bool
	}{{"air.sample_texture_", false, false}, {"air.sample_depth_", false, true}, {"air.read_texture_", true, false}, {"air.read_depth_", true, true}} {
		if r, found := strings.CutPrefix(n, pre.s); found {
			rest, ok, read, depth = r, true, pre.read, pre.depth
			break
		}
	}
	if def, ms, err := multisampleOp(d, refuse); ms { // mstexture.go
		return def, err
	}
	if r, found := strings.CutPrefix(n, "air.write_texture_"); found {
		dim, suffix, _ := strings.Cut(r, ".")
		return writeOp(d, dim, suffix, refuse)
	}
	if q, dim, found := sizeQuery(n); found {
		return sizeQueryOp(d, q, dim, refuse)
	}
	if r, found := strings.CutPrefix(n, "air.gather_texture_"); found {
		return gatherOp(d, r, refuse) // gather.go
	}
	if def, isNull := nullTextureOp(d); isNull { // nulltexture.go
		return def, nil
	}
	if !ok {
		return refuse("the reference gives textures to sample, gather, read, write and query the size of (no comparisons, multisampled textures or depth writes)")
	}
	dim, suffix, _ := strings.Cut(rest, ".")
	// A .i16 infix marks 16-bit coordinate and LOD operands, which the checks read off the
	// declaration.
	suffix = strings.TrimPrefix(suffix, "i16.")
	grad := strings.HasSuffix(dim, "_grad")
	dim = strings.TrimSuffix(dim, "_grad")
	code := dimCode(dim)
	if code == 0 || grad && read {
		return refuse("dimension %q is not one the reference gives", rest)
	}
	want, ok := texelTypes[suffix]
	if depth {
		want, ok = struct {
			ty   string
			kind byte
		}{"float", 'd'}, suffix == "f32"
	}
	if !ok {
		return refuse("texel type %q is not one the reference gives (v4f32, v4f16, s.v4i32, u.v4i32; f32 for depth)", suffix)
	}
	ret, resident := d.Ret, false
	if ret != want.ty {
		ret, resident = "{ "+want.ty+", i8 }", true
		if d.Ret != ret {
			return refuse("result type %s, not %s or { %s, i8 }", d.Ret, want.ty, want.ty)
		}
	}
	if !allSane(d.Params) || len(d.Params) < 2 || d.Params[0] != "ptr addrspace(1)" {
		return refuse("operands (%s) not as the reference reads them", strings.Join(d.Params, ", "))
	}
	var b strings.Builder
	if read {
		if err := texelBounds(&b, d, dim, false, "airpipe_texture_oob"); err != "" {
			return refuse("%s", err)
		}
		if depth || !storageDim(dim) {
			fmt.Fprintf(&b, "  %%w = call <4 x i32> @airpipe_texel(ptr addrspace(1) %%a0, ptr addrspace(2) null, i1 false, i32 %d, i32 %d)\n", want.kind, code)
		} else {
			// The read may read a read_write texture (storage.go).
			storageRead(&b, d, want.kind, dim)
			fmt.Fprintf(&b, "  %%uw = call <4 x i32> @airpipe_texel(ptr addrspace(1) %%a0, ptr addrspace(2) null, i1 false, i32 %d, i32 %d)\n", want.kind, code)
			b.WriteString("  br label %texel\ntexel:\n  %w = phi <4 x i32> [ %sw, %storage ], [ %uw, %uniform ]\n")
		}
	} else {
		if d.Params[1] != "ptr addrspace(2)" {
			return refuse("operands (%s): the second is not a sampler", strings.Join(d.Params, ", "))
		}
		fmt.Fprintf(&b, "  %%w = call <4 x i32> @airpipe_texel(ptr addrspace(1) %%a0, ptr addrspace(2) %%a1, i1 true, i32 %d, i32 %d)\n", want.kind, code)
	}
	return finishTexel(&b, n, ret, want.ty, resident, d.Params), nil
}

// readOperands are a read's operands after the texture, per dimension: the coordinate's
// lanes and the bounds of the index operands that follow it (array layer or cube face)
// before the LOD.
var readOperands = map[string]struct {
	lanes   int
	indices []int
}{
	"1d": {1, nil}, "1d_array": {1, []int{1}}, "2d": {2, nil}, "2d_array": {2, []int{1}},
	"3d": {3, nil}, "cube": {2, []int{6}},
}

// texelBounds writes the check of a read's or write's operands — coordinate components below
// TextureExtent, layer and face within the texture, LOD 0 — which calls oob
// (airpipe_texture_oob or airpipe_texture_oob_write: the harness then reports an
// out-of-bounds access) when one fails. The operands are the texture, the coordinate, the
// index operands, for a write the value, then the LOD. It returns why the declaration cannot
// be read, or "".
func texelBounds(b *strings.Builder, d declaration, dim string, write bool, oob string) string {
	ops, ok := readOperands[dim]
	if !ok {
		return "the reference does not know the operand order of a " + dim + " read"
	}
	after := 2
	lod := after + len(ops.indices)
	if write {
		lod++
	}
	if len(d.Params) < lod+1 {
		return fmt.Sprintf("operands (%s): too few for coordinate, index and LOD", strings.Join(d.Params, ", "))
	}
	coord := d.Params[1]
	if elemBits(coord) < 8 || isFloatType(coord) || vecLen(coord) != fmt.Sprint(ops.lanes) {
		return fmt.Sprintf("coordinate of type %s, not %d integer lanes", coord, ops.lanes)
	}
	var conds []string
	cond := func(format string, args ...any) {
		c := fmt.Sprintf("%%k%d", len(conds))
		fmt.Fprintf(b, "  %s = "+format+"\n", append([]any{c}, args...)...)
		conds = append(conds, c)
	}
	e := elem(coord)
	for c := range ops.lanes {
		x := "%a1"
		if ops.lanes > 1 {
			x = fmt.Sprintf("%%c%d", c)
			fmt.Fprintf(b, "  %s = extractelement %s %%a1, i32 %d\n", x, coord, c)
		}
		cond("icmp ult %s %s, %d", e, x, TextureExtent)
	}
	for i, bound := range ops.indices {
		ty := d.Params[after+i]
		if strings.HasPrefix(ty, "<") || isFloatType(ty) || elemBits(ty) < 8 {
			return fmt.Sprintf("index operand of type %s", ty)
		}
		cond("icmp ult %s %%a%d, %d", ty, after+i, bound)
	}
	if ty := d.Params[lod]; strings.HasPrefix(ty, "<") || isFloatType(ty) || elemBits(ty) < 8 {
		return fmt.Sprintf("LOD operand of type %s", ty)
	}
	cond("icmp eq %s %%a%d, 0", d.Params[lod], lod)
	all := conds[0]
	for i, c := range conds[1:] {
		next := fmt.Sprintf("%%all%d", i)
		fmt.Fprintf(b, "  %s = and i1 %s, %s\n", next, all, c)
		all = next
	}
	fmt.Fprintf(b, "  br i1 %s, label %%in, label %%out\nout:\n  call void @%s()\n  unreachable\nin:\n", all, oob)
	return ""
}

// textureSupport is the module text behind the texture operations and arguments: a constant
// texture object per texture argument (its texel words, its kind and dimension code), a dummy
// constant per sampler argument, and airpipe_texel, which the operations call: it checks that
// its texture operand is one of the argument textures with the operation's kind and dimension
// and, for a sample, that its sampler is an argument sampler (otherwise the harness exits
// with status 6), and returns the texel.
func textureSupport(k *Kernel, defs string) string {
	var b strings.Builder
	for _, tx := range k.Textures {
		if tx.Writable() {
			continue
		}
		w := tx.Texel
		fmt.Fprintf(&b, "@airpipe_texture_%d = internal constant [8 x i32] [i32 %d, i32 %d, i32 %d, i32 %d, i32 %d, i32 %d, i32 0, i32 0], align 16\n",
			tx.Index, int32(w[0]), int32(w[1]), int32(w[2]), int32(w[3]), tx.Kind, dimCode(tx.Dim))
	}
	for _, s := range k.Samplers {
		fmt.Fprintf(&b, "@airpipe_sampler_%d = internal constant i64 %d, align 8\n", s, s)
	}
	for _, f := range []string{"airpipe_texture_oob", "airpipe_texture_oob_write"} {
		if strings.Contains(defs, "@"+f+"(") {
			fmt.Fprintf(&b, "declare void @%s()\n", f)
		}
	}
	if strings.Contains(defs, "@airpipe_texel(") || strings.Contains(defs, "@airpipe_storage_texel(") {
		b.WriteString("declare void @airpipe_texture_unknown(i32)\n")
	}
	b.WriteString(storageSupport(k, defs))
	if !strings.Contains(defs, "@airpipe_texel(") {
		return b.String()
	}
	b.WriteString("\n")
	b.WriteString("define internal <4 x i32> @airpipe_texel(ptr addrspace(1) %t, ptr addrspace(2) %s, i1 %sampled, i32 %kind, i32 %dim) {\nentry:\n")
	ok := "false"
	for i, tx := range k.Textures {
		if tx.Writable() {
			continue
		}
		fmt.Fprintf(&b, "  %%te%d = icmp eq ptr addrspace(1) %%t, addrspacecast (ptr @airpipe_texture_%d to ptr addrspace(1))\n  %%to%d = or i1 %s, %%te%d\n", i, tx.Index, i, ok, i)
		ok = fmt.Sprintf("%%to%d", i)
	}
	fmt.Fprintf(&b, "  br i1 %s, label %%sampler, label %%badtexture\nbadtexture:\n  call void @airpipe_texture_unknown(i32 1)\n  unreachable\nsampler:\n", ok)
	b.WriteString("  %unsampled = xor i1 %sampled, true\n")
	ok = "%unsampled"
	for i, s := range k.Samplers {
		fmt.Fprintf(&b, "  %%se%d = icmp eq ptr addrspace(2) %%s, addrspacecast (ptr @airpipe_sampler_%d to ptr addrspace(2))\n  %%so%d = or i1 %s, %%se%d\n", i, s, i, ok, i)
		ok = fmt.Sprintf("%%so%d", i)
	}
	// A constexpr sampler (sampler.go) is its global or its inttoptr word; with every
	// texture uniform, its decoded state does not change the texel.
	for i, c := range k.ConstexprSamplers {
		fmt.Fprintf(&b, "  %%ce%d = icmp eq ptr addrspace(2) %%s, %s\n  %%co%d = or i1 %s, %%ce%d\n", i, c.Operand(), i, ok, i)
		ok = fmt.Sprintf("%%co%d", i)
	}
	fmt.Fprintf(&b, "  br i1 %s, label %%filter, label %%badsampler\nbadsampler:\n  call void @airpipe_texture_unknown(i32 2)\n  unreachable\n", ok)
	// Linear filtering of an integer texture is undefined (Metal allows nearest only;
	// Vulkan's integer formats have no linear filtering): set aside at run time.
	b.WriteString("filter:\n")
	lin := "false"
	for i, c := range k.ConstexprSamplers {
		if c.State.Mag == "linear" || c.State.Min == "linear" {
			fmt.Fprintf(&b, "  %%cl%d = or i1 %s, %%ce%d\n", i, lin, i)
			lin = fmt.Sprintf("%%cl%d", i)
		}
	}
	fmt.Fprintf(&b, "  %%ki = icmp eq i32 %%kind, %d\n  %%ku = icmp eq i32 %%kind, %d\n  %%kint = or i1 %%ki, %%ku\n  %%badf = and i1 %s, %%kint\n", 'i', 'u', lin)
	b.WriteString("  br i1 %badf, label %badfilter, label %load\nbadfilter:\n  call void @airpipe_texture_unknown(i32 6)\n  unreachable\n")
	b.WriteString(`load:
  %w = load <4 x i32>, ptr addrspace(1) %t, align 16
  %kp = getelementptr inbounds i32, ptr addrspace(1) %t, i64 4
  %kv = load i32, ptr addrspace(1) %kp, align 4
  %dp = getelementptr inbounds i32, ptr addrspace(1) %t, i64 5
  %dv = load i32, ptr addrspace(1) %dp, align 4
  %km = icmp eq i32 %kv, %kind
  %dm = icmp eq i32 %dv, %dim
  %m = and i1 %km, %dm
  br i1 %m, label %done, label %badkind
badkind:
  call void @airpipe_texture_unknown(i32 3)
  unreachable
done:
  ret <4 x i32> %w
}
`)
	return b.String()
}

// resourceArg writes the wrapper's instruction that makes argument v of a texture or sampler
// parameter: a pointer to its constant object, cast to the parameter's type.
func resourceArg(b *strings.Builder, p Param, v string) {
	if p.Storage {
		storageArg(b, p, v)
		return
	}
	g := fmt.Sprintf("@airpipe_texture_%d", p.Texture)
	if p.Role == "air.sampler" {
		g = fmt.Sprintf("@airpipe_sampler_%d", p.Texture)
	}
	fmt.Fprintf(b, "  %s = addrspacecast ptr %s to %s\n", v, g, p.Type)
}

// sizeQuery splits a texture size query's name, air.get_<query>_texture_<dim>:
// query is width, height, depth, array_size or num_mip_levels.
func sizeQuery(n string) (query, dim string, ok bool) {
	for _, q := range []string{"width", "height", "depth", "array_size", "num_mip_levels"} {
		if rest, found := strings.CutPrefix(n, "air.get_"+q+"_texture_"); found {
			dim, _, _ = strings.Cut(rest, ".")
			return q, dim, true
		}
	}
	return "", "", false
}

// sizeQueryOp defines a texture size query. Every texture the reference gives
// (and the device binds) has TextureExtent texels in each of its dimensions,
// one mip level and one array layer (a cube array: one cube), so the answers
// are those numbers; a width, height or depth query of a LOD other than 0
// asks about a mip level the texture does not have, which Metal leaves
// undefined, and calls airpipe_texture_oob (out of bounds, never a guess).
func sizeQueryOp(d declaration, query, dim string, refuse func(string, ...any) (string, error)) (string, error) {
	code := dimCode(dim)
	if code == 0 {
		return refuse("dimension %q is not one the reference gives", dim)
	}
	has := map[string]bool{
		"width":          true,
		"height":         dim != "1d" && dim != "1d_array",
		"depth":          dim == "3d",
		"array_size":     strings.HasSuffix(dim, "_array"),
		"num_mip_levels": true,
	}
	if !has[query] {
		return refuse("a %s texture has no %s", dim, query)
	}
	if d.Ret != "i32" || len(d.Params) < 1 || d.Params[0] != "ptr addrspace(1)" {
		return refuse("result %s, operands (%s): not as the reference reads them", d.Ret, strings.Join(d.Params, ", "))
	}
	var b strings.Builder
	value := 1
	switch query {
	case "width", "height", "depth":
		value = TextureExtent
		if len(d.Params) != 2 || d.Params[1] != "i32" {
			return refuse("operands (%s): not a texture and an i32 LOD", strings.Join(d.Params, ", "))
		}
		b.WriteString("  %k = icmp eq i32 %a1, 0\n  br i1 %k, label %in, label %out\nout:\n  call void @airpipe_texture_oob()\n  unreachable\nin:\n")
	default:
		if len(d.Params) != 1 {
			return refuse("operands (%s): not a texture alone", strings.Join(d.Params, ", "))
		}
	}
	fmt.Fprintf(&b, "  ret i32 %d\n", value)
	var ps []string
	for i, p := range d.Params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
	}
	return fmt.Sprintf("define internal i32 @%q(%s) {\nentry:\n%s}\n", d.Name, strings.Join(ps, ", "), b.String()), nil
}

// finishTexel ends a texture operation's definition: it converts the texel
// words %w to the result type ty (float bits as they are, half narrowed —
// exact, every 'f' texel is exact in half —, the first word for a scalar
// float, integers as they are), returns it (with the residency byte, 1,
// when the result is sparse) and wraps the body b into the definition of
// name with params.
func finishTexel(b *strings.Builder, name, ret, ty string, resident bool, params []string) string {
	switch ty {
	case "<4 x float>":
		b.WriteString("  %v = bitcast <4 x i32> %w to <4 x float>\n")
	case "<4 x half>":
		b.WriteString("  %f = bitcast <4 x i32> %w to <4 x float>\n  %v = fptrunc <4 x float> %f to <4 x half>\n")
	case "float":
		b.WriteString("  %e = extractelement <4 x i32> %w, i32 0\n  %v = bitcast i32 %e to float\n")
	default:
		b.WriteString("  %v = add <4 x i32> %w, zeroinitializer\n")
	}
	if resident {
		// The i8 is residency: every texture the reference gives is resident (1).
		fmt.Fprintf(b, "  %%r0 = insertvalue %s poison, %s %%v, 0\n  %%r = insertvalue %s %%r0, i8 1, 1\n  ret %s %%r\n", ret, ty, ret, ret)
	} else {
		fmt.Fprintf(b, "  ret %s %%v\n", ret)
	}
	var ps []string
	for i, p := range params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
	}
	return fmt.Sprintf("define internal %s @%q(%s) {\nentry:\n%s}\n", ret, name, strings.Join(ps, ", "), b.String())
}
