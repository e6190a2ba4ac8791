package device

import (
	"errors"
	"testing"
)

// TestTextureSamples checks which sample counts and shapes a TextureSpec may ask for, and
// that a multisampled image descriptor takes multisample textures only.
func TestTextureSamples(t *testing.T) {
	for _, c := range []struct {
		spec TextureSpec
		ok   bool
	}{
		{TextureSpec{Dim: Dim2D, Kind: 'f'}, true},
		{TextureSpec{Dim: Dim2D, Kind: 'f', Samples: 1}, true},
		{TextureSpec{Dim: Dim2D, Kind: 'f', Samples: 4}, true},
		{TextureSpec{Dim: Dim2DArray, Kind: 'u', Samples: 8}, true},
		{TextureSpec{Dim: Dim2D, Kind: 'f', Samples: 3}, false},
		{TextureSpec{Dim: Dim3D, Kind: 'f', Samples: 4}, false},
		{TextureSpec{Dim: DimCube, Kind: 'f', Samples: 4}, false},
		{TextureSpec{Dim: Dim2D, Kind: 'f', Samples: 4, Storage: true}, false},
	} {
		if err := c.spec.checkSamples(); (err == nil) != c.ok {
			t.Errorf("%+v: %v, want ok %v", c.spec, err, c.ok)
		}
	}
	ms, ss := spirvImage{Dim: 1, MS: true, Kind: 'f'}, spirvImage{Dim: 1, Kind: 'f'}
	four, one := TextureSpec{Dim: Dim2D, Kind: 'f', Samples: 4}, TextureSpec{Dim: Dim2D, Kind: 'f'}
	if matchImage(ms, four) != nil || matchImage(ss, one) != nil {
		t.Error("a texture of the image's sample kind does not match")
	}
	if matchImage(ms, one) == nil || matchImage(ss, four) == nil {
		t.Error("a texture of the other sample kind matches")
	}
}

// TestNewMultisampleTexture makes multisample textures on the device: 4 samples (what Vulkan
// requires for sampled colour and depth images) of each kind, and refuses by ErrUnavailable a
// count the device does not make (64: no device here has it).
func TestNewMultisampleTexture(t *testing.T) {
	d := openDevice(t, Options{})
	for _, kind := range []byte{'f', 'i', 'u', 'd'} {
		tex, err := d.NewTexture(TextureSpec{Dim: Dim2D, Kind: kind, Samples: 4})
		if err != nil {
			t.Fatalf("%c: %v", kind, err)
		}
		tex.Free()
	}
	if _, err := d.NewTexture(TextureSpec{Dim: Dim2DArray, Kind: 'f', Samples: 64}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("64 samples: got %v, want ErrUnavailable", err)
	}
	if err := d.Err(); err != nil {
		t.Fatalf("the device was lost: %v", err)
	}
}
