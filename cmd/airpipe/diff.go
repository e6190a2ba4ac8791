package main

import (
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
)

const diffDescription = `Compares two runs module by module (bitcode SHA-256 + source + function) and
classifies each: regressed (reached an earlier stage and failed there), set-aside
(reached an earlier stage because a stage could not judge it now: unjudged,
unavailable, skipped), changed (same stage, different outcome or failure code or
detail), improved, new, gone, unchanged.

With --fail-on-regression the exit status is 3 when any module regressed (for
nightly CI gates); set-aside modules do not count unless --strict.

Examples:
  airpipe diff results/20261128T0200Z-aa11 results/20261129T0200Z-bb22
  airpipe diff --fail-on-regression --limit 20 results/old results/new
  airpipe diff --format json results/old results/new | jq '.counts'`

func diffCmd(args []string, stdout, stderr io.Writer) int {
	var format, output string
	var failOnRegression, strict bool
	var limit int
	fs := newFlags("diff", "diff [flags] OLD NEW", diffDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.BoolVar(&failOnRegression, "fail-on-regression", false, "exit 3 when any module regressed")
	fs.BoolVar(&strict, "strict", false, "with --fail-on-regression, set-aside modules count as regressions too")
	fs.IntVarP(&limit, "limit", "n", 50, "changed modules listed per class before the rest fold into one row (0: all)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "airpipe diff: want OLD and NEW runs (see 'airpipe diff --help')")
		return 2
	}
	oldRun, ok := openRunArg("diff", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	newRun, ok := openRunArg("diff", fs.Arg(1), stderr)
	if !ok {
		return 1
	}
	for _, r := range []*analytics.Run{oldRun, newRun} {
		if !r.Complete() {
			fmt.Fprintf(stderr, "airpipe diff: warning: run %s is incomplete; its missing modules show as new or gone\n", r.ID())
		}
	}
	d := analytics.Diff(oldRun, newRun)
	if code := emit("diff", d.Document(limit), format, output, stdout, stderr); code != 0 {
		return code
	}
	bad := d.Regressions()
	if strict {
		bad += d.Counts[analytics.SetAside]
	}
	if failOnRegression && bad > 0 {
		fmt.Fprintf(stderr, "airpipe diff: %d modules regressed\n", bad)
		return 3
	}
	return 0
}
