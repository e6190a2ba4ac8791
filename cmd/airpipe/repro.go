package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/proc"
)

const reproDescription = `Writes a self-contained directory for one module of a run, so that a failure can
be handed to someone else and replayed: the library and the module's bitcode, its
LLVM text (llvm-dis-19 when installed), its SPIR-V (module.spv, and module.spvasm
with the validator's verdict and the reflection) when airpipe translates it, the module's row (every stage's status,
failure code, detail and message), the run's metadata (stage and tool versions),
and rerun.sh, which runs the module's library through the stages again.

MODULE is SOURCE!FUNCTION (as in the run's rows), or a prefix of the bitcode
SHA-256 (at least 8 hex digits), or FUNCTION alone when the name is unique. A
prefix that several identical modules share (the same bitcode in several
libraries) takes the first of them by SOURCE!FUNCTION, and says which.

rerun.sh runs the airpipe that wrote the directory, by its absolute path, or
$AIRPIPE when set (not airpipe from PATH). It follows git bisect's convention:
exit 0 when the module no longer ends as the row recorded (fixed, or it ends
another way, said on stdout), 1 when it ends the same way (same stage, status
and code: the failure reproduces), 125 when airpipe could not run (bisect
skips). The comparison is 'airpipe repro --check RESULTS_DIR row.json'.

Examples:
  airpipe repro results/20261129T010000Z-ab12cd 'lib/default.metallib!blit_fragment'
  airpipe repro --out /tmp/case results/20261129T010000Z-ab12cd 3fa9c2d1
  /tmp/case/rerun.sh; echo $?          # 1: still fails the same way
  AIRPIPE=./bin/airpipe git bisect run /tmp/case/rerun.sh`

func reproCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("repro", "repro [--out DIR] RUN_DIR MODULE", reproDescription, stdout)
	out := fs.StringP("out", "o", "", "directory to write (default: repro-<function>-<sha8>; -o: deprecated spelling)")
	check := fs.Bool("check", false, "with RESULTS_DIR ROW_JSON: exit 1 when the run in RESULTS_DIR ends the row's module as ROW_JSON says, 0 when it does not (rerun.sh uses it)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	warnOldShorthand("repro", args, stderr)
	if *check {
		if fs.NArg() != 2 {
			fmt.Fprintln(stderr, "airpipe repro --check: want RESULTS_DIR ROW_JSON")
			return 125
		}
		return reproCheck(fs.Arg(0), fs.Arg(1), stdout, stderr)
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "airpipe repro: want RUN_DIR MODULE (see 'airpipe repro --help')")
		return 2
	}
	meta, rows, err := analytics.ReadRun(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "airpipe repro: %v\n", err)
		return 1
	}
	row, note, err := findModule(rows, fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "airpipe repro: %v\n", err)
		return 1
	}
	if note != "" {
		fmt.Fprintf(stderr, "airpipe repro: %s\n", note)
	}
	dir := *out
	if dir == "" {
		dir = fmt.Sprintf("repro-%s-%.8s", safeName(row.Function), row.BitcodeSHA256)
	}
	if err := writeRepro(dir, meta, row); err != nil {
		fmt.Fprintf(stderr, "airpipe repro: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (module %s!%s, stopped at %q: %s %s)\n", dir, row.Source, row.Function, row.FailedStage, row.FailureCode, row.FailureDetail)
	return 0
}

// findModule picks one row by SOURCE!FUNCTION, SHA-256 prefix or unique
// name. A SHA-256 prefix whose matches all have the same bitcode (one
// module in several libraries) picks the first by SOURCE!FUNCTION, and the
// note says so; any other ambiguity is refused.
func findModule(rows []analytics.Row, which string) (analytics.Row, string, error) {
	var hits []analytics.Row
	bySHA := true
	for _, r := range rows {
		switch {
		case r.Source+"!"+r.Function == which:
			hits = append(hits, r)
			bySHA = false
		case len(which) >= 8 && strings.HasPrefix(r.BitcodeSHA256, strings.ToLower(which)):
			hits = append(hits, r)
		case r.Function == which:
			hits = append(hits, r)
			bySHA = false
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		return hits[i].Source+"!"+hits[i].Function < hits[j].Source+"!"+hits[j].Function
	})
	same := true
	for _, h := range hits {
		same = same && h.BitcodeSHA256 == hits[0].BitcodeSHA256
	}
	switch {
	case len(hits) == 0:
		return analytics.Row{}, "", fmt.Errorf("no module %q in the run", which)
	case len(hits) > 1 && bySHA && same:
		return hits[0], fmt.Sprintf("%q is bitcode %.16s… shared by %d identical modules; taking the first by SOURCE!FUNCTION, %s!%s",
			which, hits[0].BitcodeSHA256, len(hits), hits[0].Source, hits[0].Function), nil
	case len(hits) > 1:
		var names []string
		for i, h := range hits {
			if i == 5 {
				names = append(names, "...")
				break
			}
			names = append(names, h.Source+"!"+h.Function)
		}
		return analytics.Row{}, "", fmt.Errorf("%q matches %d modules (%s); name one as SOURCE!FUNCTION", which, len(hits), strings.Join(names, ", "))
	}
	return hits[0], "", nil
}

// reproCheck compares the module of rowJSON with its row in the latest run
// under results (rerun.sh's run of the library alone): 1 when it ended the
// same way (the same first stage that did not pass, status and code) and
// that is not a pass, 0 when not, 125 when it cannot tell.
func reproCheck(results, rowJSON string, stdout, stderr io.Writer) int {
	b, err := os.ReadFile(rowJSON)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe repro --check: %v\n", err)
		return 125
	}
	var want analytics.Row
	if err := json.Unmarshal(b, &want); err != nil {
		fmt.Fprintf(stderr, "airpipe repro --check: %s: %v\n", rowJSON, err)
		return 125
	}
	run, _, err := analytics.OpenRun(results)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe repro --check: %v\n", err)
		return 125
	}
	var got *analytics.Row
	for i := range run.Rows {
		r := &run.Rows[i]
		if r.FunctionIndex == want.FunctionIndex && r.Function == want.Function {
			got = r
		}
	}
	if got == nil {
		fmt.Fprintf(stderr, "airpipe repro --check: the rerun has no function %d %q\n", want.FunctionIndex, want.Function)
		return 125
	}
	ws, wst := want.Outcome()
	gs, gst := got.Outcome()
	was := fmt.Sprintf("%s at %q %s", wst, ws, want.FailureCode)
	now := fmt.Sprintf("%s at %q %s", gst, gs, got.FailureCode)
	if wst != analytics.EndedPassed && ws == gs && wst == gst && want.FailureCode == got.FailureCode {
		fmt.Fprintf(stdout, "reproduces: %s %s\n", now, got.FailureDetail)
		return 1
	}
	fmt.Fprintf(stdout, "does not reproduce: the row says %s, the rerun ended %s %s\n", was, now, got.FailureDetail)
	return 0
}

// shQuote quotes s for a POSIX shell's double quotes.
func shQuote(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
}

func safeName(s string) string {
	if s == "" {
		return "library"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '!' || r == ' ' || r < 32 {
			return '_'
		}
		return r
	}, s)
}

func writeRepro(dir string, meta analytics.RunMeta, row analytics.Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	put := func(name string, data []byte, mode os.FileMode) error {
		return os.WriteFile(filepath.Join(dir, name), data, mode)
	}
	js := func(v any) []byte { b, _ := json.MarshalIndent(v, "", "  "); return append(b, '\n') }
	if err := put("row.json", js(row), 0o644); err != nil {
		return err
	}
	if err := put("run.json", js(meta), 0o644); err != nil {
		return err
	}
	var notes []string
	lib, err := os.ReadFile(row.Source)
	if err != nil {
		notes = append(notes, fmt.Sprintf("library not copied: %v (the source is not a plain file here)", err))
	} else {
		if err := put("library.metallib", lib, 0o644); err != nil {
			return err
		}
		if row.FunctionIndex >= 0 {
			if n, err := writeModuleFiles(dir, lib, int(row.FunctionIndex)); err != nil {
				notes = append(notes, err.Error())
			} else {
				notes = append(notes, n...)
			}
		}
	}
	stagesUpTo := strings.Join(meta.Stages, ",")
	self, err := os.Executable()
	if err != nil {
		self = "airpipe"
	} else if abs, err := filepath.Abs(self); err == nil {
		self = abs
	}
	script := fmt.Sprintf(`#!/bin/sh
# Re-runs the stages over this module's library (airpipe %s wrote this).
# Original run: %s; the module stopped at stage %q with %s %s.
#
# Runs $AIRPIPE, default the airpipe that wrote this directory.
# Exit status (git bisect run's convention): 0 the module no longer ends as
# row.json says; 1 it ends the same way (the failure reproduces); 125
# airpipe could not run.
AIRPIPE="${AIRPIPE:-%s}"
cd "$(dirname "$0")" || exit 125
command -v "$AIRPIPE" >/dev/null || { echo "rerun.sh: no airpipe at $AIRPIPE (set AIRPIPE)" >&2; exit 125; }
rm -rf results
"$AIRPIPE" run --no-cache --progress none --out results --stages %s library.metallib || exit 125
"$AIRPIPE" repro --check results row.json
`, meta.ToolVersion, meta.RunID, row.FailedStage, row.FailureCode, row.FailureDetail, shQuote(self), stagesUpTo)
	if err := put("rerun.sh", []byte(script), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module   %s!%s (index %d)\nbitcode  %s (%d bytes)\n", row.Source, row.Function, row.FunctionIndex, row.BitcodeSHA256, row.BitcodeBytes)
	fmt.Fprintf(&b, "reached  %q; stopped at %q\nfailure  %s %s\nmessage  %s\nreason   %s\n", row.StageReached, row.FailedStage, row.FailureCode, row.FailureDetail, row.FailureMessage, row.StatusReason)
	for _, s := range analytics.StageNames {
		if st := row.Status(s); st != "" {
			fmt.Fprintf(&b, "stage    %-10s %-11s (version %s)\n", s, st, meta.StageVersions[s])
		}
	}
	for _, m := range row.Missing {
		fmt.Fprintf(&b, "missing  %s %s\n", m.Code, m.Detail)
	}
	for k, v := range meta.ToolVersions {
		fmt.Fprintf(&b, "tool     %s %s\n", k, v)
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "note     %s\n", n)
	}
	return put("README.txt", []byte(b.String()), 0o644)
}

// writeModuleFiles extracts the module's bitcode and, when llvm-dis-19 is
// installed, its LLVM text.
func writeModuleFiles(dir string, lib []byte, index int) ([]string, error) {
	l, err := mtlb.Parse(lib)
	if err != nil {
		return nil, fmt.Errorf("library no longer parses: %v", err)
	}
	if index >= len(l.Functions) {
		return nil, fmt.Errorf("library has no function %d now", index)
	}
	raw, err := l.Functions[index].RawBitcode()
	if err != nil {
		return nil, fmt.Errorf("bitcode: %v", err)
	}
	bc := filepath.Join(dir, "module.bc")
	if err := os.WriteFile(bc, raw, 0o644); err != nil {
		return nil, err
	}
	var notes []string
	o, err := proc.Run(context.Background(), proc.Spec{Path: "llvm-dis-19", Args: []string{bc, "-o", filepath.Join(dir, "module.ll")}, Timeout: time.Minute, MemoryLimit: 4 << 30})
	switch {
	case err != nil:
		notes = append(notes, fmt.Sprintf("module.ll not written: %v", err))
	case o.ExitCode != 0:
		notes = append(notes, fmt.Sprintf("module.ll not written: llvm-dis-19 %s: %s", o.Describe(), o.Tail(3)))
	}
	// The translation as airpipe makes it, when it makes one.
	var spv, refl strings.Builder
	if code := writeSPIRV(&l.Functions[index], filepath.Join(dir, "module.spv"), &spv, &refl); code != 0 {
		notes = append(notes, "no SPIR-V: "+strings.TrimSpace(refl.String()))
	} else if err := os.WriteFile(filepath.Join(dir, "module.spvasm"), []byte(spv.String()), 0o644); err != nil {
		return notes, err
	}
	return notes, nil
}
