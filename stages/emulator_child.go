package stages

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/proc"
	"github.com/airpipe/airpipe/pipeline"
)

// CodeEmulatorCrash: the emulator's child process died while the device ran
// the module (a driver crash); the detail is the signal or exit status.
const CodeEmulatorCrash = codes.EmulatorDriverCrash

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

// runRequest dispatches q on dev.
func runRequest(ctx context.Context, dev *device.Device, q emuRequest) emuReply {
	ref := &cpuref.Result{Kernel: q.Kernel, Grid: q.Grid, Inputs: q.Buffers}
	start := time.Now()
	var tm device.Timing
	got, res := dispatch(ctx, dev, q.SPIRV, q.Entry, ref, q.Draw, q.Capture, &tm)
	f := dev.Facts()
	return emuReply{Name: q.Name, Buffers: got, Result: res, Micros: time.Since(start).Microseconds(), GPUNanos: tm.Nanos(), Facts: &f}
}

// ServeEmulatorChild is the emulator's child process: it reads requests
// (JSON values, one per line) from r until it ends, runs each on the device
// it names — kept open from one request to the next, and reopened after a
// loss — and writes each reply as one line, proc.ReplyPrefix + JSON, to w.
// cmd/airpipe runs it as its hidden "__emulator-child" command, so that a
// driver that crashes on a translated shader takes down only the child
// (the module fails with CodeEmulatorCrash and the next one starts a fresh
// child), while a run pays for opening the driver once per worker, not once
// per module.
func ServeEmulatorChild(r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<20))
	out := bufio.NewWriter(w)
	devs := map[string]*device.Device{}
	defer func() {
		for _, d := range devs {
			_ = d.Stop()
		}
	}()
	for {
		var q emuRequest
		if err := dec.Decode(&q); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("emulator child: reading a request: %w", err)
		}
		var rep emuReply
		if q.Kernel == nil {
			rep = emuReply{Name: q.Name, Result: pipeline.Fail(CodeEmulatorDriver, "request", fmt.Sprintf("request %q has no kernel", q.Name))}
		} else {
			rep = serveRequest(devs, q)
		}
		b, err := json.Marshal(rep)
		if err != nil {
			return fmt.Errorf("emulator child: writing the reply to %q: %w", q.Name, err)
		}
		out.WriteString(proc.ReplyPrefix)
		out.Write(b)
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return fmt.Errorf("emulator child: writing the reply to %q: %w", q.Name, err)
		}
	}
}

// serveRequest runs q on its device from devs, opening it on first use and
// dropping it when the request lost it or did not finish (the queue may
// still hold the work).
func serveRequest(devs map[string]*device.Device, q emuRequest) emuReply {
	dev := devs[q.Device]
	if dev == nil {
		d, err := device.Open(q.Device, device.Options{})
		if err != nil {
			if errors.Is(err, device.ErrUnavailable) {
				return emuReply{Name: q.Name, Result: pipeline.Unavailablef("%s: %v", q.Device, err)}
			}
			return emuReply{Name: q.Name, Result: pipeline.Fail(CodeEmulatorDriver, "open", err.Error())}
		}
		devs[q.Device], dev = d, d
	}
	rep := runRequest(context.Background(), dev, q)
	if rep.Buffers == nil && (rep.Result.Code == CodeEmulatorDeviceLost || rep.Result.Code == pipeline.CodeTimeout) {
		delete(devs, q.Device)
	}
	return rep
}

// childServers are the emulator's long-lived children (proc.Server), one
// per concurrent dispatch, started on first use.
type childServers struct {
	argv, env []string
	idle      chan *proc.Server
}

func newChildServers(argv, env []string) *childServers {
	return &childServers{argv: argv, env: env, idle: make(chan *proc.Server, 16)}
}

// run sends q to an idle child (starting one when none is idle) and
// returns its reply, or the failure that ended the child.
func (c *childServers) run(ctx context.Context, q emuRequest, timeout time.Duration) emuReply {
	in, err := json.Marshal(q)
	if err != nil {
		return emuReply{Result: pipeline.Fail(CodeEmulatorDriver, "request", err.Error())}
	}
	var s *proc.Server
	select {
	case s = <-c.idle:
	default:
		s = proc.NewServer(proc.Spec{Path: c.argv[0], Args: c.argv[1:], Env: c.env, MaxOutput: 256 << 20})
	}
	defer func() {
		select {
		case c.idle <- s:
		default:
			s.Close()
		}
	}()
	line, answered, out, err := s.Call(ctx, in, timeout)
	if err != nil {
		return emuReply{Result: pipeline.Unavailablef("emulator child: %v", err)}
	}
	if !answered {
		switch {
		case out.TimedOut:
			return emuReply{Result: pipeline.Fail(pipeline.CodeTimeout, "dispatch", "the emulator child "+out.Describe())}
		case out.Cancelled:
			return emuReply{Result: pipeline.Fail(pipeline.CodeCancelled, "dispatch", out.Describe())}
		}
		detail := strings.TrimPrefix(out.Describe(), "killed by ")
		return emuReply{Result: pipeline.Fail(CodeEmulatorCrash, detail, fmt.Sprintf("the emulator child %s: %s", out.Describe(), out.Tail(5)))}
	}
	var rep emuReply
	if err := json.Unmarshal(line, &rep); err != nil {
		return emuReply{Result: pipeline.Fail(CodeEmulatorCrash, "bad reply", fmt.Sprintf("the emulator child's reply does not parse: %v", err))}
	}
	return rep
}
