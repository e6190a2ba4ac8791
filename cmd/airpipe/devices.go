package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/airpipe/airpipe/compiler/libllvm"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/device/harness"
)

// The hidden subcommands airpipe starts itself as, each serving requests on
// stdin/stdout, so that a driver or library crash kills only the child:
// compileChildCommand compiles (device.ServeCompileChild) and fails only the
// module being compiled; emulatorChildCommand dispatches one kernel per
// request (harness.Serve); llvmChildCommand disassembles and compiles the
// CPU reference's modules with LLVM's library (libllvm.Serve), so a module
// costs no llvm-dis-19 or llc-19 start.
const (
	compileChildCommand  = "__compile-child"
	emulatorChildCommand = "__emulator-child"
	llvmChildCommand     = "__llvm-child"
)

// childServers are the child commands' loops (serveChild runs them).
var childServers = map[string]func(io.Reader, io.Writer) error{
	compileChildCommand:  device.ServeCompileChild,
	emulatorChildCommand: harness.Serve,
	llvmChildCommand:     libllvm.Serve,
}

// childArgv starts this very program as a child running command.
func childArgv(command string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find this program to start %s children: %w", command, err)
	}
	return []string{exe, command}, nil
}

const devicesDescription = `Lists the Vulkan devices the system loader offers (with RADV's null device when
Mesa's radeon driver is installed), their drivers and the limits airpipe uses, and
the default compile targets. A machine without Vulkan says so and exits 1.

Examples:
  airpipe devices
  RADV_FORCE_FAMILY=navi21 airpipe devices`

func devicesCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("devices", "devices", devicesDescription, stdout)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	facts, err := device.Devices()
	if err != nil {
		fmt.Fprintf(stderr, "airpipe devices: %v\n", err)
		return 1
	}
	for _, f := range facts {
		fmt.Fprintf(stdout, "%d  %s\n   driver %s (%s), Vulkan %s, %s\n   min storage buffer offset alignment %d, max workgroup invocations %d, timestamp period %g ns\n",
			f.Index, f.Name, f.Driver, f.DriverInfo, f.APIVersion, f.Kind,
			f.Limits.MinStorageBufferOffsetAlignment, f.Limits.MaxComputeWorkGroupInvocations, f.Limits.TimestampPeriod)
	}
	fmt.Fprintf(stdout, "default compile targets: %s\n", strings.Join(device.DefaultTargets, ", "))
	return 0
}
