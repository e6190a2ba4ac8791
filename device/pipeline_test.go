package device

import (
	"context"
	"testing"
)

// onDevice reports whether p is on d's list of pipelines, whose Vulkan objects live on.
func onDevice(d *Device, p *Pipeline) bool {
	return d.holds(func() bool { _, ok := d.pipelines[p]; return ok })
}

// TestUnloadDestroys: a long-lived device that loads and unloads a pipeline per kernel (the
// emulator child) must not keep them: an unloaded pipeline whose work is done is destroyed,
// at once or when its work completes.
func TestUnloadDestroys(t *testing.T) {
	d := openDevice(t, Options{})
	out := newBuffer(t, d, 4*64)
	run := DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{64, 1, 1}, Bindings: []Binding{{Buffer: out}}}
	check := func(what string) {
		t.Helper()
		for i := range 64 {
			if got := u32(out.Bytes(), i); got != uint32(3*i) {
				t.Fatalf("%s: out[%d] = %d, want %d", what, i, got, 3*i)
			}
		}
		clear(out.Bytes())
	}

	// Unloaded after its work is done: destroyed at once.
	p := load(t, d, "gid3")
	if err := d.Run(context.Background(), p, run); err != nil {
		t.Fatal(err)
	}
	check("run")
	p.Unload()
	if onDevice(d, p) || len(p.variants) != 0 {
		t.Fatalf("an unloaded, idle pipeline was kept (%d variants)", len(p.variants))
	}
	p.Unload() // harmless

	// Unloaded while its work may be in flight: kept for it, destroyed once it completes.
	p = load(t, d, "gid3")
	v, err := d.Submit(func(enc *Encoder, arg any, v uint64) error { return enc.Dispatch(p, run) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Unload()
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	check("submitted, then unloaded")
	if onDevice(d, p) {
		t.Fatal("an unloaded pipeline was kept after its work completed")
	}
}

// TestUnloadKeepsICBPipelines: a pipeline an ICB was made with lives until Stop, so the ICB
// still runs after the pipeline is unloaded.
func TestUnloadKeepsICBPipelines(t *testing.T) {
	d := openDevice(t, Options{})
	p, args := argmulSetup(t, d)
	ic, err := d.ICB(args, []Dispatch{{Pipeline: p, Offset: 0, Groups: [3]int{4, 1, 1}, Threads: [3]int{8, 1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	p.Unload()
	if !onDevice(d, p) || len(p.variants) == 0 {
		t.Fatal("a pipeline an ICB uses was destroyed at Unload")
	}
	v, err := d.Submit(func(enc *Encoder, arg any, v uint64) error { return enc.Execute(arg.(*ICB)) }, ic)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	for i := range 32 {
		if got := u32(args.Bytes(), 4+i); got != uint32(3*i) {
			t.Fatalf("data[%d] = %d, want %d", i, got, 3*i)
		}
	}
}
