package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/device/opcheck"
	"github.com/airpipe/airpipe/internal/proc"
)

const opcheckDescription = `Checks every air.* math operation on its own. For each operation the corpus
declares (every distinct module of --corpus, default $AIRPIPE_CORPUS; without one,
the built-in list scanned from ../shared/corpus), a generated AIR kernel applies it
to edge cases (±0, ±inf, NaNs, denormals, powers of two, range limits, ties) and
seeded random arguments read from a buffer; the kernel is translated to SPIR-V by
airpipe's translator and run on lavapipe and on each --device. Every result is
compared with the exact value computed in Go, within the operation's bound from the
Metal Shading Language accuracy tables (precise and fast math, float and half).

Verdicts: pass (every defined case within the bound), fail (some beyond it),
unbounded (the specification states no bound: the worst distance is shown),
refused (the translator refused the kernel), error (it could not run). Cases where
Metal defines no result (fast math with NaN or infinity, arguments outside the
domain) are counted as undefined, not judged. Declarations that are not math
(textures, atomics, SIMD-group, barriers, derivatives) are listed as set aside.

Exit status: 0 when the table was measured (whatever the verdicts), 1 when a device
could not be opened or the corpus not read, 2 for a usage error.

Examples:
  airpipe opcheck                                   # built-in list, lavapipe
  airpipe opcheck --corpus ../shared/corpus --out opcheck.parquet
  airpipe opcheck --device auto --cases 4000        # lavapipe and the first GPU
  airpipe opcheck --only 'fast_(sin|cos)' --markdown`

func opcheckCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("opcheck", "opcheck [--corpus DIR] [--device NAME]... [--cases N] [--seed N] [--only REGEXP] [--out FILE.parquet] [--markdown]", opcheckDescription, stdout)
	corpusDir := fs.String("corpus", os.Getenv("AIRPIPE_CORPUS"), "corpus whose air.* declarations are checked (default $AIRPIPE_CORPUS; empty: the built-in list)")
	devices := fs.StringArray("device", nil, "also run on this device (any name 'airpipe devices' lists, or auto); repeatable")
	random := fs.Int("cases", 1000, "random argument tuples per operation, besides the edge cases")
	seed := fs.Uint64("seed", 1, "seed of the random arguments")
	only := fs.String("only", "", "check only the operations whose name matches this regular expression")
	out := fs.String("out", "", "also write the table as Parquet to this file (docs/schema.md, opcheck)")
	markdown := fs.Bool("markdown", false, "print the table as Markdown")
	one := fs.String("one", "", "internal: check this one operation on one --device in this process and print its row as JSON")
	_ = fs.MarkHidden("one")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 0 || *random < 0 {
		fmt.Fprintln(stderr, "airpipe opcheck: takes no arguments and --cases >= 0 (see 'airpipe opcheck --help')")
		return 2
	}
	if *one != "" {
		return opcheckOne(*one, *devices, *random, *seed, stdout, stderr)
	}
	var re *regexp.Regexp
	if *only != "" {
		var err error
		if re, err = regexp.Compile(*only); err != nil {
			fmt.Fprintf(stderr, "airpipe opcheck: --only: %v\n", err)
			return 2
		}
	}
	decls := opcheck.BuiltinDeclarations()
	source := "built-in list"
	if *corpusDir != "" {
		d, n, err := opcheck.Scan(*corpusDir)
		if err != nil {
			fmt.Fprintf(stderr, "airpipe opcheck: %v\n", err)
			return 1
		}
		decls, source = d, fmt.Sprintf("%s (%d distinct modules)", *corpusDir, n)
	}
	modules := map[string]int{}
	for _, d := range decls {
		modules[d.Name] = d.Modules
	}
	ops, aside, unknown := opcheck.Select(decls)
	if re != nil {
		var keep []*opcheck.Op
		for _, op := range ops {
			if re.MatchString(op.Name) {
				keep = append(keep, op)
			}
		}
		ops = keep
	}
	fmt.Fprintf(stdout, "opcheck: %d math operations from %s; %d declarations set aside as not math, %d not evaluable\n", len(ops), source, len(aside), len(unknown))
	ctx := context.Background()
	var rows []opcheck.Row
	for _, name := range append([]string{"lavapipe"}, *devices...) {
		for _, op := range ops {
			row := opcheckChild(ctx, op, name, *random, *seed)
			row.Modules = int64(modules[op.Name])
			rows = append(rows, row)
		}
	}
	names := make([]string, 0, len(unknown))
	for n := range unknown {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rows = append(rows, opcheck.Row{Operation: n, Device: "-", Verdict: "not-evaluated", Detail: unknown[n], Modules: int64(modules[n])})
	}
	if err := opcheck.WriteText(stdout, rows, *markdown); err != nil {
		fmt.Fprintf(stderr, "airpipe opcheck: %v\n", err)
		return 1
	}
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.Verdict]++
	}
	fmt.Fprintf(stdout, "verdicts: pass %d, fail %d, unbounded %d, refused %d, error %d, not-evaluated %d\n",
		counts["pass"], counts["fail"], counts["unbounded"], counts["refused"], counts["error"], counts["not-evaluated"])
	for _, r := range rows {
		if r.Verdict == "fail" || r.Verdict == "refused" || r.Verdict == "error" {
			fmt.Fprintf(stdout, "  %s %s on %s: %s\n", r.Verdict, r.Operation, r.Device, r.Detail)
		}
	}
	if *out != "" {
		if err := opcheck.WriteParquet(*out, rows); err != nil {
			fmt.Fprintf(stderr, "airpipe opcheck: %v\n", err)
			return 1
		}
	}
	return 0
}

// opcheckChild checks one operation in a child process of airpipe, so a
// driver that crashes on a kernel costs that row (verdict error) and not
// the table.
func opcheckChild(ctx context.Context, op *opcheck.Op, dev string, random int, seed uint64) opcheck.Row {
	self, err := os.Executable()
	row := opcheck.Row{Operation: op.Name, Family: op.Family, Device: dev, Verdict: opcheck.VerdictError}
	if err != nil {
		row.Detail = err.Error()
		return row
	}
	o, err := proc.Run(ctx, proc.Spec{Path: self, Args: []string{"opcheck", "--one", op.Name, "--device", dev,
		"--cases", strconv.Itoa(random), "--seed", strconv.FormatUint(seed, 10)}, Timeout: 5 * time.Minute})
	switch {
	case err != nil:
		row.Detail = err.Error()
	case o.ExitCode != 0:
		row.Detail = "the check's process failed: " + o.Describe() + ": " + o.Tail(300)
	default:
		var w opcheckWire
		if err := json.Unmarshal(o.Stdout, &w); err != nil {
			row.Detail = "the check's process printed no row: " + err.Error()
			break
		}
		row = w.Row
		row.WorstULP, _ = strconv.ParseFloat(w.ULP, 64)
		row.WorstAbs, _ = strconv.ParseFloat(w.Abs, 64)
	}
	return row
}

// opcheckWire is a row as the child prints it: the distances as text,
// since JSON has no infinity.
type opcheckWire struct {
	opcheck.Row
	ULP string `json:"worst_ulp_text"`
	Abs string `json:"worst_abs_text"`
}

// opcheckOne is the child's side: one operation on one device.
func opcheckOne(name string, devices []string, random int, seed uint64, stdout, stderr io.Writer) int {
	if len(devices) != 1 {
		fmt.Fprintln(stderr, "airpipe opcheck: --one needs exactly one --device")
		return 2
	}
	op, err := opcheck.ParseOp(name)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe opcheck: %v\n", err)
		return 2
	}
	d, err := device.Open(devices[0], device.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "airpipe opcheck: device %s: %v\n", devices[0], err)
		return 1
	}
	defer func() { _ = d.Stop() }()
	label := devices[0]
	if label != "lavapipe" {
		label = d.Facts().Name
	}
	r := &opcheck.Runner{Dev: d, Name: label, Random: random, Seed: seed}
	row := opcheck.RowOf(r.Check(context.Background(), op), 0)
	w := opcheckWire{Row: row, ULP: strconv.FormatFloat(row.WorstULP, 'g', -1, 64), Abs: strconv.FormatFloat(row.WorstAbs, 'g', -1, 64)}
	w.Row.WorstULP, w.Row.WorstAbs = 0, 0
	if err := json.NewEncoder(stdout).Encode(w); err != nil {
		fmt.Fprintf(stderr, "airpipe opcheck: %v\n", err)
		return 1
	}
	return 0
}
