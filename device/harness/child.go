package harness

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
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/proc"
)

// Serve is the harness's child process: it reads requests (JSON values, one
// per line) from r until it ends, runs each on the device it names — kept
// open from one request to the next, and reopened after a loss — and writes
// each reply as one line, proc.ReplyPrefix + JSON, to w. cmd/airpipe runs it
// as its hidden "__emulator-child" command, so that a driver that crashes on
// a translated shader takes down only the child (the module fails with
// codes.EmulatorDriverCrash and the next one starts a fresh child), while a
// run pays for opening the driver once per worker, not once per module.
func Serve(r io.Reader, w io.Writer) error {
	devs := map[string]*device.Device{}
	defer func() {
		for _, d := range devs {
			_ = d.Stop()
		}
	}()
	err := proc.Serve(r, w, func(q Request) Reply {
		q, err := readInputFile(q)
		if err != nil {
			return Reply{Name: q.Name, Verdict: fail(codes.EmulatorDriverError, "request", fmt.Sprintf("request %q: its input file: %v", q.Name, err))}
		}
		if q.Kernel == nil {
			return Reply{Name: q.Name, Verdict: fail(codes.EmulatorDriverError, "request", fmt.Sprintf("request %q has no kernel", q.Name))}
		}
		return onlyChanges(q, serveRequest(devs, q))
	})
	if err != nil {
		return fmt.Errorf("emulator child: %w", err)
	}
	return nil
}

// serveRequest runs q on its device from devs, opening it on first use and
// dropping it when the request lost it or did not finish (the queue may
// still hold the work).
func serveRequest(devs map[string]*device.Device, q Request) Reply {
	dev := devs[q.Device]
	if dev == nil {
		d, err := device.Open(q.Device, device.Options{})
		if err != nil {
			if errors.Is(err, device.ErrUnavailable) {
				return Reply{Name: q.Name, Verdict: unavailablef("%s: %v", q.Device, err)}
			}
			return Reply{Name: q.Name, Verdict: fail(codes.EmulatorDriverError, "open", err.Error())}
		}
		devs[q.Device], dev = d, d
	}
	rep := Dispatch(context.Background(), dev, q)
	if rep.Buffers == nil && (rep.Verdict.Code == codes.EmulatorDeviceLost || rep.Verdict.Code == codes.Timeout) {
		delete(devs, q.Device)
	}
	return rep
}

// Children are a harness's long-lived child processes (proc.Server running
// Serve), one per concurrent request, started on first use; a child past
// its resident-set budget after a reply is retired, and the next request
// starts a fresh one (a request carries all a child needs).
type Children struct {
	pool *proc.Pool
}

// NewChildren returns the children started with argv (a program that runs
// Serve), env added to their environment, retired past maxRSS bytes
// resident (0: proc.DefaultMaxRSS).
func NewChildren(argv, env []string, maxRSS uint64) *Children {
	if maxRSS == 0 {
		maxRSS = proc.DefaultMaxRSS
	}
	return &Children{pool: proc.NewPool(proc.Spec{Path: argv[0], Args: argv[1:], Env: env, MaxOutput: 256 << 20, MaxRSS: maxRSS}, 16)}
}

// Run sends q to an idle child (starting one when none is idle) and returns
// its reply, or the failure that ended the child.
func (c *Children) Run(ctx context.Context, q Request, timeout time.Duration) Reply {
	sent := q
	if s, remove, err := withInputFile(cpuref.MemoryDir(), q); err == nil {
		// Without the file (none can be made) the bytes go in the line.
		sent = s
		defer remove()
	}
	in, err := json.Marshal(sent)
	if err != nil {
		return Reply{Verdict: fail(codes.EmulatorDriverError, "request", err.Error())}
	}
	line, answered, out, err := c.pool.Call(ctx, in, timeout)
	if err != nil {
		return Reply{Verdict: unavailablef("emulator child: %v", err)}
	}
	if !answered {
		switch {
		case out.TimedOut:
			return Reply{Verdict: fail(codes.Timeout, "dispatch", "the emulator child "+out.Describe())}
		case out.Cancelled:
			return Reply{Verdict: fail(codes.Cancelled, "dispatch", out.Describe())}
		}
		detail := strings.TrimPrefix(out.Describe(), "killed by ")
		return Reply{Verdict: fail(codes.EmulatorDriverCrash, detail, fmt.Sprintf("the emulator child %s: %s", out.Describe(), out.Tail(5)))}
	}
	var rep Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return Reply{Verdict: fail(codes.EmulatorDriverCrash, "bad reply", fmt.Sprintf("the emulator child's reply does not parse: %v", err))}
	}
	if rep, err = withChanges(q, rep); err != nil {
		return Reply{Verdict: fail(codes.EmulatorDriverCrash, "bad reply", "the emulator child's reply: "+err.Error())}
	}
	return rep
}
