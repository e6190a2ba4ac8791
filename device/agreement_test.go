package device

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"testing"
)

// openDevice opens lavapipe (or $AIRPIPE_TEST_DEVICE, such as "auto" on a machine with a GPU)
// for the agreement, or skips when it is absent.
func openDevice(t testing.TB, opts Options) *Device {
	t.Helper()
	spec := "lavapipe"
	if s := os.Getenv("AIRPIPE_TEST_DEVICE"); s != "" {
		spec = s
	}
	d, err := Open(spec, opts)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("%s unavailable: %v", spec, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Stop() })
	return d
}

func load(t testing.TB, d *Device, name string) *Pipeline {
	t.Helper()
	p, err := d.LoadPipeline(assemble(t, name), "main")
	if err != nil {
		t.Fatalf("LoadPipeline(%s): %v", name, err)
	}
	return p
}

func newBuffer(t testing.TB, d *Device, size int64) *Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func u32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }

// TestRunGid3 dispatches a kernel that writes gid*3 and reads the buffer back.
func TestRunGid3(t *testing.T) {
	d := openDevice(t, Options{})
	p := load(t, d, "gid3")
	const groups, threads = 16, 64
	out := newBuffer(t, d, 4*groups*threads)
	for i := range out.Bytes() {
		out.Bytes()[i] = 0xee
	}
	err := d.Run(context.Background(), p, DispatchArgs{
		Groups: [3]uint32{groups, 1, 1}, Threads: [3]uint32{threads, 1, 1},
		Bindings: []Binding{{Set: 0, Binding: 0, Buffer: out}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range groups * threads {
		if got := u32(out.Bytes(), i); got != uint32(3*i) {
			t.Fatalf("out[%d] = %d, want %d", i, got, 3*i)
		}
	}
}

// TestRunMisuse breaks each argument Run checks; none may reach the queue or lose the device.
func TestRunMisuse(t *testing.T) {
	d := openDevice(t, Options{})
	p := load(t, d, "gid3")
	out := newBuffer(t, d, 4096)
	ok := DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{64, 1, 1}, Bindings: []Binding{{Buffer: out}}}
	for _, c := range []struct {
		name string
		edit func(*DispatchArgs)
	}{
		{"unbound descriptor", func(x *DispatchArgs) { x.Bindings = nil }},
		{"zero groups", func(x *DispatchArgs) { x.Groups[1] = 0 }},
		{"zero threads", func(x *DispatchArgs) { x.Threads[2] = 0 }},
		{"misaligned offset", func(x *DispatchArgs) { x.Bindings = []Binding{{Buffer: out, Offset: 4}} }},
		{"offset outside", func(x *DispatchArgs) { x.Bindings = []Binding{{Buffer: out, Offset: 4096}} }},
		{"push constants", func(x *DispatchArgs) { x.Push = make([]byte, 4) }},
	} {
		x := ok
		c.edit(&x)
		if err := d.Run(context.Background(), p, x); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: err %v, want an invalid argument", c.name, err)
		}
	}
	if err := d.Run(context.Background(), p, ok); err != nil {
		t.Fatalf("valid run after the misuse: %v", err)
	}
}

func TestAlign(t *testing.T) {
	d := openDevice(t, Options{})
	l := d.Facts().Limits
	a := d.Align()
	if a < 1 || a&(a-1) != 0 || uint64(a) < l.MinStorageBufferOffsetAlignment || uint64(a) < l.MinUniformBufferOffsetAlignment {
		t.Fatalf("Align() = %d with limits storage %d uniform %d", a, l.MinStorageBufferOffsetAlignment, l.MinUniformBufferOffsetAlignment)
	}
}

// argmulSetup makes an argument buffer with two argument records, at 0 and at 4096, whose
// multipliers are 3 and 5.
func argmulSetup(t *testing.T, d *Device) (*Pipeline, *Buffer) {
	p := load(t, d, "argmul")
	args := newBuffer(t, d, 8192)
	binary.LittleEndian.PutUint32(args.Bytes()[0:], 3)
	binary.LittleEndian.PutUint32(args.Bytes()[4096:], 5)
	return p, args
}

// TestICBRuns records two dispatches once and runs them from two submissions.
func TestICBRuns(t *testing.T) {
	d := openDevice(t, Options{})
	p, args := argmulSetup(t, d)
	ic, err := d.ICB(args, []Dispatch{
		{Pipeline: p, Offset: 0, Groups: [3]int{4, 1, 1}, Threads: [3]int{8, 1, 1}},
		{Pipeline: p, Offset: 4096, Groups: [3]int{2, 1, 1}, Threads: [3]int{1, 1, 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		clear(args.Bytes()[16:4096])
		clear(args.Bytes()[4096+16:])
		v, err := d.Submit(func(enc *Encoder, arg any, v uint64) error { return enc.Execute(arg.(*ICB)) }, ic)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Wait(context.Background(), v); err != nil {
			t.Fatal(err)
		}
		b := args.Bytes()
		for i := range 32 {
			if got := u32(b, 4+i); got != uint32(3*i) {
				t.Fatalf("round %d: record 0 data[%d] = %d, want %d", round, i, got, 3*i)
			}
		}
		if got := u32(b, 4+32); got != 0 {
			t.Fatalf("round %d: record 0 data[32] = %d, beyond the grid", round, got)
		}
		for i := range 2 {
			if got := u32(b, 1024+4+i); got != uint32(5*i) {
				t.Fatalf("round %d: record 1 data[%d] = %d, want %d", round, i, got, 5*i)
			}
		}
	}
	empty, err := d.ICB(args, nil)
	if err != nil || empty.Len() != 0 {
		t.Fatalf("empty ICB: %v", err)
	}
}

// TestICBInvalidArguments breaks each thing ICB checks as an invalid argument.
func TestICBInvalidArguments(t *testing.T) {
	d := openDevice(t, Options{})
	other := openDevice(t, Options{})
	p, args := argmulSetup(t, d)
	otherP, otherArgs := argmulSetup(t, other)
	freed := newBuffer(t, d, 64)
	freed.Free()
	unloaded := load(t, d, "argmul")
	unloaded.Unload()
	good := Dispatch{Pipeline: p, Offset: 0, Groups: [3]int{1, 1, 1}, Threads: [3]int{1, 1, 1}}
	if d.Align() < 2 {
		t.Fatalf("Align() = %d: the misaligned case needs an alignment above 1", d.Align())
	}
	for _, c := range []struct {
		name string
		args *Buffer
		edit func(*Dispatch)
	}{
		{"nil buffer", nil, nil},
		{"freed buffer", freed, nil},
		{"buffer of another device", otherArgs, nil},
		{"nil pipeline", args, func(x *Dispatch) { x.Pipeline = nil }},
		{"unloaded pipeline", args, func(x *Dispatch) { x.Pipeline = unloaded }},
		{"pipeline of another device", args, func(x *Dispatch) { x.Pipeline = otherP }},
		{"negative offset", args, func(x *Dispatch) { x.Offset = -d.Align() }},
		{"offset at the end", args, func(x *Dispatch) { x.Offset = args.Size() }},
		{"offset past the end", args, func(x *Dispatch) { x.Offset = args.Size() + d.Align() }},
		{"misaligned offset", args, func(x *Dispatch) { x.Offset = d.Align() / 2 }},
		{"groups x 0", args, func(x *Dispatch) { x.Groups[0] = 0 }},
		{"groups y negative", args, func(x *Dispatch) { x.Groups[1] = -1 }},
		{"groups z 0", args, func(x *Dispatch) { x.Groups[2] = 0 }},
		{"threads x 0", args, func(x *Dispatch) { x.Threads[0] = 0 }},
		{"threads y 0", args, func(x *Dispatch) { x.Threads[1] = 0 }},
		{"threads z negative", args, func(x *Dispatch) { x.Threads[2] = -4 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := good
			if c.edit != nil {
				c.edit(&bad)
			}
			_, err := d.ICB(c.args, []Dispatch{good, bad})
			var ae *ArgumentError
			if !errors.Is(err, ErrInvalidArgument) || !errors.As(err, &ae) {
				t.Fatalf("err %v, want an invalid argument", err)
			}
			if c.edit != nil && ae.Index != 1 {
				t.Errorf("error names element %d, want 1", ae.Index)
			}
		})
	}
	if _, err := d.ICB(args, []Dispatch{good, good}); err != nil {
		t.Fatalf("the good dispatches: %v", err)
	}
}

// TestICBErrors checks the failures that are the device's, not the caller's.
func TestICBErrors(t *testing.T) {
	d := openDevice(t, Options{})
	p, args := argmulSetup(t, d)
	maxAll := int(d.Facts().Limits.MaxComputeWorkGroupInvocations)
	maxX := int(d.Facts().Limits.MaxComputeWorkGroupSize[0])
	for _, threads := range [][3]int{{maxX + 1, 1, 1}, {maxX, 2, 1}, {1, 1, maxAll + 1}} {
		_, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{1, 1, 1}, Threads: threads}})
		var le *LimitError
		if !errors.As(err, &le) || errors.Is(err, ErrInvalidArgument) {
			t.Errorf("threads %v: err %v, want a *LimitError that is not an invalid argument", threads, err)
		}
	}
	gid3 := load(t, d, "gid3") // set 0 binding 0 only: usable
	if _, err := d.ICB(args, []Dispatch{{Pipeline: gid3, Groups: [3]int{1, 1, 1}, Threads: [3]int{64, 1, 1}}}); err != nil {
		t.Errorf("gid3 in an ICB: %v", err)
	}
	d.Stop()
	_, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{1, 1, 1}, Threads: [3]int{1, 1, 1}}})
	if errors.Is(err, ErrInvalidArgument) || err == nil {
		t.Errorf("after Stop: err %v, want an error that is not an invalid argument", err)
	}
}
