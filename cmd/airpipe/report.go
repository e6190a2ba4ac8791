package main

import (
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
	"github.com/spf13/pflag"
)

const reportDescription = `Reads one run (a run directory OUT/<run_id>, or a results directory, whose latest
complete run is taken) and prints the files it saw, the stage funnel (overall, by
function type, by library, by platform), how modules ended, failure codes by stage,
the modules set aside with their reasons, and the ranked missing features.

Every table checks that its rows add up to its total (computed independently of the
rows); when one does not, nothing is printed and the exit status is 1, naming the
table. An incomplete run is reported, and marked INCOMPLETE.

Examples:
  airpipe report results/20261129T0200Z-ab12
  airpipe report --format md results > air-report.md
  airpipe report --format html -o report.html results/20261129T0200Z-ab12
  airpipe report --format json --libraries 0 results/20261129T0200Z-ab12 | jq .tables[1]`

// formatFlag adds --format and --output to a flag set.
func formatFlag(fs *pflag.FlagSet, format, output *string) {
	fs.StringVarP(format, "format", "f", "text", "output format: text, md, json or html")
	fs.StringVarP(output, "output", "o", "", "write to this file instead of standard output")
}

// openRunArg reads the run named by a command-line argument, saying on
// stderr which run a results directory resolved to.
func openRunArg(cmd, path string, stderr io.Writer) (*analytics.Run, bool) {
	run, latest, err := analytics.OpenRun(path)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
		return nil, false
	}
	if latest != "" {
		fmt.Fprintf(stderr, "airpipe %s: %s is a results directory; using its latest complete run %s\n", cmd, path, latest)
	}
	return run, true
}

// emit renders a document to stdout or to the --output file. A table that
// does not add up prints nothing and returns 1.
func emit(cmd string, d *analytics.Document, format, output string, stdout, stderr io.Writer) int {
	f, err := analytics.ParseFormat(format)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe %s: --format: %v\n", cmd, err)
		return 2
	}
	if output == "" {
		if err := analytics.Render(stdout, d, f); err != nil {
			fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
			return 1
		}
		return 0
	}
	if err := analytics.RenderFile(output, d, f); err != nil {
		fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

func reportCmd(args []string, stdout, stderr io.Writer) int {
	var format, output string
	opt := analytics.DefaultReportOptions
	fs := newFlags("report", "report [flags] RUN", reportDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.IntVar(&opt.Libraries, "libraries", opt.Libraries, "libraries listed before the rest fold into one row (0: all)")
	fs.IntVar(&opt.Features, "features", opt.Features, "missing features listed before the rest fold into one row (0: all)")
	fs.IntVar(&opt.Examples, "examples", opt.Examples, "example modules per missing feature")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "airpipe report: want exactly one RUN (see 'airpipe report --help')")
		return 2
	}
	run, ok := openRunArg("report", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	rep, err := analytics.BuildReport(run, opt)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe report: %v\n", err)
		return 1
	}
	return emit("report", rep.Document(), format, output, stdout, stderr)
}
