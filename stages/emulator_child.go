package stages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/pipeline/proc"
)

// CodeEmulatorCrash: the emulator's child process died while the device ran
// the module (a driver crash); the detail is the signal or exit status.
const CodeEmulatorCrash = "emulator/driver-crash"

// emuRequest is one dispatch for a device: the SPIR-V, the grid and the
// buffers' initial bytes. It never carries the reference's answers, so the
// process (or machine) that runs it cannot agree by reading them.
type emuRequest struct {
	Device  string         `json:"device"`
	Name    string         `json:"name"`
	Entry   string         `json:"entry"`
	SPIRV   []byte         `json:"spirv"`
	Grid    cpuref.Grid    `json:"grid"`
	Buffers []cpuref.Data  `json:"buffers"`
	Kernel  *cpuref.Kernel `json:"kernel"`
	// Draw, for a fragment shader, is the draw: targets, size and input constants.
	Draw *drawRequest `json:"draw,omitempty"`
	// Capture, for a vertex shader, is the capture: vertices, attributes, output slots.
	Capture *captureRequest `json:"capture,omitempty"`
}

// emuReply is what the device left in each buffer, or why it did not run.
type emuReply struct {
	Name    string         `json:"name"`
	Buffers map[int][]byte `json:"buffers,omitempty"`
	// Result is the failure when Buffers is nil.
	Result pipeline.Result `json:"result"`
	Micros int64           `json:"micros"`
	// GPUNanos is the GPU time of the work from the device agreement's
	// split timestamps; 0 when the device cannot time.
	GPUNanos uint64        `json:"gpu_ns"`
	Facts    *device.Facts `json:"facts,omitempty"`
}

// runRequest opens the request's device (or uses dev) and dispatches.
func runRequest(ctx context.Context, dev *device.Device, q emuRequest) emuReply {
	if dev == nil {
		d, err := device.Open(q.Device, device.Options{})
		if err != nil {
			if errors.Is(err, device.ErrUnavailable) {
				return emuReply{Name: q.Name, Result: pipeline.Unavailablef(fmt.Sprintf("%s: %v", q.Device, err))}
			}
			return emuReply{Name: q.Name, Result: pipeline.Fail(CodeEmulatorDriver, "open", err.Error())}
		}
		defer d.Stop()
		dev = d
	}
	ref := &cpuref.Result{Kernel: q.Kernel, Grid: q.Grid, Inputs: q.Buffers}
	start := time.Now()
	var tm device.Timing
	got, res := dispatch(ctx, dev, q.SPIRV, q.Entry, ref, q.Draw, q.Capture, &tm)
	f := dev.Facts()
	return emuReply{Name: q.Name, Buffers: got, Result: res, Micros: time.Since(start).Microseconds(), GPUNanos: tm.Nanos(), Facts: &f}
}

// ServeEmulatorChild is the emulator's child process: it reads one request
// (JSON) from r, runs it on the device it names and writes the reply (JSON)
// to w. cmd/airpipe runs it as its hidden "__emulator-child" command, so
// that a driver that crashes on a translated shader takes down only the
// child, and the module fails with CodeEmulatorCrash.
func ServeEmulatorChild(r io.Reader, w io.Writer) error {
	var q emuRequest
	if err := json.NewDecoder(r).Decode(&q); err != nil {
		return fmt.Errorf("emulator child: reading the request: %w", err)
	}
	if q.Kernel == nil {
		return fmt.Errorf("emulator child: request %q has no kernel", q.Name)
	}
	return json.NewEncoder(w).Encode(runRequest(context.Background(), nil, q))
}

// runChild runs q in a child process started with argv.
func runChild(ctx context.Context, argv, env []string, q emuRequest, timeout time.Duration) emuReply {
	in, err := json.Marshal(q)
	if err != nil {
		return emuReply{Result: pipeline.Fail(CodeEmulatorDriver, "request", err.Error())}
	}
	out, err := proc.Run(ctx, proc.Spec{Path: argv[0], Args: argv[1:], Env: env, Stdin: in, Timeout: timeout, MaxOutput: 256 << 20})
	if err != nil {
		return emuReply{Result: pipeline.Unavailablef("emulator child: " + err.Error())}
	}
	switch {
	case out.TimedOut:
		return emuReply{Result: pipeline.Fail(pipeline.CodeTimeout, "dispatch", "the emulator child "+out.Describe())}
	case out.Cancelled:
		return emuReply{Result: pipeline.Fail(pipeline.CodeCancelled, "dispatch", out.Describe())}
	case out.Signal != "" || out.ExitCode != 0:
		detail := strings.TrimPrefix(out.Describe(), "killed by ")
		return emuReply{Result: pipeline.Fail(CodeEmulatorCrash, detail, fmt.Sprintf("the emulator child %s: %s", out.Describe(), out.Tail(5)))}
	}
	var rep emuReply
	if err := json.NewDecoder(strings.NewReader(string(out.Stdout))).Decode(&rep); err != nil {
		return emuReply{Result: pipeline.Fail(CodeEmulatorCrash, "bad reply", fmt.Sprintf("the emulator child's reply does not parse: %v", err))}
	}
	return rep
}
