package device

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// storeSetup makes texstore's pipeline and its three storage textures (bindings 480, 481,
// 482: float index 0, uint index 1, int index 2), each cleared to the contract value of its
// index unless texel overrides it.
func storeSetup(t *testing.T, d *Device, texel map[int][4]uint32) (*Pipeline, []*Texture, []Binding) {
	t.Helper()
	p := load(t, d, "texstore")
	var texs []*Texture
	var binds []Binding
	for i, kind := range []byte{'f', 'u', 'i'} {
		w, ok := texel[i]
		if !ok {
			w = contractTexel(i, kind)
		}
		tex, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: kind, Texel: w, Storage: true})
		if err != nil {
			t.Fatalf("storage texture %d: %v", i, err)
		}
		t.Cleanup(tex.Free)
		texs = append(texs, tex)
		binds = append(binds, Binding{Set: 0, Binding: uint32(480 + i), Texture: tex})
	}
	return p, texs, binds
}

// storeWant is what texstore leaves in texel (x, y) of texture i, which started as start.
func storeWant(i, x, y int, start [4]uint32) [4]uint32 {
	f := func(w uint32, d float32) uint32 { return math.Float32bits(math.Float32frombits(w) + d) }
	switch i {
	case 0:
		return [4]uint32{f(start[0], float32(x)), f(start[1], float32(y)), f(start[2], 0), f(start[3], 1)}
	case 1:
		if x == 3 {
			return start
		}
		return [4]uint32{uint32(x), uint32(y), uint32(x + 4*y), 7}
	}
	var w [4]uint32
	for c := range 4 {
		w[c] = uint32(-int32(start[c]))
	}
	return w
}

// storeMismatches reads texture i back and lists the texels that differ from storeWant.
func storeMismatches(t *testing.T, tex *Texture, i int, start [4]uint32) (bad int) {
	t.Helper()
	b, err := tex.Read(context.Background())
	if err != nil {
		t.Fatalf("Read texture %d: %v", i, err)
	}
	if len(b) != 4*4*TexelBytes || tex.ReadSize() != len(b) {
		t.Fatalf("Read texture %d: %d bytes (ReadSize %d), want %d", i, len(b), tex.ReadSize(), 4*4*TexelBytes)
	}
	for y := range 4 {
		for x := range 4 {
			want := storeWant(i, x, y, start)
			for c := range 4 {
				if got := binary.LittleEndian.Uint32(b[(4*y+x)*TexelBytes+4*c:]); got != want[c] {
					bad++
					t.Logf("texture %d texel (%d, %d) component %d: got %#x want %#x", i, x, y, c, got, want[c])
				}
			}
		}
	}
	return bad
}

// TestStorageTexture runs texstore (read-modify-write of a float and an int storage image,
// writes to a uint one) and checks every texel of each read back: written ones exactly, the
// uint texture's column 3 still its clear value.
func TestStorageTexture(t *testing.T) {
	d := openDevice(t, Options{})
	p, texs, binds := storeSetup(t, d, nil)
	var tm Timing
	if err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 4, 1}, Bindings: binds, Timing: &tm}); err != nil {
		t.Fatal(err)
	}
	for i, kind := range []byte{'f', 'u', 'i'} {
		if bad := storeMismatches(t, texs[i], i, contractTexel(i, kind)); bad != 0 {
			t.Errorf("texture %d: %d words differ", i, bad)
		}
	}
	checkTiming(t, d, tm)
}

// TestStorageTextureBrokenOnPurpose clears the float and uint storage textures with other
// indices' values: the words read back differ from what the contract's values give, so the
// check above can fail.
func TestStorageTextureBrokenOnPurpose(t *testing.T) {
	d := openDevice(t, Options{})
	p, texs, binds := storeSetup(t, d, map[int][4]uint32{0: contractTexel(5, 'f'), 1: contractTexel(4, 'u')})
	if err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 4, 1}, Bindings: binds}); err != nil {
		t.Fatal(err)
	}
	if storeMismatches(t, texs[0], 0, contractTexel(0, 'f')) == 0 {
		t.Errorf("a float storage texture cleared with another value still matched index 0's words")
	}
	if storeMismatches(t, texs[1], 1, contractTexel(1, 'u')) == 0 {
		t.Errorf("a uint storage texture cleared with another value still matched index 1's words in column 3")
	}
	if bad := storeMismatches(t, texs[0], 0, contractTexel(5, 'f')); bad != 0 {
		t.Errorf("the texture cleared with index 5's value: %d words differ", bad)
	}
}

// TestStorageTextureRead reads back, without any shader, a storage texture of every shape and
// kind storage textures have: every texel is the clear value, in ReadSize bytes.
func TestStorageTextureRead(t *testing.T) {
	d := openDevice(t, Options{})
	for _, dim := range storageDims {
		for i, kind := range []byte{'f', 'i', 'u'} {
			w := contractTexel(i+3, kind)
			tex, err := d.NewTexture(TextureSpec{Dim: dim, Kind: kind, Texel: w, Storage: true})
			if err != nil {
				t.Fatalf("%v %c: %v", dim, kind, err)
			}
			b, err := tex.Read(context.Background())
			tex.Free()
			if err != nil {
				t.Fatalf("%v %c: Read: %v", dim, kind, err)
			}
			e := texShapes[dim].extent
			if len(b) != int(e.Width*e.Height*e.Depth*texShapes[dim].layers)*TexelBytes {
				t.Fatalf("%v %c: %d bytes", dim, kind, len(b))
			}
			for k := 0; k < len(b); k += 4 {
				if got := binary.LittleEndian.Uint32(b[k:]); got != w[k/4%4] {
					t.Fatalf("%v %c: word %d = %#x, want %#x", dim, kind, k/4, got, w[k/4%4])
				}
			}
		}
	}
}

// TestStorageTextureMisuse gives a storage texture where a sampled one belongs and the other
// way round, a storage texture of another kind, bad specs and a Read of a sampled texture:
// each is an *ArgumentError, and none loses the device.
func TestStorageTextureMisuse(t *testing.T) {
	d := openDevice(t, Options{})
	p, texs, binds := storeSetup(t, d, nil)
	sampled, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: 'f', Texel: contractTexel(0, 'f')})
	if err != nil {
		t.Fatal(err)
	}
	defer sampled.Free()
	with := func(binding uint32, tex *Texture) []Binding {
		out := append([]Binding(nil), binds...)
		out[binding-480].Texture = tex
		return out
	}
	for _, c := range []struct {
		name  string
		binds []Binding
	}{
		{"sampled texture for a storage image", with(480, sampled)},
		{"uint storage texture for a float storage image", with(480, texs[1])},
		{"float storage texture for an int storage image", with(482, texs[0])},
		{"missing storage texture", binds[:2]},
	} {
		err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 4, 1}, Bindings: c.binds})
		var ae *ArgumentError
		if !errors.As(err, &ae) {
			t.Errorf("%s: got %v, want an *ArgumentError", c.name, err)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
	// A storage texture for texsample's SAMPLED_IMAGE binding 32.
	tp, _, tbinds := texSetup(t, d, nil)
	tbinds[2].Texture = texs[0]
	if err := d.Run(context.Background(), tp, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}, Bindings: tbinds}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("storage texture for a sampled image: got %v, want ErrInvalidArgument", err)
	}
	if _, err := sampled.Read(context.Background()); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Read of a sampled texture: got %v, want ErrInvalidArgument", err)
	}
	for _, s := range []TextureSpec{
		{Dim: Dim2D, Kind: 'd', Storage: true},
		{Dim: DimCubeArray, Kind: 'u', Storage: true},
	} {
		if _, err := d.NewTexture(s); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%+v: got %v, want ErrInvalidArgument", s, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

// TestReflectStorageImages checks texstore's reflection (STORAGE_IMAGE descriptors with their
// formats) and the capabilities that need the without-format features.
func TestReflectStorageImages(t *testing.T) {
	code := assemble(t, "texstore")
	m, err := parseSPIRV(code)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[uint32]byte{480: 'f', 481: 'u', 482: 'i'}
	formats := map[uint32]uint32{480: 1, 481: 0, 482: 21}
	for _, b := range m.bindings {
		want := spirvImage{Dim: 1, Kind: kinds[b.Binding], Format: formats[b.Binding]}
		if b.Type != vk.DescriptorTypeStorageImage || b.Image != want {
			t.Errorf("binding %d: %+v, want STORAGE_IMAGE %+v", b.Binding, b, want)
		}
	}
	caps := spirvCapabilities(m.words)
	if caps[capStorageImageReadWithoutFormat] || !caps[capStorageImageWriteWithoutFormat] || !caps[1] {
		t.Errorf("capabilities %v, want Shader and StorageImageWriteWithoutFormat", caps)
	}
	// A module declaring both (as airpipe's translation does) on devices without them: each
	// missing feature is named.
	both := append([]uint32(nil), m.words[:5]...)
	both = append(both, 2<<16|opCapability, 1, 2<<16|opCapability, capStorageImageReadWithoutFormat, 2<<16|opCapability, capStorageImageWriteWithoutFormat)
	both = append(both, m.words[7:]...)
	if c := spirvCapabilities(both); !c[capStorageImageReadWithoutFormat] || !c[capStorageImageWriteWithoutFormat] {
		t.Fatalf("capabilities of the edited module: %v", c)
	}
	ld := &logical{phys: &physical{}, storageWriteNoFormat: true}
	if err := ld.checkCapabilities(both); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "shaderStorageImageReadWithoutFormat") {
		t.Errorf("without the read feature: %v", err)
	}
	ld.storageReadNoFormat, ld.storageWriteNoFormat = true, false
	if err := ld.checkCapabilities(both); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "shaderStorageImageWriteWithoutFormat") {
		t.Errorf("without the write feature: %v", err)
	}
	ld.storageWriteNoFormat = true
	if err := ld.checkCapabilities(both); err != nil {
		t.Errorf("with both features: %v", err)
	}
}

// TestExtensionCapabilities: a module declaring StencilExportEXT (as a fragment function
// writing air.stencil translates) is refused by name on a device created without
// VK_EXT_shader_stencil_export, and accepted on one with it; so is each capability of
// extensionCapabilities.
func TestExtensionCapabilities(t *testing.T) {
	header := []uint32{0x07230203, 0x00010300, 0, 10, 0}
	for _, c := range extensionCapabilities {
		words := append(append([]uint32(nil), header...), 2<<16|opCapability, 1, 2<<16|opCapability, c.capability)
		ld := &logical{phys: &physical{}, storageReadNoFormat: true, storageWriteNoFormat: true, extensions: map[string]bool{}}
		err := ld.checkCapabilities(words)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), c.extension) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s without %s: %v", c.name, c.extension, err)
		}
		ld.extensions[c.extension] = true
		if err := ld.checkCapabilities(words); err != nil {
			t.Errorf("%s with %s: %v", c.name, c.extension, err)
		}
		if !slices.Contains(optionalExtensions, c.extension) {
			t.Errorf("%s: %s is not among the extensions a device is created with", c.name, c.extension)
		}
	}
}
