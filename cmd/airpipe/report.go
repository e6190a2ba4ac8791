package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/airpipe/airpipe/analytics"
	"github.com/spf13/pflag"
)

const reportDescription = `Reads one run (a run directory OUT/<run_id>, or a results directory, whose latest
complete run is taken) and prints the files it saw, the stage funnel (overall, by
function type, by library, by platform), how modules ended, failure codes by stage,
the modules set aside with their reasons, the ranked missing features (one table per
kind of gap), the mismatches, and emulator vs device agreement. Libraries are named
relative to the directory they all lie under (said in the header).

--format text fits 100 columns (long cells are cut in the middle, marked …); md is
GitHub Markdown for a pull-request comment (long tables folded); html is a dashboard
that opens offline: the stage funnel, pass rates over the runs of the results
directory (percent, by date and commit), failure codes and sole blockers as Pareto
charts, the libraries with the most failures (each opens to its modules), and the
emulator and device verdicts, drawn with gonum.org/v1/plot as inline SVG.

Every table checks that its rows add up to its total (computed independently of the
rows); when one does not, nothing is printed and the exit status is 1, naming the
table. An incomplete run is reported, and marked INCOMPLETE.

--format junit writes JUnit XML for CI test reporters: one <testcase> per module row
(classname the library, name the function); a failure is <failure message=CODE
type=STAGE> with its detail; a module set aside (unjudged, unavailable, skipped) is
<skipped> with the reason.

--baseline FILE holds the run's failures against expected ones (a file 'airpipe
baseline' wrote; modules are matched by library SHA-256 and function) and lists, on
standard error, the failures the baseline does not have. With --fail-on-new the exit
status is then 3 when there is any. --flakes FILE (same format; only the two key
columns are needed) names modules whose verdict flips: their failures are reported,
not counted. With --format junit, the failures the baseline or flakes file expects
are written as <skipped>, so only new failures show red.

Examples:
  airpipe report results/20261129T0200Z-ab12
  airpipe report --format junit -o junit.xml results
  airpipe baseline results/nightly-1 > expected.csv
  airpipe report --baseline expected.csv --fail-on-new results
  airpipe report --format junit -o junit.xml --baseline expected.csv --flakes flakes.csv --fail-on-new results
  airpipe report --format md results > air-report.md
  airpipe report --format html -o report.html results/20261129T0200Z-ab12
  airpipe report --format json --libraries 0 results/20261129T0200Z-ab12 | jq .tables[1]`

// formatFlag adds --format and --output to a flag set.
func formatFlag(fs *pflag.FlagSet, format, output *string) {
	fs.StringVarP(format, "format", "f", "text", "output format: text, md, json or html")
	fs.StringVarP(output, "output", "o", "", "write to this file instead of standard output")
}

// openRunArg reads the run named by a command-line argument, saying on
// stderr which run a results directory resolved to and which newer runs it
// passed over, and why.
func openRunArg(cmd, path string, stderr io.Writer) (*analytics.Run, bool) {
	run, _, ok := chooseRunArg(cmd, path, stderr)
	return run, ok
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
	var format, output, baseline, flakes string
	var failOnNew bool
	opt := analytics.DefaultReportOptions
	fs := newFlags("report", "report [flags] RUN", reportDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.Lookup("format").Usage = "output format: text, md, json, html or junit"
	fs.StringVar(&baseline, "baseline", "", "expected failures (a file 'airpipe baseline' wrote); failures it lacks are listed on stderr")
	fs.BoolVar(&failOnNew, "fail-on-new", false, "with --baseline, exit 3 when a failure is not in the baseline")
	fs.StringVar(&flakes, "flakes", "", "modules whose verdict flips (baseline format): their failures are reported, not counted")
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
	if failOnNew && baseline == "" {
		fmt.Fprintln(stderr, "airpipe report: --fail-on-new needs --baseline FILE (see 'airpipe report --help')")
		return 2
	}
	if flakes != "" && baseline == "" {
		fmt.Fprintln(stderr, "airpipe report: --flakes needs --baseline FILE (see 'airpipe report --help')")
		return 2
	}
	run, ok := openRunArg("report", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	var gate *analytics.GateResult
	if baseline != "" {
		var code int
		if gate, code = gateRun(run, baseline, flakes, stderr); gate == nil {
			return code
		}
	}
	if code := reportOutput(run, opt, gate, format, output, stdout, stderr); code != 0 {
		return code
	}
	if gate != nil {
		io.WriteString(stderr, gate.Summary())
		if failOnNew && len(gate.New) > 0 {
			fmt.Fprintf(stderr, "airpipe report: %d failures not in the baseline %s\n", len(gate.New), baseline)
			return 3
		}
	}
	return 0
}

// reportOutput writes the report of a run in the chosen format.
func reportOutput(run *analytics.Run, opt analytics.ReportOptions, gate *analytics.GateResult, format, output string, stdout, stderr io.Writer) int {
	if format == "junit" {
		var expected map[analytics.BaselineKey]string
		if gate != nil {
			expected = gate.Expected()
		}
		var b bytes.Buffer
		if err := analytics.WriteJUnit(&b, run, expected); err != nil {
			fmt.Fprintf(stderr, "airpipe report: %v\n", err)
			return 1
		}
		return writeOutput("report", b.Bytes(), output, stdout, stderr)
	}
	rep, err := analytics.BuildReport(run, opt)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe report: %v\n", err)
		return 1
	}
	if format == "html" {
		// The dashboard's pass-rate chart: the complete runs of the
		// results directory the run sits in, up to this one.
		if runs, err := analytics.ReadRuns(filepath.Dir(run.Dir)); err == nil {
			var upTo []analytics.Run
			for _, r := range runs {
				if r.ID() == run.ID() || (r.Complete() && !r.Meta.Started.After(run.Meta.Started)) {
					upTo = append(upTo, r)
				}
			}
			// The complete runs and this one, even when incomplete.
			rep.SetHistory(analytics.Trends(upTo, true))
		}
	}
	return emit("report", rep.Document(), format, output, stdout, stderr)
}

// writeOutput writes b to stdout or, when output is set, to that file.
func writeOutput(cmd string, b []byte, output string, stdout, stderr io.Writer) int {
	var err error
	if output == "" {
		_, err = stdout.Write(b)
	} else {
		err = os.WriteFile(output, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "airpipe %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

// readBaselineFile reads a baseline or flakes file.
func readBaselineFile(path string) ([]analytics.BaselineEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := analytics.ReadBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// gateRun holds a run against a baseline file and an optional flakes file;
// on an error it returns nil and the exit status (2: a file is unreadable
// or malformed, 1: the run cannot be keyed).
func gateRun(run *analytics.Run, baseline, flakes string, stderr io.Writer) (*analytics.GateResult, int) {
	base, err := readBaselineFile(baseline)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe report: --baseline: %v\n", err)
		return nil, 2
	}
	var flaky []analytics.BaselineEntry
	if flakes != "" {
		if flaky, err = readBaselineFile(flakes); err != nil {
			fmt.Fprintf(stderr, "airpipe report: --flakes: %v\n", err)
			return nil, 2
		}
	}
	g, err := analytics.Gate(run, base, flaky)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe report: %v\n", err)
		return nil, 1
	}
	return g, 0
}
