package stages

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// deviceVersion changes whenever the device stage's verdicts change.
const deviceVersion = "9"

// DeviceOptions configure the device stage.
type DeviceOptions struct {
	// Device chooses the GPU: "auto" (the first device that is not a CPU
	// or a null device) or a name substring; "" leaves the stage
	// unavailable.
	Device string
	// ReferenceCache, ChildArgv, ChildEnv and Timeout are as for the
	// emulator stage.
	ReferenceCache string
	ChildArgv      []string
	ChildEnv       []string
	Timeout        time.Duration
	// Grid is the compute dispatch, as for the emulator stage.
	Grid cpuref.Grid
}

// DeviceRun is the device stage: the emulator's check (the entry point run
// over pattern-filled buffers, compared bit for bit with LLVM's CPU
// execution) on a real GPU. A mismatch is run twice more; if the runs
// disagree with each other the module is unjudged as device/flaky. No GPU
// here means unavailable, with the reason; a CPU device is not a GPU.
func DeviceRun(o DeviceOptions) pipeline.Stage[*Module] {
	d := &deviceStage{opts: o}
	return pipeline.Stage[*Module]{Name: "device", Version: deviceVersion, Workers: 1, Timeout: 5 * time.Minute, Run: d.run,
		Needs: []string{ArtifactTranslation}}
}

type deviceStage struct {
	opts DeviceOptions
	once sync.Once
	emu  *emulator
	name string
	err  error
}

// choose resolves the device once: a real GPU or the reason there is none.
func (d *deviceStage) choose() {
	f, err := harness.ChooseGPU(d.opts.Device)
	if err != nil {
		d.err = err
		return
	}
	d.name = f.Name
	d.emu = newEmulator(EmulatorOptions{Device: f.Name, ReferenceCache: d.opts.ReferenceCache,
		ChildArgv: d.opts.ChildArgv, ChildEnv: d.opts.ChildEnv, Timeout: d.opts.Timeout, Grid: d.opts.Grid, SIMDWidth: int(f.SubgroupSize)}, true)
}

func (d *deviceStage) run(ctx context.Context, m *Module) pipeline.Result {
	d.once.Do(d.choose)
	if d.err != nil {
		return pipeline.Unavailablef("%v", d.err)
	}
	r := asDevice(d.emu.run(ctx, m))
	if r.Code == codes.DeviceMismatch {
		again := []pipeline.Result{asDevice(d.emu.run(ctx, m)), asDevice(d.emu.run(ctx, m))}
		for _, a := range again {
			if a.Status != r.Status || a.Detail != r.Detail || a.Message != r.Message {
				f := pipeline.UnjudgedBecause(fmt.Sprintf("three runs disagree: %q, %q, %q", r.Message, again[0].Message, again[1].Message))
				f.Code, f.Detail = codes.DeviceFlaky, r.Detail
				return f
			}
		}
	}
	if r.Data == nil {
		r.Data = map[string]string{}
	}
	r.Data["device_name"] = d.name
	return r
}

// asDevice renames the emulator's codes and data keys for the device stage.
func asDevice(r pipeline.Result) pipeline.Result {
	r.Code = codes.OnDevice(r.Code)
	if len(r.Missing) > 0 {
		missing := make([]pipeline.Finding, len(r.Missing))
		for i, f := range r.Missing {
			missing[i] = pipeline.Finding{Code: codes.OnDevice(f.Code), Detail: f.Detail}
		}
		r.Missing = missing
	}
	if len(r.Data) > 0 {
		data := make(map[string]string, len(r.Data))
		for k, v := range r.Data {
			data[strings.Replace(k, "emulator_", "", 1)] = v
		}
		r.Data = data
	}
	return r
}
