package main

import (
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
)

// chooseRunArg reads the run named by a command-line argument, saying on
// stderr which run a results directory resolved to and which newer runs it
// passed over, and why; it also returns how the run was chosen (nil for a
// run directory).
func chooseRunArg(cmd, path string, stderr io.Writer) (*analytics.Run, *analytics.Choice, bool) {
	run, choice, err := analytics.ChooseRun(path)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
		return nil, nil, false
	}
	if choice != nil {
		fmt.Fprintf(stderr, "airpipe %s: %s\n", cmd, choice)
	}
	return run, choice, true
}
