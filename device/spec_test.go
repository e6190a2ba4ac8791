package device

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// specDefaults are testdata/spec.spvasm's defaults: uint 7, float 1.5, bool false, int -3.
var specDefaults = [4]uint32{7, math.Float32bits(1.5), 0, uint32(0xfffffffd)}

// runSpec runs testdata/spec.spvasm's pipeline p with threads and vs and returns out[0..3].
func runSpec(t *testing.T, d *Device, p *Pipeline, threads uint32, vs []SpecValue) [4]uint32 {
	t.Helper()
	out := newBuffer(t, d, 64)
	defer out.Free()
	for i := range out.Bytes() {
		out.Bytes()[i] = 0xee
	}
	err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{threads, 1, 1},
		Bindings: []Binding{{Buffer: out}}, Specialization: vs})
	if err != nil {
		t.Fatalf("Run(%v): %v", vs, err)
	}
	var got [4]uint32
	for i := range got {
		got[i] = u32(out.Bytes(), i)
	}
	return got
}

// TestSpecialization runs a kernel that stores its specialization constants: without
// Specialization the module's defaults come back, with it the given words, and two Runs
// with different values on one Pipeline each get their own (the variant cache keys on the
// specialization, in any order, not only on the threads).
func TestSpecialization(t *testing.T) {
	d := openDevice(t, Options{})
	p := load(t, d, "spec")
	if got := runSpec(t, d, p, 1, nil); got != specDefaults {
		t.Errorf("defaults: got %#x want %#x", got, specDefaults)
	}
	a := []SpecValue{{100, 42}, {101, math.Float32bits(-0.25)}, {102, 1}, {103, uint32(0xffffff85)}}
	wantA := [4]uint32{42, math.Float32bits(-0.25), 1, 0xffffff85}
	b := []SpecValue{{102, 0}, {100, 5}} // 101 and 103 keep their defaults
	wantB := [4]uint32{5, specDefaults[1], 0, specDefaults[3]}
	if got := runSpec(t, d, p, 1, a); got != wantA {
		t.Errorf("specialization A: got %#x want %#x", got, wantA)
	}
	if got := runSpec(t, d, p, 1, b); got != wantB {
		t.Errorf("specialization B on the same pipeline: got %#x want %#x", got, wantB)
	}
	// A different threadgroup size with A: the size's constants and A's merge.
	if got := runSpec(t, d, p, 8, a); got != wantA {
		t.Errorf("specialization A at 8 threads: got %#x want %#x", got, wantA)
	}
	// A reordered reuses A's variant; an undeclared SpecId is allowed (Vulkan ignores it)
	// but makes its own variant.
	rev := []SpecValue{a[3], a[2], a[1], a[0]}
	if got := runSpec(t, d, p, 1, rev); got != wantA {
		t.Errorf("specialization A reordered: got %#x want %#x", got, wantA)
	}
	if got := runSpec(t, d, p, 1, []SpecValue{{999, 1}}); got != specDefaults {
		t.Errorf("undeclared SpecId: got %#x want the defaults %#x", got, specDefaults)
	}
	p.mu.Lock()
	n := len(p.variants)
	p.mu.Unlock()
	// LoadPipeline's own, 1 thread plain, A, B, 8 threads A, {999}.
	if n != 6 {
		t.Errorf("%d pipeline variants, want 6", n)
	}
}

// TestSpecializationMisuse breaks each check of a specialization: none may reach the
// queue or lose the device.
func TestSpecializationMisuse(t *testing.T) {
	d := openDevice(t, Options{})
	p := load(t, d, "spec")
	out := newBuffer(t, d, 64)
	for _, c := range []struct {
		name string
		vs   []SpecValue
	}{
		{"workgroup size x", []SpecValue{{0, 4}}},
		{"workgroup size z", []SpecValue{{100, 1}, {2, 1}}},
		{"duplicate", []SpecValue{{100, 1}, {101, 2}, {100, 1}}},
		{"bool not 0 or 1", []SpecValue{{102, 2}}},
	} {
		err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1},
			Bindings: []Binding{{Buffer: out}}, Specialization: c.vs})
		var ae *ArgumentError
		if !errors.Is(err, ErrInvalidArgument) || !errors.As(err, &ae) {
			t.Errorf("%s: %v, want an *ArgumentError", c.name, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
	// The checks without a device: a module whose workgroup size is a literal reserves no
	// SpecId, and a 16-bit constant cannot take a 4-byte entry.
	m, err := parseSPIRV(assemble(t, "gid3"))
	if err != nil {
		t.Fatal(err)
	}
	if ids := m.workgroupSpecIDs(m.entries["main"]); len(ids) != 0 {
		t.Errorf("gid3 reserves SpecIds %v", ids)
	}
	if err := checkSpec("Run", m, []SpecValue{{0, 1}}, m.workgroupSpecIDs(m.entries["main"])); err != nil {
		t.Errorf("SpecId 0 with a literal workgroup size: %v", err)
	}
	m.specIDs[1000] = 100
	m.specTypes[1000] = 1001
	m.types[1001] = []uint32{4<<16 | opTypeInt, 1001, 16, 0}
	if err := checkSpec("Run", m, []SpecValue{{100, 1}}, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("16-bit constant: %v", err)
	}
}

// TestSpecKey checks the variant key: canonical over order, distinct over values and IDs.
func TestSpecKey(t *testing.T) {
	a := specKey([]SpecValue{{100, 1}, {101, 2}})
	if b := specKey([]SpecValue{{101, 2}, {100, 1}}); a != b {
		t.Errorf("order changes the key: %q vs %q", a, b)
	}
	for _, vs := range [][]SpecValue{nil, {{100, 1}}, {{100, 1}, {101, 3}}, {{100, 1}, {102, 2}}, {{10, 11}, {1, 2}}} {
		if k := specKey(vs); k == a {
			t.Errorf("%v has A's key %q", vs, k)
		}
	}
}

// TestSpecializationDraw draws testdata/specfrag.spvasm, whose colour is made of its
// specialization constants, with and without Specialization.
func TestSpecializationDraw(t *testing.T) {
	d := openDevice(t, Options{})
	frag := assemble(t, "specfrag")
	draw := func(vs []SpecValue) [4]uint32 {
		t.Helper()
		out, err := d.Draw(context.Background(), frag, "main", DrawArgs{Width: 2, Height: 2,
			Targets: []DrawTarget{{Format: FormatR32G32B32A32Uint}}, Specialization: vs})
		if errors.Is(err, ErrUnavailable) {
			t.Skipf("cannot draw here: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		var px [4]uint32
		for c := range px {
			px[c] = binary.LittleEndian.Uint32(out[0][4*c:])
		}
		for i := 1; i < 4; i++ {
			for c := range px {
				if w := binary.LittleEndian.Uint32(out[0][16*i+4*c:]); w != px[c] {
					t.Errorf("pixel %d component %d: %#x, pixel 0 has %#x", i, c, w, px[c])
				}
			}
		}
		return px
	}
	if got, want := draw(nil), [4]uint32{7, math.Float32bits(1.5), 0, 9}; got != want {
		t.Errorf("defaults: got %#x want %#x", got, want)
	}
	vs := []SpecValue{{100, 123}, {101, math.Float32bits(2.75)}, {102, 1}}
	if got, want := draw(vs), [4]uint32{123, math.Float32bits(2.75), 1, 9}; got != want {
		t.Errorf("specialized: got %#x want %#x", got, want)
	}
	_, err := d.Draw(context.Background(), frag, "main", DrawArgs{Width: 2, Height: 2,
		Targets: []DrawTarget{{Format: FormatR32G32B32A32Uint}}, Specialization: []SpecValue{{100, 1}, {100, 2}}})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("duplicate SpecId: %v", err)
	}
}

// TestSpecializationCapture captures testdata/specvert.spvasm's output made of its
// specialization constants, with and without Specialization.
func TestSpecializationCapture(t *testing.T) {
	d := openDevice(t, Options{})
	vert := assemble(t, "specvert")
	capture := func(vs []SpecValue) [2]uint32 {
		t.Helper()
		out, err := d.CaptureVertices(context.Background(), vert, "main", VertexArgs{Vertices: 3, Stride: 8,
			Initial: make([]byte, 24), Outputs: []VertexOutput{{Location: 0}}, Specialization: vs})
		if errors.Is(err, ErrUnavailable) {
			t.Skipf("cannot capture here: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		return [2]uint32{binary.LittleEndian.Uint32(out[16:]), binary.LittleEndian.Uint32(out[20:])}
	}
	if got, want := capture(nil), [2]uint32{7, math.Float32bits(1.5)}; got != want {
		t.Errorf("defaults: got %#x want %#x", got, want)
	}
	vs := []SpecValue{{101, math.Float32bits(-8)}, {100, 0xdeadbeef}}
	if got, want := capture(vs), [2]uint32{0xdeadbeef, math.Float32bits(-8)}; got != want {
		t.Errorf("specialized: got %#x want %#x", got, want)
	}
}
