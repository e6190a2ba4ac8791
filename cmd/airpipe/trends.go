package main

import (
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
)

const trendsDescription = `Counts, for every run of a results directory (or the runs named), the modules that
reached each stage, oldest run first. Incomplete runs are left out, and named, unless
--all. --format html writes one self-contained page with a line chart.

Examples:
  airpipe trends results
  airpipe trends --format html -o trends.html results
  airpipe trends --all --format json results | jq '.runs[-1].reached'`

func trendsCmd(args []string, stdout, stderr io.Writer) int {
	var format, output string
	var all bool
	fs := newFlags("trends", "trends [flags] RESULTS_DIR|RUN...", trendsDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.BoolVar(&all, "all", false, "include incomplete runs")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "airpipe trends: no RESULTS_DIR given (see 'airpipe trends --help')")
		return 2
	}
	runs, _, ok := collectRuns("trends", fs.Args(), true, stderr)
	if !ok {
		return 1
	}
	tr := analytics.Trends(runs, all)
	if len(tr.Points) == 0 {
		fmt.Fprintf(stderr, "airpipe trends: no complete run (%d incomplete; --all includes them)\n", len(tr.Excluded))
		return 1
	}
	return emit("trends", tr.Document(), format, output, stdout, stderr)
}
