package device

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// contractTexel is the texture contract's value of Metal texture index i (docs: the texture
// contract, the same formula as compiler/cpuref's TexelWords).
func contractTexel(i int, kind byte) [4]uint32 {
	var w [4]uint32
	for c := range 4 {
		switch kind {
		case 'f':
			w[c] = math.Float32bits(float32(4*(i%15)+c+1) / 64)
		case 'i':
			w[c] = uint32(int32(-(16*i + c + 3)))
		case 'u':
			w[c] = uint32(16*i + c + 5)
		}
	}
	if kind == 'd' {
		w[0] = math.Float32bits(float32(i%15+1) / 16)
	}
	return w
}

// texCase is one texture of testdata/texsample.spvasm: out[slot] reads binding 32+index.
type texCase struct {
	name  string
	index int
	dim   TextureDim
	kind  byte
}

var texCases = []texCase{
	{"2D float", 0, Dim2D, 'f'},
	{"2D int", 1, Dim2D, 'i'},
	{"2D uint", 2, Dim2D, 'u'},
	{"2D depth", 3, Dim2D, 'd'},
	{"2D array", 4, Dim2DArray, 'f'},
	{"3D", 5, Dim3D, 'f'},
	{"cube", 6, DimCube, 'f'},
	{"cube array", 7, DimCubeArray, 'f'},
	{"1D", 8, Dim1D, 'f'},
	{"1D array", 9, Dim1DArray, 'f'},
}

// texSetup makes texsample's pipeline, its output buffer (11 uint4) and its textures, each
// holding the contract value of its index unless texel overrides it.
func texSetup(t *testing.T, d *Device, texel map[int][4]uint32) (*Pipeline, *Buffer, []Binding) {
	t.Helper()
	p := load(t, d, "texsample")
	out, err := d.NewBuffer(11 * 16)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(out.Free)
	binds := []Binding{{Set: 0, Binding: 0, Buffer: out}, {Set: 0, Binding: 160, Sampler: true}}
	for _, c := range texCases {
		w, ok := texel[c.index]
		if !ok {
			w = contractTexel(c.index, c.kind)
		}
		tex, err := d.NewTexture(TextureSpec{Dim: c.dim, Kind: c.kind, Texel: w})
		if err != nil {
			t.Fatalf("%s texture: %v", c.name, err)
		}
		t.Cleanup(tex.Free)
		binds = append(binds, Binding{Set: 0, Binding: uint32(32 + c.index), Texture: tex})
	}
	return p, out, binds
}

func outWord(b *Buffer, slot, c int) uint32 {
	return binary.LittleEndian.Uint32(b.Bytes()[16*slot+4*c:])
}

// checkSlot compares out[slot] with want (only .r for depth) and returns the mismatches.
func checkSlot(b *Buffer, slot int, kind byte, want [4]uint32) (bad []string) {
	n := 4
	if kind == 'd' {
		n = 1
	}
	for c := range n {
		if got := outWord(b, slot, c); got != want[c] {
			bad = append(bad, "component "+string("rgba"[c])+": got "+hex(got)+" want "+hex(want[c]))
		}
	}
	return bad
}

func hex(w uint32) string {
	const digits = "0123456789abcdef"
	s := []byte("0x00000000")
	for i := range 8 {
		s[9-i] = digits[w>>(4*i)&0xf]
	}
	return string(s)
}

// TestTextureSample samples every texture shape and kind of the contract in a compute shader
// through the device's sampler, fetches one texel, and checks the exact words; once without
// Timing and once with it.
func TestTextureSample(t *testing.T) {
	d := openDevice(t, Options{})
	t.Logf("device: %s", d.Facts())
	p, out, binds := texSetup(t, d, nil)
	x := DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}, Bindings: binds}
	if err := d.Run(context.Background(), p, x); err != nil {
		t.Fatalf("Run without Timing: %v", err)
	}
	check := func() {
		for slot, c := range texCases {
			for _, m := range checkSlot(out, slot, c.kind, contractTexel(c.index, c.kind)) {
				t.Errorf("%s (binding %d): %s", c.name, 32+c.index, m)
			}
		}
		for _, m := range checkSlot(out, 10, 'f', contractTexel(0, 'f')) {
			t.Errorf("OpImageFetch of the 2D float texture: %s", m)
		}
	}
	check()
	t.Logf("depth texture sampled: %s %s %s %s", hex(outWord(out, 3, 0)), hex(outWord(out, 3, 1)), hex(outWord(out, 3, 2)), hex(outWord(out, 3, 3)))
	clear(out.Bytes())
	var tm Timing
	x.Timing = &tm
	if err := d.Run(context.Background(), p, x); err != nil {
		t.Fatalf("Run with Timing: %v", err)
	}
	check()
	checkTiming(t, d, tm)
}

// checkTiming checks a Timing: Start <= End, both set when the device can time, 0 otherwise.
func checkTiming(t *testing.T, d *Device, tm Timing) {
	t.Helper()
	if !d.Facts().CanTime() {
		if tm != (Timing{}) {
			t.Errorf("a device that cannot time gave %+v", tm)
		}
		return
	}
	if tm.Start == 0 || tm.End == 0 || tm.Start > tm.End {
		t.Errorf("timing %+v: want 0 < Start <= End", tm)
	}
	t.Logf("GPU time %d ns (%+v)", tm.Nanos(), tm)
}

// TestTextureBrokenOnPurpose clears the 2D float texture with index 5's value instead of
// index 0's: the words read back differ from index 0's, so the check above can fail.
func TestTextureBrokenOnPurpose(t *testing.T) {
	d := openDevice(t, Options{})
	p, out, binds := texSetup(t, d, map[int][4]uint32{0: contractTexel(5, 'f'), 1: contractTexel(2, 'i')})
	if err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}, Bindings: binds}); err != nil {
		t.Fatal(err)
	}
	if len(checkSlot(out, 0, 'f', contractTexel(0, 'f'))) == 0 {
		t.Errorf("a texture cleared with another value still matched index 0's words")
	}
	if bad := checkSlot(out, 0, 'f', contractTexel(5, 'f')); len(bad) != 0 {
		t.Errorf("the texture cleared with index 5's value: %v", bad)
	}
	if len(checkSlot(out, 1, 'i', contractTexel(1, 'i'))) == 0 {
		t.Errorf("an int texture cleared with another value still matched index 1's words")
	}
}

// TestTextureBindingMismatch gives wrong kinds of bindings; each must be an *ArgumentError
// naming the set and binding, and none may lose the device.
func TestTextureBindingMismatch(t *testing.T) {
	d := openDevice(t, Options{})
	p, out, binds := texSetup(t, d, nil)
	tex2D := binds[2].Texture // binding 32: 2D float
	texInt := binds[3].Texture
	freed, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: 'f'})
	if err != nil {
		t.Fatal(err)
	}
	freed.Free()
	replace := func(binding uint32, b Binding) []Binding {
		out := append([]Binding(nil), binds...)
		for i := range out {
			if out[i].Binding == binding {
				b.Set, b.Binding = 0, binding
				out[i] = b
			}
		}
		return out
	}
	without := func(binding uint32) []Binding {
		var out []Binding
		for _, b := range binds {
			if b.Binding != binding {
				out = append(out, b)
			}
		}
		return out
	}
	for _, c := range []struct {
		name  string
		binds []Binding
	}{
		{"texture for the storage buffer", replace(0, Binding{Texture: tex2D})},
		{"sampler for the storage buffer", replace(0, Binding{Sampler: true})},
		{"missing sampler", without(160)},
		{"buffer for the sampler", replace(160, Binding{Buffer: out})},
		{"texture for the sampler", replace(160, Binding{Texture: tex2D})},
		{"buffer for a texture", replace(32, Binding{Buffer: out})},
		{"sampler for a texture", replace(32, Binding{Sampler: true})},
		{"int texture for a float image", replace(32, Binding{Texture: texInt})},
		{"2D texture for a cube image", replace(38, Binding{Texture: tex2D})},
		{"2D texture for a 2D array image", replace(36, Binding{Texture: tex2D})},
		{"buffer and texture at once", replace(32, Binding{Buffer: out, Texture: tex2D})},
		{"nothing given", replace(32, Binding{})},
		{"freed texture", replace(32, Binding{Texture: freed})},
		{"missing texture", without(37)},
	} {
		err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}, Bindings: c.binds})
		var ae *ArgumentError
		if !errors.As(err, &ae) {
			t.Errorf("%s: got %v, want an *ArgumentError", c.name, err)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

// TestNewTextureArguments refuses bad specs before touching the device.
func TestNewTextureArguments(t *testing.T) {
	d := openDevice(t, Options{})
	for _, s := range []TextureSpec{
		{Dim: 0, Kind: 'f'},
		{Dim: DimCubeArray + 1, Kind: 'f'},
		{Dim: Dim2D, Kind: 'x'},
		{Dim: Dim2D, Kind: 'd', Texel: [4]uint32{math.Float32bits(1.5)}},
		{Dim: Dim2D, Kind: 'd', Texel: [4]uint32{math.Float32bits(-0.5)}},
		{Dim: Dim2D, Kind: 'd', Texel: [4]uint32{0x7fc00000}},
		{Dim: Dim2D, Kind: 'd', Texel: [4]uint32{0, 1}},
	} {
		if _, err := d.NewTexture(s); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%+v: got %v, want ErrInvalidArgument", s, err)
		}
	}
}

func TestTextureDimOf(t *testing.T) {
	for _, c := range []struct {
		dim     string
		arrayed bool
		want    TextureDim
	}{
		{"1D", false, Dim1D}, {"1D", true, Dim1DArray}, {"2D", false, Dim2D}, {"2D", true, Dim2DArray},
		{"3D", false, Dim3D}, {"Cube", false, DimCube}, {"Cube", true, DimCubeArray},
	} {
		got, err := TextureDimOf(c.dim, c.arrayed)
		if err != nil || got != c.want {
			t.Errorf("TextureDimOf(%q, %v) = %v, %v; want %v", c.dim, c.arrayed, got, err, c.want)
		}
		if got.String() != c.dim+map[bool]string{false: "", true: "Array"}[c.arrayed] {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	for _, c := range []struct {
		dim     string
		arrayed bool
	}{{"3D", true}, {"Buffer", false}, {"", false}, {"2DArray", false}} {
		if _, err := TextureDimOf(c.dim, c.arrayed); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("TextureDimOf(%q, %v): %v, want ErrInvalidArgument", c.dim, c.arrayed, err)
		}
	}
}

// TestTextureFreeInFlight frees a texture while the work that samples it may still run: the
// texture must stay until that work completes, then be destroyed.
func TestTextureFreeInFlight(t *testing.T) {
	d := openDevice(t, Options{})
	p, out, binds := texSetup(t, d, nil)
	tex := binds[2].Texture
	x := DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}, Bindings: binds}
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error {
		for range 50 {
			if err := enc.Dispatch(p, x); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tex.Free()
	if d.liveTexture(tex) {
		t.Errorf("a freed texture is still live")
	}
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	for _, m := range checkSlot(out, 0, 'f', contractTexel(0, 'f')) {
		t.Errorf("texture freed in flight: %s", m)
	}
	// The reaper destroys it right after the value is reached.
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		d.mu.Lock()
		_, kept := d.textures[tex]
		d.mu.Unlock()
		if !kept {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("the freed texture was not destroyed after its work completed")
}

// TestDrawTexture draws testdata/texfrag.spvasm: every pixel of target 0 is the float
// texture's value (sampled with implicit LOD), of target 1 the int texture's (fetched).
func TestDrawTexture(t *testing.T) {
	d := openDevice(t, Options{})
	frag := assemble(t, "texfrag")
	ts, err := FragmentTargets(frag, "main")
	if err != nil {
		t.Fatal(err)
	}
	tf, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: 'f', Texel: contractTexel(0, 'f')})
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Free()
	ti, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: 'i', Texel: contractTexel(1, 'i')})
	if err != nil {
		t.Fatal(err)
	}
	defer ti.Free()
	var tm Timing
	px, err := d.Draw(context.Background(), frag, "main", DrawArgs{Width: 4, Height: 4, Targets: ts, Timing: &tm,
		Bindings: []Binding{{Set: 0, Binding: 32, Texture: tf}, {Set: 0, Binding: 33, Texture: ti}, {Set: 0, Binding: 160, Sampler: true}}})
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("cannot draw here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := [2][4]uint32{contractTexel(0, 'f'), contractTexel(1, 'i')}
	for k := range 2 {
		for p := range 16 {
			for c := range 4 {
				if got := binary.LittleEndian.Uint32(px[k][16*p+4*c:]); got != want[k][c] {
					t.Errorf("target %d pixel %d component %d: got %#x want %#x", k, p, c, got, want[k][c])
				}
			}
		}
	}
	checkTiming(t, d, tm)
	// A draw without Timing works as well.
	if _, err := d.Draw(context.Background(), frag, "main", DrawArgs{Width: 1, Height: 1, Targets: ts,
		Bindings: []Binding{{Set: 0, Binding: 32, Texture: tf}, {Set: 0, Binding: 33, Texture: ti}, {Set: 0, Binding: 160, Sampler: true}}}); err != nil {
		t.Errorf("Draw without Timing: %v", err)
	}
	_, err = d.Draw(context.Background(), frag, "main", DrawArgs{Width: 1, Height: 1, Targets: ts,
		Bindings: []Binding{{Set: 0, Binding: 32, Texture: tf}, {Set: 0, Binding: 33, Texture: ti}}})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Draw without the sampler: %v", err)
	}
}

// TestCaptureVerticesTexture captures testdata/texvert.spvasm: every vertex's outputs are
// the uint texture's and the cube texture's values.
func TestCaptureVerticesTexture(t *testing.T) {
	d := openDevice(t, Options{})
	vert := assemble(t, "texvert")
	tu, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: 'u', Texel: contractTexel(2, 'u')})
	if err != nil {
		t.Fatal(err)
	}
	defer tu.Free()
	tc, err := d.NewTexture(TextureSpec{Dim: DimCube, Kind: 'f', Texel: contractTexel(6, 'f')})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Free()
	var tm Timing
	const n, stride = 3, 32
	out, err := d.CaptureVertices(context.Background(), vert, "main", VertexArgs{Vertices: n, Stride: stride, Initial: make([]byte, n*stride),
		Outputs:  []VertexOutput{{Location: 0, Offset: 0}, {Location: 1, Offset: 16}},
		Bindings: []Binding{{Set: 0, Binding: 34, Texture: tu}, {Set: 0, Binding: 38, Texture: tc}, {Set: 0, Binding: 160, Sampler: true}},
		Timing:   &tm})
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("cannot capture here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := [2][4]uint32{contractTexel(2, 'u'), contractTexel(6, 'f')}
	for v := range n {
		for w := range 8 {
			if got := binary.LittleEndian.Uint32(out[v*stride+4*w:]); got != want[w/4][w%4] {
				t.Errorf("vertex %d word %d: got %#x want %#x", v, w, got, want[w/4][w%4])
			}
		}
	}
	checkTiming(t, d, tm)
}

// TestReflectTextures checks the reflection of texsample's descriptors: SAMPLER for the
// sampler, SAMPLED_IMAGE with each image's Dim, Arrayed and numeric kind for the textures.
func TestReflectTextures(t *testing.T) {
	m, err := parseSPIRV(assemble(t, "texsample"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[uint32]spirvBinding{}
	for _, b := range m.bindings {
		got[b.Binding] = b
	}
	if b := got[160]; b.Type != vk.DescriptorTypeSampler || b.Count != 1 {
		t.Errorf("sampler: %+v", b)
	}
	if b := got[0]; b.Type != vk.DescriptorTypeStorageBuffer {
		t.Errorf("buffer: %+v", b)
	}
	for _, c := range texCases {
		b := got[uint32(32+c.index)]
		sh := texShapes[c.dim]
		kind := c.kind
		if kind == 'd' {
			kind = 'f'
		}
		want := spirvImage{Dim: sh.spvDim, Arrayed: sh.arrayed, Kind: kind}
		if b.Type != vk.DescriptorTypeSampledImage || b.Count != 1 || b.Image != want {
			t.Errorf("%s: %+v, want SAMPLED_IMAGE %+v", c.name, b, want)
		}
		if err := matchImage(b.Image, TextureSpec{Dim: c.dim, Kind: c.kind}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
