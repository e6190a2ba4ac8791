package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/airpipe/airpipe/analytics"
)

const featuresDescription = `Ranks the missing features of one run (code + detail, e.g.
translate/unhandled-intrinsic air.fast_acos.f32): for each, the modules it blocks,
the modules for which it is the ONLY missing feature (it "unlocks" them), the same
two counted in distinct bitcode, and example modules. Sorted by unlocks, then blocks.
A failed module that lists no missing feature counts its failure code and detail.

Kinds of gap are ranked apart, one table each: the stage a code begins with
(translate: translator gaps, compile, emulator, device, ...), and "reference" for
STAGE/no-reference, what the CPU reference cannot run yet (the emulator and device
stages set those modules aside; the translator is not at fault). --stage KIND shows
one kind. --code takes a whole code or a prefix at a '/' (translate matches every
translate/... code); one that matches nothing in the run is an error (exit 1), and
the codes the run has are named.

RUN is a run directory, or a results directory (its latest complete run is used).

Examples:
  airpipe features results/20261129T0200Z-ab12
  airpipe features --stage translate --limit 20 results
  airpipe features --stage reference results
  airpipe features --limit 10 --code translate/unhandled-intrinsic results
  airpipe features --format json results/20261129T0200Z-ab12 | jq '.features[0]'`

// featuresJSON is the stable JSON form of airpipe features.
type featuresJSON struct {
	RunID       string                  `json:"run_id"`
	Complete    bool                    `json:"complete"`
	Modules     int64                   `json:"modules"`
	SoleBlocked int64                   `json:"sole_blocked"`
	Features    []analytics.FeatureRank `json:"features"`
}

func featuresCmd(args []string, stdout, stderr io.Writer) int {
	var format, output, code, stage string
	var limit, examples int
	fs := newFlags("features", "features [flags] RUN", featuresDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.IntVarP(&limit, "limit", "n", 0, "features listed per kind before the rest fold into one row (0: all)")
	fs.IntVar(&examples, "examples", 3, "example modules per feature")
	fs.StringVar(&code, "code", "", "only features with this failure code, or under this prefix (translate, emulator/no-reference)")
	fs.StringVar(&stage, "stage", "", "only this kind of gap: "+strings.Join(analytics.GapKinds, ", "))
	if c, done := parseFlags(fs, args, stderr); done {
		return c
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "airpipe features: want exactly one RUN (see 'airpipe features --help')")
		return 2
	}
	if stage != "" && !slices.Contains(analytics.GapKinds, stage) {
		fmt.Fprintf(stderr, "airpipe features: --stage %q: want one of %s\n", stage, strings.Join(analytics.GapKinds, ", "))
		return 2
	}
	run, ok := openRunArg("features", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	sel := analytics.FeatureSelect{Kind: stage, Code: code}
	root, rows := analytics.RelativeRows(run.Rows)
	tables, listed := analytics.FeatureTables(rows, sel, limit, examples)
	if code != "" && len(listed) == 0 {
		codes := map[string]bool{}
		for _, fr := range analytics.RankFeatures(run.Rows, 0) {
			codes[fr.Code] = true
		}
		fmt.Fprintf(stderr, "airpipe features: --code %q matches no missing feature of run %s (a whole code, or a prefix at '/'); its codes: %s\n",
			code, run.ID(), strings.Join(slices.Sorted(maps.Keys(codes)), ", "))
		return 1
	}
	var sole int64
	for _, t := range tables {
		sole += t.Sums[0].Total
	}
	d := &analytics.Document{
		Title:  "airpipe features",
		Header: analytics.RunHeader(run, int64(len(run.Rows))),
		Tables: tables,
		JSON: featuresJSON{RunID: run.ID(), Complete: run.Complete(), Modules: int64(len(run.Rows)),
			SoleBlocked: sole, Features: listed},
	}
	if root != "" {
		d.Header = append(d.Header, "libraries are named relative to "+root)
	}
	if stage != "" {
		d.Header = append(d.Header, "only "+stage+" gaps")
	}
	if code != "" {
		d.Header = append(d.Header, "only code "+code)
	}
	return emit("features", d, format, output, stdout, stderr)
}
