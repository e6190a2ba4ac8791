package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// newFlags makes a flag set for a subcommand whose --help prints the
// usage line, the description with examples, and the flags.
func newFlags(name, usageLine, description string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: airpipe %s\n\n%s\n\nFlags:\n%s", usageLine, description, fs.FlagUsages())
	}
	return fs
}

// parseFlags parses args; it returns (exit status, done) where done means
// the caller should return the status (help was printed, or a usage error).
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "airpipe %s: %v\n(see 'airpipe %s --help')\n", fs.Name(), err, fs.Name())
		return 2, true
	}
	return 0, false
}
