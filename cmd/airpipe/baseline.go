package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
)

const baselineDescription = `Writes a run's failures as an expected-failures baseline: CSV with a header, then
one failure per line — library_sha256, function, stage, code, source. Modules are
keyed by content (the library file's SHA-256 and the function's name), so the
baseline holds wherever the library sits; source is one path where it was found,
for people. Modules set aside (unjudged, unavailable, skipped) are not failures and
are not listed.

'airpipe report --baseline FILE --fail-on-new RUN' then exits 3 only for failures
the baseline does not list. Lines starting with # are comments.

Examples:
  airpipe baseline results/nightly-1 > expected.csv
  airpipe baseline -o expected.csv results
  airpipe report --baseline expected.csv --fail-on-new results`

func baselineCmd(args []string, stdout, stderr io.Writer) int {
	var output string
	fs := newFlags("baseline", "baseline [-o FILE] RUN", baselineDescription, stdout)
	fs.StringVarP(&output, "output", "o", "", "write to this file instead of standard output")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "airpipe baseline: want exactly one RUN (see 'airpipe baseline --help')")
		return 2
	}
	run, ok := openRunArg("baseline", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	if !run.Complete() {
		fmt.Fprintf(stderr, "airpipe baseline: warning: run %s is incomplete; its missing modules are not in the baseline\n", run.ID())
	}
	entries, err := analytics.BaselineOf(run)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe baseline: %v\n", err)
		return 1
	}
	var b bytes.Buffer
	if err := analytics.WriteBaseline(&b, entries); err != nil {
		fmt.Fprintf(stderr, "airpipe baseline: %v\n", err)
		return 1
	}
	if code := writeOutput("baseline", b.Bytes(), output, stdout, stderr); code != 0 {
		return code
	}
	fmt.Fprintf(stderr, "airpipe baseline: %d failures of %d modules in run %s\n", len(entries), len(run.Rows), run.ID())
	return 0
}
