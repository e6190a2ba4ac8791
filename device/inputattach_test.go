package device

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
)

// TestFragmentTargetsInputs: the input attachments a shader reads are marked Input on their
// targets; one it reads but does not write gets a target of its kind that is not written.
func TestFragmentTargetsInputs(t *testing.T) {
	got, err := FragmentTargets(assemble(t, "blendfrag"), "main")
	if err != nil {
		t.Fatal(err)
	}
	want := []DrawTarget{
		{Format: FormatR32G32B32A32Sfloat, Mask: 0xf, Input: true},
		{Format: FormatR32G32B32A32Uint, Mask: 0xf, Input: true},
		{Format: FormatR32G32B32A32Sfloat, Input: true, NoWrite: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("target %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestDrawInputAttachments draws testdata/blendfrag.spvasm, which reads its three colour
// attachments as input attachments: each pixel must see its targets' clear values (out0 =
// 2·clear0 + (0, 0, 0, clear2.x), out1 = clear1 + 5), and target 2, read but not written,
// keeps its clear value. Clears that differ per target show a shader reading the wrong one.
// A depth attachment beside them works too.
// Misuse (a target read but not marked Input, Input on a target not read, a wrong kind) is
// an argument error.
func TestDrawInputAttachments(t *testing.T) {
	d := openDevice(t, Options{})
	frag := assemble(t, "blendfrag")
	targets, err := FragmentTargets(frag, "main")
	if err != nil {
		t.Fatal(err)
	}
	clear0 := [4]uint32{f32bits(0.5), f32bits(-1.25), f32bits(3), f32bits(0.125)}
	clear1 := [4]uint32{7, 100, 0xfffffff0, 1 << 31}
	clear2 := [4]uint32{f32bits(9.5), f32bits(1), f32bits(2), f32bits(4)}
	targets[0].Clear, targets[1].Clear, targets[2].Clear = clear0, clear1, clear2
	x := DrawArgs{Width: 4, Height: 4, Targets: targets}
	out, err := d.Draw(context.Background(), frag, "main", x)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("cannot draw here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	want0 := [4]uint32{f32bits(1), f32bits(-2.5), f32bits(6), f32bits(0.25 + 9.5)}
	want1 := [4]uint32{12, 105, 0xfffffff5, 1<<31 + 5}
	for p := range 16 {
		for c := range 4 {
			if got := word(out[0], 4*p+c); got != want0[c] {
				t.Errorf("target 0 pixel %d component %d: got %#x want %#x", p, c, got, want0[c])
			}
			if got := word(out[1], 4*p+c); got != want1[c] {
				t.Errorf("target 1 pixel %d component %d: got %#x want %#x", p, c, got, want1[c])
			}
			if got := word(out[2], 4*p+c); got != clear2[c] {
				t.Errorf("target 2 pixel %d component %d: got %#x want its clear %#x", p, c, got, clear2[c])
			}
		}
	}
	// With a depth attachment too (the render pass then has one more attachment): the same
	// colours, and the rasterised depth 0.5 in every pixel (the shader writes none).
	dx := x
	dx.Depth = make([]byte, 4*4*4)
	out, err = d.Draw(context.Background(), frag, "main", dx)
	if err != nil {
		t.Fatal(err)
	}
	for p := range 16 {
		if got := word(dx.Depth, p); got != f32bits(0.5) {
			t.Errorf("depth pixel %d: %#x want 0.5", p, got)
		}
		if got := word(out[1], 4*p); got != want1[0] {
			t.Errorf("with depth: target 1 pixel %d: got %#x want %#x", p, got, want1[0])
		}
	}
	for _, c := range []struct {
		name string
		edit func([]DrawTarget)
	}{
		{"read but not Input", func(ts []DrawTarget) { ts[1].Input = false }},
		{"Input but not read", func(ts []DrawTarget) { ts[3] = DrawTarget{Format: FormatR32G32B32A32Sfloat, Input: true} }},
		{"wrong kind", func(ts []DrawTarget) { ts[1].Format = FormatR32G32B32A32Sfloat }},
	} {
		bad := x
		bad.Targets = append(append([]DrawTarget(nil), targets...), DrawTarget{})
		c.edit(bad.Targets)
		if _, err := d.Draw(context.Background(), frag, "main", bad); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: %v, want an argument error", c.name, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

// TestCompileGraphicsInputAttachments: a fragment shader reading input attachments is built
// for a render pass (Vulkan builds such a pipeline for no dynamic rendering), on RADV's null
// device and lavapipe; the location it reads but does not write gets an attachment too.
func TestCompileGraphicsInputAttachments(t *testing.T) {
	frag := assemble(t, "blendfrag")
	for _, target := range []string{"radv-navi21", "lavapipe"} {
		t.Run(target, func(t *testing.T) {
			c := openCompiler(t, target)
			st, err := c.CompileGraphics(nil, frag, "", "main", nil)
			if err != nil {
				t.Fatal(err)
			}
			if target == "radv-navi21" && len(st) == 0 {
				t.Error("no statistics")
			}
			m, err := parseSPIRV(frag)
			if err != nil {
				t.Fatal(err)
			}
			rp, formats, err := c.dev.compilePass(m, []Format{FormatR16G16B16A16Sfloat, FormatR32Uint})
			if err != nil || rp == nil || rp.pass == 0 {
				t.Fatalf("compilePass: %v %+v", err, rp)
			}
			defer rp.destroy(c.dev)
			want := []Format{FormatR16G16B16A16Sfloat, FormatR32Uint, FormatR32G32B32A32Sfloat}
			if len(formats) != len(want) || formats[0] != want[0] || formats[1] != want[1] || formats[2] != want[2] {
				t.Errorf("pipeline formats %v, want %v (the read-only location 2 as its input's kind)", formats, want)
			}
		})
	}
}
