package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/airpipe/airpipe/analytics"
)

const diffDescription = `Compares two runs module by module, matched by content (library SHA-256 +
function + bitcode SHA-256, not the path a library was reached through; sources
are shown relative to each run's roots), and classifies each: regressed (reached an earlier stage and failed there), set-aside
(reached an earlier stage because a stage could not judge it now: unjudged,
unavailable, skipped), changed (same stage, different outcome or failure code or
detail), improved, new, gone, unchanged.

With --fail-on-regression the exit status is 3 when any module regressed (for
nightly CI gates); set-aside modules do not count unless --strict. A results
directory means its latest complete run; the runs passed over are named. A diff
that can judge nothing exits 1: OLD and NEW are the same run, no module matches,
or (with --fail-on-regression) NEW is a results directory whose newest run is
not complete, so the run the gate should judge is missing.

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
	oldRun, _, ok := chooseRunArg("diff", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	newRun, newChoice, ok := chooseRunArg("diff", fs.Arg(1), stderr)
	if !ok {
		return 1
	}
	if sameDir(oldRun.Dir, newRun.Dir) {
		fmt.Fprintf(stderr, "airpipe diff: OLD and NEW are the same run %s (%s); nothing to compare\n", newRun.ID(), newRun.Dir)
		return 1
	}
	if failOnRegression && newChoice != nil && len(newChoice.Skipped) > 0 {
		fmt.Fprintf(stderr, "airpipe diff: --fail-on-regression: the newest run under %s, %s, is not complete (%s); name the run to judge\n",
			newChoice.Dir, newChoice.Skipped[0].ID, newChoice.Skipped[0].Reason)
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
	if d.Matched == 0 {
		fmt.Fprintf(stderr, "airpipe diff: no module of %s (%d) matches one of %s (%d): the runs share no content; nothing was compared\n",
			d.OldRun, d.OldModules, d.NewRun, d.NewModules)
		return 1
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

// sameDir reports whether two paths name one directory.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(ia, ib)
}
