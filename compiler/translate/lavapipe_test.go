package translate

import (
	"context"
	"testing"

	"github.com/airpipe/airpipe/device"
)

// translatedFixture translates a fixture's only entry point, failing the
// test when it cannot.
func translatedFixture(t testing.TB, name string) *Output {
	t.Helper()
	m, ep := fixtureEntry(t, name)
	out, err := Translate(m, ep)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lavapipeKernel is a fixture kernel that spirv-val accepts, loaded on
// lavapipe.
type lavapipeKernel struct {
	t    *testing.T
	dev  *device.Device
	pipe *device.Pipeline
}

// onLavapipe translates a fixture kernel, validates it and loads it on
// lavapipe (stopped when the test ends); the test is skipped without the
// validator or lavapipe.
func onLavapipe(t *testing.T, name string) *lavapipeKernel {
	t.Helper()
	needValidator(t)
	out := translatedFixture(t, name)
	mustValidate(t, out.SPIRV)
	dev, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe: %v", err)
	}
	t.Cleanup(func() { _ = dev.Stop() })
	p, err := dev.LoadPipeline(out.SPIRV, out.Reflection.Entry)
	if err != nil {
		t.Fatal(err)
	}
	return &lavapipeKernel{t: t, dev: dev, pipe: p}
}

// buffers returns new device buffers of the sizes given.
func (k *lavapipeKernel) buffers(sizes ...int64) []*device.Buffer {
	k.t.Helper()
	bufs := make([]*device.Buffer, len(sizes))
	for i, size := range sizes {
		var err error
		if bufs[i], err = k.dev.NewBuffer(size); err != nil {
			k.t.Fatal(err)
		}
	}
	return bufs
}

// run dispatches groups threadgroups of threads threads each, with bufs[i]
// at binding i.
func (k *lavapipeKernel) run(groups, threads uint32, bufs []*device.Buffer) {
	k.t.Helper()
	binds := make([]device.Binding, len(bufs))
	for i, b := range bufs {
		binds[i] = device.Binding{Binding: uint32(i), Buffer: b}
	}
	args := device.DispatchArgs{Groups: [3]uint32{groups, 1, 1}, Threads: [3]uint32{threads, 1, 1}, Bindings: binds}
	if err := k.dev.Run(context.Background(), k.pipe, args); err != nil {
		k.t.Fatal(err)
	}
}
