package device

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// TestFillArguments checks that a fill gets the open encoder, its argument and the value its
// work completes on, and that values are reached in order.
func TestFillArguments(t *testing.T) {
	d := openDevice(t, Options{})
	var seen []uint64
	var last uint64
	for i := range 5 {
		v, err := d.Submit(func(enc *Encoder, arg any, v uint64) error {
			if arg.(int) != i {
				t.Errorf("fill %d got argument %v", i, arg)
			}
			if _, err := enc.CommandBuffer(); err != nil {
				t.Errorf("fill %d: no open command buffer: %v", i, err)
			}
			seen = append(seen, v)
			return nil
		}, i)
		if err != nil {
			t.Fatal(err)
		}
		if v != seen[len(seen)-1] || v <= last {
			t.Fatalf("Submit returned %d, fill saw %d, previous %d", v, seen[len(seen)-1], last)
		}
		last = v
	}
	if err := d.Wait(context.Background(), last); err != nil {
		t.Fatal(err)
	}
	if d.Reached() < last {
		t.Fatalf("Reached() = %d after waiting for %d", d.Reached(), last)
	}
	// The Vulkan timeline semaphore carries the same value.
	a := vk.GetArena()
	defer vk.PutArena(a)
	got := vk.New[uint64](a)
	if r := vk.CallResult(d.dev.fns.GetSemaphoreCounterValue, d.dev.handle, uintptr(d.TimelineSemaphore()), vk.Addr(got)); r != vk.Success || *got < last {
		t.Fatalf("timeline semaphore at %d (%v), want at least %d", *got, r, last)
	}
}

// TestEncoderOutsideFill keeps the encoder past its fill: every use is an invalid argument.
func TestEncoderOutsideFill(t *testing.T) {
	d := openDevice(t, Options{})
	var kept *Encoder
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error { kept = enc; return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := kept.Split(nil, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Split after the fill: %v", err)
	}
	if _, err := kept.CommandBuffer(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("CommandBuffer after the fill: %v", err)
	}
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatalf("misuse of a stale encoder must not lose the device: %v", err)
	}
	if _, err := d.Submit(nil, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil fill: %v", err)
	}
}

// TestFillFailureLosesDevice: a fill that fails (or panics) loses the device with its reason;
// every later call fails with that loss.
func TestFillFailureLosesDevice(t *testing.T) {
	for _, c := range []struct {
		name string
		fill Fill
	}{
		{"error", func(*Encoder, any, uint64) error { return errBoom }},
		{"panic", func(*Encoder, any, uint64) error { panic(errBoom) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := openDevice(t, Options{})
			p, args := argmulSetup(t, d)
			ok, err := d.Submit(func(*Encoder, any, uint64) error { return nil }, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Wait(context.Background(), ok); err != nil {
				t.Fatal(err)
			}
			_, err = d.Submit(c.fill, nil)
			var le *LostError
			if !errors.As(err, &le) || !errors.Is(err, ErrLost) {
				t.Fatalf("Submit: %v, want a *LostError", err)
			}
			if c.name == "error" && !errors.Is(err, errBoom) {
				t.Errorf("loss %v does not carry the fill's error", err)
			}
			for name, call := range map[string]func() error{
				"Submit": func() error { _, err := d.Submit(func(*Encoder, any, uint64) error { return nil }, nil); return err },
				"ICB": func() error {
					_, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{1, 1, 1}, Threads: [3]int{1, 1, 1}}})
					return err
				},
				"NewBuffer":    func() error { _, err := d.NewBuffer(16); return err },
				"LoadPipeline": func() error { _, err := d.LoadPipeline(assemble(t, "gid3"), "main"); return err },
				"Wait":         func() error { return d.Wait(context.Background(), ok+1) },
			} {
				if err := call(); !errors.Is(err, ErrLost) {
					t.Errorf("%s after the loss: %v, want the loss", name, err)
				}
			}
			if err := d.Wait(context.Background(), ok); err != nil {
				t.Errorf("a value reached before the loss stays reached: %v", err)
			}
		})
	}
}

var errBoom = errors.New("boom")

// TestSplitTimes runs work in three command buffers of one fill and checks the GPU times each
// split reports against the host clock.
func TestSplitTimes(t *testing.T) {
	d := openDevice(t, Options{})
	if !d.Facts().CanTime() {
		t.Skipf("%s cannot time", d.Facts().Name)
	}
	p, args := argmulSetup(t, d)
	ic, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{256, 1, 1}, Threads: [3]int{4, 1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var times [2][2]uint64
	before := HostNanos()
	v, err := d.Submit(func(enc *Encoder, arg any, v uint64) error {
		for i := range times {
			if err := enc.Execute(ic); err != nil {
				return err
			}
			if err := enc.Split(&times[i][0], &times[i][1]); err != nil {
				return err
			}
		}
		return enc.Execute(ic)
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	after := HostNanos()
	_, unc := d.ClockCalibration()
	slack := uint64(unc) + 1000
	for i, tt := range times {
		t.Logf("command buffer %d: GPU %d..%d ns (%.1f µs), host window %d..%d, calibration ±%.0f ns", i, tt[0], tt[1], float64(tt[1]-tt[0])/1e3, before, after, unc)
		if tt[0] == 0 || tt[1] < tt[0] {
			t.Errorf("command buffer %d: times %v", i, tt)
		}
		if tt[0]+slack < before || tt[1] > after+slack {
			t.Errorf("command buffer %d: times %v outside the host window [%d, %d] ± %d", i, tt, before, after, slack)
		}
	}
	if times[1][0]+slack < times[0][1] {
		t.Errorf("second command buffer started (%d) before the first ended (%d)", times[1][0], times[0][1])
	}
}

// TestSplitWaitsWhenFull splits more often than the queue holds command buffers.
func TestSplitWaitsWhenFull(t *testing.T) {
	d := openDevice(t, Options{QueueDepth: 2})
	p, args := argmulSetup(t, d)
	ic, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{1, 1, 1}, Threads: [3]int{1, 1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10
	ends := make([]uint64, n)
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error {
		for i := range n {
			if err := enc.Execute(ic); err != nil {
				return err
			}
			if err := enc.Split(nil, &ends[i]); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Wait(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	if d.Facts().CanTime() {
		for i, e := range ends {
			if e == 0 {
				t.Errorf("split %d: no end time", i)
			}
		}
	}
}

// TestStopWaitsForCallsInFlight stops the device while a fill is running: Stop returns only
// after it, its work is done, and later calls fail with ErrStopped.
func TestStopWaitsForCallsInFlight(t *testing.T) {
	d := openDevice(t, Options{})
	inFill, release := make(chan struct{}), make(chan struct{})
	var v uint64
	var submitErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		v, submitErr = d.Submit(func(*Encoder, any, uint64) error {
			close(inFill)
			<-release
			return nil
		}, nil)
	}()
	<-inFill
	stopped := make(chan struct{})
	go func() { d.Stop(); close(stopped) }()
	time.Sleep(50 * time.Millisecond)
	select {
	case <-stopped:
		t.Fatal("Stop returned while a fill was in flight")
	default:
	}
	if _, err := d.NewBuffer(16); !errors.Is(err, ErrStopped) {
		t.Errorf("NewBuffer while stopping: %v, want ErrStopped", err)
	}
	close(release)
	wg.Wait()
	<-stopped
	if submitErr != nil {
		t.Fatalf("the Submit in flight failed: %v", submitErr)
	}
	if d.Reached() < v {
		t.Errorf("Stop returned before value %d was reached (%d)", v, d.Reached())
	}
	if err := d.Wait(context.Background(), v); err != nil {
		t.Errorf("Wait for a reached value after Stop: %v", err)
	}
	if _, err := d.Submit(func(*Encoder, any, uint64) error { return nil }, nil); !errors.Is(err, ErrStopped) {
		t.Errorf("Submit after Stop: %v, want ErrStopped", err)
	}
	if err := d.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

// TestICBCollected drops an ICB: the collector releases its Vulkan objects.
func TestICBCollected(t *testing.T) {
	d := openDevice(t, Options{})
	p, args := argmulSetup(t, d)
	count := func() int {
		d.mu.Lock()
		defer d.mu.Unlock()
		return len(d.icbs)
	}
	func() {
		if _, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{1, 1, 1}, Threads: [3]int{1, 1, 1}}}); err != nil {
			t.Fatal(err)
		}
	}()
	if count() != 1 {
		t.Fatalf("%d ICBs registered, want 1", count())
	}
	for deadline := time.Now().Add(30 * time.Second); count() > 0 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if count() != 0 {
		t.Fatal("the collected ICB was not released")
	}
	kept, err := d.ICB(args, []Dispatch{{Pipeline: p, Groups: [3]int{1, 1, 1}, Threads: [3]int{1, 1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	kept.Release()
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error {
		if err := enc.Execute(kept); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Execute of a released ICB: %v", err)
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d.Wait(context.Background(), v)
}
