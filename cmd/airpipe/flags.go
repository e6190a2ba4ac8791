package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

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

// choiceValue is a string flag that accepts only listed values, so that a
// misspelt value is a usage error (exit 2) rather than a silent default.
type choiceValue struct {
	p       *string
	choices []string
}

func (c *choiceValue) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return fmt.Errorf("want %s", strings.Join(c.choices, ", "))
	}
	*c.p = s
	return nil
}

func (c *choiceValue) String() string { return *c.p }

func (c *choiceValue) Type() string { return strings.Join(c.choices, "|") }

// choiceFlag adds a flag that takes one of choices; *p starts at def.
func choiceFlag(fs *pflag.FlagSet, p *string, name, def string, choices []string, usage string) {
	*p = def
	fs.Var(&choiceValue{p, choices}, name, usage)
}

// jsonFormatValue is --format text|json for a command whose output was
// chosen by a --json switch: both set the same bool.
type jsonFormatValue struct{ json *bool }

func (j jsonFormatValue) Set(s string) error {
	switch s {
	case "text":
		*j.json = false
	case "json":
		*j.json = true
	default:
		return errors.New("want text or json")
	}
	return nil
}

func (j jsonFormatValue) String() string {
	if j.json != nil && *j.json {
		return "json"
	}
	return "text"
}

func (j jsonFormatValue) Type() string { return "text|json" }

// jsonFormatFlag adds --format text|json (-f) and, as a hidden alias kept
// for older scripts, --json; both set *asJSON.
func jsonFormatFlag(fs *pflag.FlagSet, asJSON *bool, usage string) {
	fs.VarP(jsonFormatValue{asJSON}, "format", "f", usage)
	fs.BoolVar(asJSON, "json", false, "the same as --format json")
	if err := fs.MarkHidden("json"); err != nil {
		panic(err) // the flag was just defined
	}
}

// warnOldShorthand tells on stderr that -o is spelled --out DIR in this
// subcommand (elsewhere -o is --output FILE: one vocabulary across
// subcommands); the old spelling still works for one release.
func warnOldShorthand(name string, args []string, stderr io.Writer) {
	for _, a := range args {
		if a == "--" {
			return
		}
		if a == "-o" || (strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--")) {
			fmt.Fprintf(stderr, "airpipe %s: -o is deprecated here: use --out DIR (-o is --output FILE in the other subcommands); -o will be removed in the next release\n", name)
			return
		}
	}
}
