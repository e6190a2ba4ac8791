package analytics

import (
	"fmt"
	"testing"
	"time"
)

// testStart is the start time every test run uses unless it says otherwise.
var testStart = time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)

// mkRow builds a row that reached stage reached and, when failedStage is
// not "", failed there with code/detail and the given missing features.
func mkRow(source, fn, sha, ftype, reached, failedStage, code, detail string, missing ...Finding) Row {
	r := Row{
		Source: source, LibrarySHA256: "lib-" + source, Platform: "iOS", TargetOS: "ios",
		OSVersion: "16.5", LibraryType: "executable", FormatVersion: "1.2",
		Function: fn, FunctionType: ftype, AIRVersion: "2.5", LanguageVersion: "3.0",
		BitcodeSHA256: sha, BitcodeBytes: 1234,
		StageReached: reached, FailedStage: failedStage, FailureCode: code, FailureDetail: detail,
		FailureMessage: "message for " + code, Missing: missing,
		Features: []string{"air.feature." + fn},
		Data:     []string{"compile.sgprs=12"},
	}
	passed := true
	for _, s := range StageNames {
		st := ""
		switch {
		case passed:
			st = "passed"
		default:
			st = "not-run"
		}
		if s == failedStage {
			st = "failed"
			passed = false
		}
		r.setStatus(s, st, 3)
		if s == reached && failedStage == "" {
			passed = false
		}
	}
	return r
}

// withStatus returns r with stage s set to status st and the reason.
func withStatus(r Row, s, st, reason string) Row {
	r.setStatus(s, st, 1)
	r.StatusReason = reason
	return r
}

// f is a short Finding constructor.
func f(code, detail string) Finding { return Finding{Code: code, Detail: detail} }

// manyRows returns n varied rows for benchmarks and scale tests.
func manyRows(n int) []Row {
	rows := make([]Row, n)
	codes := []Finding{
		f("translate/unhandled-intrinsic", "air.fast_acos.f32"),
		f("translate/unhandled-intrinsic", "air.sample_texture_2d.v4f32"),
		f("reader/unknown-record", "FUNCTION_BLOCK/INST_SWITCH"),
		f("translate/unhandled-metadata", "air.arg_type_align_size"),
	}
	types := []string{"fragment", "vertex", "kernel", "visible"}
	for i := range rows {
		src := fmt.Sprintf("lib%03d.metallib", i%134)
		sha := fmt.Sprintf("%064x", i%5000)
		switch i % 5 {
		case 0:
			rows[i] = mkRow(src, fmt.Sprintf("fn%d", i), sha, types[i%4], "compile", "emulator", "emulator/mismatch", "output[0]")
		case 1:
			rows[i] = mkRow(src, fmt.Sprintf("fn%d", i), sha, types[i%4], "reader", "translate", codes[i%4].Code, codes[i%4].Detail, codes[i%4], codes[(i/5)%4])
		case 2:
			rows[i] = mkRow(src, fmt.Sprintf("fn%d", i), sha, types[i%4], "container", "reader", codes[2].Code, codes[2].Detail, codes[2])
		default:
			rows[i] = mkRow(src, fmt.Sprintf("fn%d", i), sha, types[i%4], "device", "", "", "")
		}
	}
	return rows
}

func TestMkRowConsistent(t *testing.T) {
	r := mkRow("a", "f", "s", "kernel", "reader", "translate", "c", "d")
	if r.ReaderStatus != "passed" || r.TranslateStatus != "failed" || r.CompileStatus != "not-run" {
		t.Fatalf("statuses: %+v", r)
	}
	r = mkRow("a", "f", "s", "kernel", "compile", "", "", "")
	if r.CompileStatus != "passed" || r.EmulatorStatus != "not-run" {
		t.Fatalf("statuses: %+v", r)
	}
	_ = testing.Short
}
