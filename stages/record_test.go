package stages

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

func TestRecord(t *testing.T) {
	lib := &Library{Source: "a.metallib", SHA256: "ab", Lib: &mtlb.Library{Platform: mtlb.PlatformIOS, TargetOS: 0x82, OSMajor: 16, OSMinor: 4, FormatMajor: 1, FormatMinor: 2}}
	fn := &mtlb.Function{Name: "k", Type: mtlb.FunctionKernel, HasVersion: true, AIRMajor: 2, AIRMinor: 6, LangMajor: 3, Bitcode: []byte("x")}
	names := []string{"container", "reader", "translate"}
	tests := []struct {
		name            string
		results         []pipeline.Result
		reached, failed string
		code            codes.Code
		reason          string
		statuses        []string
	}{
		{"all passed", []pipeline.Result{pipeline.Pass(), pipeline.Pass(), pipeline.Pass()}, "translate", "", "", "", []string{"passed", "passed", "passed"}},
		{"failed at reader", []pipeline.Result{pipeline.Pass(), pipeline.Fail("reader/unknown-record", "FUNCTION_BLOCK/X(code 9)", "m"), {}}, "container", "reader", "reader/unknown-record", "", []string{"passed", "failed", "not-run"}},
		{"unjudged is set aside, not failed", []pipeline.Result{pipeline.Pass(), pipeline.Pass(), pipeline.UnjudgedBecause("no reference")}, "reader", "", "", "no reference", []string{"passed", "passed", "unjudged"}},
		{"unavailable", []pipeline.Result{pipeline.Pass(), pipeline.Unavailablef("llvm-dis-19 not installed"), {}}, "container", "", "", "llvm-dis-19 not installed", []string{"passed", "unavailable", "not-run"}},
		{"cancelled", []pipeline.Result{pipeline.Pass(), {Status: pipeline.NotRun, Code: pipeline.CodeCancelled, Message: "interrupted"}, {}}, "container", "reader", "cancelled", "", []string{"passed", "not-run", "not-run"}},
		{"skipped in the middle, later stages still run", []pipeline.Result{pipeline.Pass(), {Status: pipeline.Skipped, Message: "excluded by --skip-stages"}, pipeline.Pass()}, "container", "", "", "excluded by --skip-stages", []string{"passed", "skipped", "passed"}},
		{"skipped, then failed", []pipeline.Result{pipeline.Pass(), {Status: pipeline.Skipped, Message: "excluded"}, pipeline.Fail("translate/x", "d", "m")}, "container", "translate", "translate/x", "excluded", []string{"passed", "skipped", "failed"}},
		{"failed first", []pipeline.Result{pipeline.Fail(codes.ContainerHashMismatch, "function[0]", "m"), {}, {}}, "", "container", codes.ContainerHashMismatch, "", []string{"failed", "not-run", "not-run"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.results {
				tc.results[i].Duration = 3 * time.Millisecond
			}
			row := Record(RunInfo{ID: "r", Started: time.Unix(100, 0), Stages: names}, pipeline.Done[*Module]{
				Item: &Module{Library: lib, Function: fn, Index: 0, SHA256: "cd"}, Results: tc.results})
			if row.StageReached != tc.reached || row.FailedStage != tc.failed || row.FailureCode != string(tc.code) || row.StatusReason != tc.reason {
				t.Errorf("reached %q failed %q code %q reason %q", row.StageReached, row.FailedStage, row.FailureCode, row.StatusReason)
			}
			for i, n := range names {
				if got := row.Status(n); got != tc.statuses[i] {
					t.Errorf("%s status %q, want %q", n, got, tc.statuses[i])
				}
			}
			if row.Platform != "iOS" || row.OSVersion != "16.4" || row.FunctionType != "kernel" || row.AIRVersion != "2.6" || row.BitcodeBytes != 1 {
				t.Errorf("library/function columns: %+v", row)
			}
			if row.Status("emulator") != "" {
				t.Errorf("a stage outside the run has status %q", row.Status("emulator"))
			}
		})
	}
}

func TestContainerVerdicts(t *testing.T) {
	good := &mtlb.Function{Name: "f", HasHash: true}
	tests := []struct {
		name string
		m    *Module
		code codes.Code
	}{
		{"library error", &Module{Library: &Library{Err: &mtlb.FormatError{Construct: "header", Msg: "short"}, ErrCode: codes.ContainerMalformedLibrary}, Index: -1}, codes.ContainerMalformedLibrary},
		{"unreadable", &Module{Library: &Library{Err: errors.New("permission denied"), ErrCode: codes.ContainerUnreadable}, Index: -1}, codes.ContainerUnreadable},
		{"out of bounds", &Module{Library: &Library{Lib: &mtlb.Library{}}, Function: &mtlb.Function{Problem: &mtlb.FormatError{Construct: "function[0] tag OFFT"}}}, codes.ContainerBitcodeOutOfBounds},
		{"no hash", &Module{Library: &Library{Lib: &mtlb.Library{}}, Function: &mtlb.Function{Name: "f", Bitcode: []byte{1}}}, codes.ContainerMissingHash},
		{"hash mismatch", &Module{Library: &Library{Lib: &mtlb.Library{}}, Function: &mtlb.Function{Name: "f", HasHash: true, Bitcode: []byte{1}}}, codes.ContainerHashMismatch},
		{"no bitcode", &Module{Library: &Library{Lib: &mtlb.Library{}}, Function: good}, codes.ContainerHashMismatch},
	}
	for _, tc := range tests {
		r := checkContainer(tc.m)
		if r.Status != pipeline.Failed || r.Code != tc.code {
			t.Errorf("%s: %+v, want failed %s", tc.name, r, tc.code)
		}
	}
}

func TestRecordExtraStage(t *testing.T) {
	lib := &Library{Source: "a", Lib: &mtlb.Library{}}
	row := Record(RunInfo{Stages: []string{"container", "llvm-dis", "reader"}}, pipeline.Done[*Module]{
		Item:    &Module{Library: lib, Function: &mtlb.Function{Name: "f"}},
		Results: []pipeline.Result{pipeline.Pass(), pipeline.Fail("llvm-dis/tool-failed", "exit 1", "bad"), {}},
	})
	if row.StageReached != "container" || row.FailedStage != "llvm-dis" || row.FailureCode != "llvm-dis/tool-failed" || row.ReaderStatus != "not-run" {
		t.Errorf("row %+v", row)
	}
	if !slices.Contains(row.Data, "llvm-dis.status=failed") {
		t.Errorf("data %v", row.Data)
	}
}

// TestRecordFailureIsItsOwnBlocker: a failure whose stage named no missing
// feature (a mismatch) records its code and detail as the one missing
// entry; a failure that named some keeps exactly those.
func TestRecordFailureIsItsOwnBlocker(t *testing.T) {
	lib := &Library{Source: "a.metallib", SHA256: "ab", Lib: &mtlb.Library{}}
	fn := &mtlb.Function{Name: "k", Bitcode: []byte("x")}
	names := []string{"container", "translate", "emulator"}
	named := pipeline.Fail("translate/unhandled-intrinsic", "air.a", "m")
	named.Missing = []pipeline.Finding{{Code: "translate/unhandled-intrinsic", Detail: "air.a"}, {Code: "translate/unhandled-intrinsic", Detail: "air.b"}}
	for _, tc := range []struct {
		name string
		last pipeline.Result
		want []string
	}{
		{"mismatch", pipeline.Fail(codes.EmulatorMismatch, "buffer 1", "m"), []string{string(codes.EmulatorMismatch) + " buffer 1"}},
		{"named", named, []string{"translate/unhandled-intrinsic air.a", "translate/unhandled-intrinsic air.b"}},
		{"passed", pipeline.Pass(), nil},
	} {
		results := []pipeline.Result{pipeline.Pass(), pipeline.Pass(), tc.last}
		if tc.name == "named" {
			results = []pipeline.Result{pipeline.Pass(), tc.last, {}}
		}
		row := Record(RunInfo{ID: "r", Stages: names}, pipeline.Done[*Module]{
			Item: &Module{Library: lib, Function: fn, SHA256: "cd"}, Results: results})
		var got []string
		for _, m := range row.Missing {
			got = append(got, m.Code+" "+m.Detail)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: missing %q, want %q", tc.name, got, tc.want)
		}
	}
}
