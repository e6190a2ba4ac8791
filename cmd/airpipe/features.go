package main

import (
	"fmt"
	"io"

	"github.com/airpipe/airpipe/analytics"
)

const featuresDescription = `Ranks the missing features of one run (code + detail, e.g.
translate/unhandled-intrinsic air.fast_acos.f32): for each, the modules it blocks,
the modules for which it is the ONLY missing feature (it "unlocks" them), the same
two counted in distinct bitcode, and example modules. Sorted by unlocks, then blocks.
A failed module that lists no missing feature counts its failure code and detail.

RUN is a run directory, or a results directory (its latest complete run is used).

Examples:
  airpipe features results/20261129T0200Z-ab12
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
	var format, output, code string
	var limit, examples int
	fs := newFlags("features", "features [flags] RUN", featuresDescription, stdout)
	formatFlag(fs, &format, &output)
	fs.IntVarP(&limit, "limit", "n", 0, "features listed before the rest fold into one row (0: all)")
	fs.IntVar(&examples, "examples", 3, "example modules per feature")
	fs.StringVar(&code, "code", "", "only features with this failure code")
	if c, done := parseFlags(fs, args, stderr); done {
		return c
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "airpipe features: want exactly one RUN (see 'airpipe features --help')")
		return 2
	}
	run, ok := openRunArg("features", fs.Arg(0), stderr)
	if !ok {
		return 1
	}
	ranked := analytics.RankFeatures(run.Rows, examples)
	sole := analytics.SoleBlocked(run.Rows)
	if code != "" {
		var kept []analytics.FeatureRank
		sole = 0
		for _, fr := range ranked {
			if fr.Code == code {
				kept = append(kept, fr)
				sole += fr.Unlocks
			}
		}
		ranked = kept
	}
	tbl := analytics.FeaturesTable(ranked, limit, sole)
	jsonRanked := ranked
	if limit > 0 && len(jsonRanked) > limit {
		jsonRanked = jsonRanked[:limit]
	}
	d := &analytics.Document{
		Title:  "airpipe features",
		Header: analytics.RunHeader(run, int64(len(run.Rows))),
		Tables: []*analytics.Table{tbl},
		JSON: featuresJSON{RunID: run.ID(), Complete: run.Complete(), Modules: int64(len(run.Rows)),
			SoleBlocked: sole, Features: jsonRanked},
	}
	if code != "" {
		d.Header = append(d.Header, "only code "+code)
	}
	return emit("features", d, format, output, stdout, stderr)
}
