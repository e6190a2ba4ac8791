package main

import (
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
)

const milestonesDescription = `Measures milestones, defined as predicates over results in a small JSON file,
on one or more runs: for each milestone, whether the latest run meets it, the number
against the target, and the date it was first met. Each RUN is a run directory or a
results directory (all of its runs). Incomplete runs are left out unless --all.

A milestone selects modules (function_type, not_function_type, function, source,
with_feature, without_feature; * matches any run of characters) and counts how many
of them reached a stage, against target_percent or target_count. Nothing selected
is never met. The default file (--print-default) is modelled on M0–M4 of the AIR →
NIR frontend's corpus report, plus M5: library functions (visible, extern,
unqualified) translated behind airpipe's wrapper, counted apart from entry points.

Examples:
  airpipe milestones results
  airpipe milestones --config milestones.json results/run1 results/run2
  airpipe milestones --print-default > milestones.json
  airpipe milestones --format md results > MILESTONES.md`

func milestonesCmd(args []string, stdout, stderr io.Writer) int {
	var format, output, config string
	var all, printDefault bool
	fs := newFlags("milestones", "milestones [flags] RUN...", milestonesDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.StringVarP(&config, "config", "c", "", "milestones file (default: the built-in M0–M5)")
	fs.BoolVar(&all, "all", false, "include incomplete runs")
	fs.BoolVar(&printDefault, "print-default", false, "print the built-in milestones file and exit")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if printDefault {
		stdout.Write(analytics.DefaultMilestonesJSON)
		return 0
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "airpipe milestones: no RUN given (see 'airpipe milestones --help')")
		return 2
	}
	ms, err := analytics.LoadMilestones(config)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe milestones: %v\n", err)
		return 2
	}
	runs, excluded, ok := collectRuns("milestones", fs.Args(), all, stderr)
	if !ok {
		return 1
	}
	res, err := analytics.EvaluateMilestones(ms, runs)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe milestones: %v\n", err)
		return 1
	}
	return emit("milestones", analytics.MilestonesDocument(res, runs, excluded), format, output, stdout, stderr)
}

// collectRuns reads every run named by paths (run directories, or results
// directories meaning all their runs), oldest first, leaving incomplete
// runs out unless all; it returns the IDs left out.
func collectRuns(cmd string, paths []string, all bool, stderr io.Writer) ([]analytics.Run, []string, bool) {
	var runs []analytics.Run
	for _, p := range paths {
		if analytics.IsRunDir(p) {
			r, _, err := analytics.OpenRun(p)
			if err != nil {
				fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
				return nil, nil, false
			}
			runs = append(runs, *r)
			continue
		}
		rs, err := analytics.ReadRuns(p)
		if err != nil {
			fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
			return nil, nil, false
		}
		runs = append(runs, rs...)
	}
	analytics.SortRuns(runs)
	var kept []analytics.Run
	var excluded []string
	for _, r := range runs {
		if !r.Complete() && !all {
			excluded = append(excluded, r.ID())
			continue
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		fmt.Fprintf(stderr, "airpipe %s: no complete run found (%d incomplete; --all includes them)\n", cmd, len(excluded))
		return nil, nil, false
	}
	return kept, excluded, true
}
