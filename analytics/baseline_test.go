package analytics

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"slices"
	"strings"
	"testing"
)

// libSHA gives a test library a real-looking SHA-256.
func libSHA(name string) string {
	s := sha256.Sum256([]byte(name))
	return hex.EncodeToString(s[:])
}

// baselineRun is junitRun with content hashes, and the failing library
// found a second time at another path.
func baselineRun() *Run {
	run := junitRun()
	for i := range run.Rows {
		run.Rows[i].LibrarySHA256 = libSHA(run.Rows[i].Source)
	}
	again := run.Rows[1]
	again.Source = "copy/a.metallib"
	run.Rows = append(run.Rows, again)
	return run
}

func TestBaselineRoundTrip(t *testing.T) {
	run := baselineRun()
	entries, err := BaselineOf(run)
	if err != nil {
		t.Fatal(err)
	}
	// fails, odd name, skip-then-fail: three failures; the copy is the
	// same module by content.
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3: %+v", len(entries), entries)
	}
	var b bytes.Buffer
	if err := WriteBaseline(&b, entries); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(b.String(), "\n"); lines != 4 {
		t.Errorf("%d lines, want a header and 3 failures:\n%s", lines, b.String())
	}
	back, err := ReadBaseline(strings.NewReader("# made by a test\n" + b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(entries) {
		t.Fatalf("read back %d of %d", len(back), len(entries))
	}
	for i := range back {
		if back[i] != entries[i] {
			t.Errorf("entry %d: %+v, wrote %+v", i, back[i], entries[i])
		}
	}
}

func TestReadBaselineRefuses(t *testing.T) {
	sha := libSHA("x")
	tests := []struct{ name, in, want string }{
		{"empty", "", "empty baseline"},
		{"bad header", "sha,fn\n", "baseline header"},
		{"short sha", "library_sha256,function\nabc,f\n", "line 2: library_sha256 \"abc\""},
		{"no function", "library_sha256,function\n" + sha + ",\n", "line 2: empty function"},
		{"field count", "library_sha256,function,stage\n" + sha + ",f\n", "line 2: 2 fields, the header has 3"},
		{"duplicate", "library_sha256,function\n" + sha + ",f\n" + sha + ",f\n", "line 3: " + sha[:12] + " f is already on line 2"},
	}
	for _, tt := range tests {
		_, err := ReadBaseline(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want %q", tt.name, err, tt.want)
		}
	}
	// The key columns alone (a flakes file) are enough.
	got, err := ReadBaseline(strings.NewReader("library_sha256,function\n" + sha + ",f\n"))
	if err != nil || len(got) != 1 || got[0].Function != "f" {
		t.Errorf("key-only file: %+v %v", got, err)
	}
}

func TestGate(t *testing.T) {
	run := baselineRun()
	base, err := BaselineOf(run)
	if err != nil {
		t.Fatal(err)
	}
	// The baseline's own run: nothing new.
	g, err := Gate(run, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.New) != 0 || len(g.Known) != 3 || len(g.Fixed) != 0 {
		t.Fatalf("own run: %s", g.Summary())
	}

	// Plant: a passing module now fails; a known failure fails with
	// another code; a known failure is fixed; a baseline module is gone.
	planted := baselineRun()
	planted.Rows[0] = mkRow("a.metallib", "passes", "s1", "fragment", "reader", "translate", "translate/unhandled-type", "x86_fp80")
	planted.Rows[0].LibrarySHA256 = libSHA("a.metallib")
	for i := range planted.Rows {
		r := &planted.Rows[i]
		switch r.Function {
		case "fails":
			r.FailureCode = "translate/unhandled-metadata"
		case "skip-then-fail":
			fixed := mkRow(r.Source, r.Function, r.BitcodeSHA256, "kernel", "device", "", "", "")
			fixed.LibrarySHA256 = r.LibrarySHA256
			*r = fixed
		}
	}
	var odd Row
	planted.Rows = slices.DeleteFunc(planted.Rows, func(r Row) bool {
		if strings.HasPrefix(r.Function, "odd") {
			odd = r
			return true
		}
		return false
	})
	g, err = Gate(planted, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.New) != 1 || g.New[0].Function != "passes" || g.New[0].Code != "translate/unhandled-type" {
		t.Errorf("new: %+v", g.New)
	}
	if len(g.Changed) != 1 || g.Changed[0].Function != "fails" || g.Was[0].Code != "translate/unhandled-intrinsic" {
		t.Errorf("changed: %+v was %+v", g.Changed, g.Was)
	}
	if len(g.Fixed) != 1 || g.Fixed[0].Function != "skip-then-fail" {
		t.Errorf("fixed: %+v", g.Fixed)
	}
	if len(g.Absent) != 1 || g.Absent[0].Function != odd.Function {
		t.Errorf("absent: %+v", g.Absent)
	}
	if s := g.Summary(); !strings.Contains(s, "1 new failures") || !strings.Contains(s, "new     "+libSHA("a.metallib")[:12]+" passes") {
		t.Errorf("summary:\n%s", s)
	}

	// The new failure's module on the flakes list: reported, not new.
	flakes := []BaselineEntry{{BaselineKey: BaselineKey{libSHA("a.metallib"), "passes"}}}
	g, err = Gate(planted, base, flakes)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.New) != 0 || len(g.Flaky) != 1 {
		t.Errorf("with flakes: %s", g.Summary())
	}

	// JUnit under the gate: only new failures are <failure>.
	g, _ = Gate(planted, base, nil)
	var b bytes.Buffer
	if err := WriteJUnit(&b, planted, g.Expected()); err != nil {
		t.Fatal(err)
	}
	var doc parsedSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Failures != 1 {
		t.Errorf("JUnit under the gate has %d failures, want the 1 new one", doc.Failures)
	}
	if !strings.Contains(b.String(), `message="known failure (baseline: translate translate/unhandled-intrinsic): translate/unhandled-metadata at translate"`) {
		t.Errorf("changed known failure not marked:\n%s", b.String())
	}

	// A row without its library hash cannot be keyed.
	planted.Rows[0].LibrarySHA256 = ""
	if _, err := Gate(planted, base, nil); err == nil || !strings.Contains(err.Error(), "no library_sha256") {
		t.Errorf("row without library_sha256: %v", err)
	}
}
