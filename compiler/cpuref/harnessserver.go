package cpuref

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// A reference run of this build's harness is a fork of a long-lived harness
// process (harness --serve, harness_c.txt's serve), not a process started
// for it: on the share that spares the exec and dynamic linking of 8,978
// runs (~1 ms of CPU each). The forked run is what a started one was — its
// own address space, memory limit and signal handlers, the spec as its
// standard input, its exit status the verdict — and the server holds
// nothing from one run to the next. A run that passes its timeout, or whose
// context ends, kills the server's process group with it (proc.Server), and
// the next run starts a fresh server. A harness of another build (a stored
// program, unbundle) still runs as a process of its own.

// maxIdleServers bounds the harness servers kept between runs.
const maxIdleServers = 4

var (
	serversOnce sync.Once
	servers     *proc.Pool
)

// harnessServers is the pool of servers of runner when it is this build's
// compiled harness, or nil.
func harnessServers(runner string) *proc.Pool {
	h, err := compiledHarness()
	if err != nil || h.runner != runner {
		return nil
	}
	serversOnce.Do(func() {
		servers = proc.NewPool(proc.Spec{Path: runner, Args: []string{"--serve"}, MaxRSS: proc.DefaultMaxRSS}, maxIdleServers)
	})
	return servers
}

// runHarness runs prog over spec (the harness's standard input) in dir, as
// proc.Run would: the Outcome has its exit status or signal, its standard
// error (what it wrote to the run's log, dir/harness.log), and whether it
// timed out or was cancelled.
func runHarness(ctx context.Context, dir string, prog program, spec string, timeout time.Duration) (proc.Outcome, error) {
	pool := harnessServers(prog.runner)
	logPath, specPath := filepath.Join(dir, "harness.log"), filepath.Join(dir, "spec.txt")
	if pool == nil || strings.ContainsAny(prog.kernel+specPath+logPath, "\t\n") {
		return proc.Run(ctx, proc.Spec{Path: prog.runner, Args: []string{prog.kernel}, Stdin: []byte(spec), Timeout: timeout})
	}
	if err := os.WriteFile(specPath, []byte(spec), 0o600); err != nil {
		return proc.Outcome{}, err
	}
	reply, answered, out, err := pool.Call(ctx, []byte("run "+prog.kernel+"\t"+specPath+"\t"+logPath), timeout)
	if err != nil || !answered {
		// Not started, or killed (timeout, cancellation) or crashed: the
		// Outcome says how.
		return out, err
	}
	if out.Stderr, err = readHead(logPath, proc.DefaultMaxOutput); err != nil {
		return out, fmt.Errorf("cpuref: the run's log: %w", err)
	}
	verb, arg, _ := strings.Cut(string(reply), " ")
	n, nerr := strconv.Atoi(arg)
	switch {
	case verb == "exit" && nerr == nil:
		out.ExitCode = n
	case verb == "signal" && nerr == nil:
		out.ExitCode, out.Signal = -1, syscall.Signal(n).String()
	default:
		return out, fmt.Errorf("cpuref: the harness server answered %q", reply)
	}
	return out, nil
}

// readHead reads at most max bytes of the file at path.
func readHead(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}
