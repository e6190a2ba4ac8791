package analytics

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// diffRuns builds an old run and a new run in which one module of each
// class changed, a regression planted among them.
func diffRuns() (*Run, *Run) {
	acos := f("translate/unhandled-intrinsic", "air.fast_acos.f32")
	old := []Row{
		mkRow("a", "same", "s1", "fragment", "device", "", "", ""),
		mkRow("a", "better", "s2", "kernel", "reader", "translate", acos.Code, acos.Detail, acos),
		mkRow("a", "worse", "s3", "fragment", "compile", "emulator", "emulator/mismatch", "output[0]"),
		mkRow("a", "other", "s4", "kernel", "reader", "translate", acos.Code, acos.Detail, acos),
		mkRow("a", "gpu", "s5", "fragment", "device", "", "", ""),
		mkRow("a", "gone", "s6", "vertex", "device", "", "", ""),
	}
	nw := []Row{
		old[0],
		mkRow("a", "better", "s2", "kernel", "compile", "emulator", "emulator/mismatch", "output[1]"),
		mkRow("a", "worse", "s3", "fragment", "reader", "translate", "translate/unhandled-metadata", "air.arg_type_align_size"),
		mkRow("a", "other", "s4", "kernel", "reader", "translate", acos.Code, "air.fast_asin.f32"),
		withStatus(mkRow("a", "gpu", "s5", "fragment", "emulator", "", "", ""), "device", "unavailable", "no GPU"),
		mkRow("b", "new", "s7", "vertex", "device", "", "", ""),
	}
	om, nm := testMeta("old"), testMeta("new")
	nm.Started = om.Started.Add(24 * time.Hour)
	om.Complete, nm.Complete = true, true
	nm.Build = Build{Module: "github.com/airpipe/airpipe", Version: "(devel)", Commit: "0123456789abcdef0123456789abcdef01234567", Modified: true, Go: "go1.26.8"}
	return &Run{Meta: om, Rows: old}, &Run{Meta: nm, Rows: nw}
}

func TestDiffFindsPlantedRegression(t *testing.T) {
	o, n := diffRuns()
	d := Diff(o, n)
	want := map[string]int64{Unchanged: 1, Improved: 1, Regressed: 1, Changed: 1, SetAside: 1, New: 1, Gone: 1}
	for c, w := range want {
		if d.Counts[c] != w {
			t.Errorf("%s: %d, want %d", c, d.Counts[c], w)
		}
	}
	if d.Regressions() != 1 || d.Changes[0].Class != Regressed || d.Changes[0].Module.Function != "worse" {
		t.Fatalf("regression: %+v", d.Changes[0])
	}
	var b bytes.Buffer
	if err := Render(&b, d.Document(0), FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "old build unknown, new build commit 0123456789ab+dirty go1.26.8") {
		t.Errorf("diff does not name the runs' builds:\n%s", b.String())
	}
	golden(t, "diff.txt", b.Bytes())

	// Same run against itself: nothing changes.
	same := Diff(n, n)
	if same.Counts[Unchanged] != int64(len(n.Rows)) || len(same.Changes) != 0 {
		t.Fatalf("self diff: %+v", same.Counts)
	}
}

func TestDiffTablesRefuseBrokenCounts(t *testing.T) {
	o, n := diffRuns()
	d := Diff(o, n)
	d.Counts[Improved]++ // a class counted twice
	if err := CheckAll(d.Tables(0)); err == nil {
		t.Fatal("diff summary that does not add up was accepted")
	}
}

func TestTrends(t *testing.T) {
	out := t.TempDir()
	runs := milestoneRuns(t)
	runs[2].Meta.Build = Build{Module: "github.com/airpipe/airpipe", Version: "(devel)", Commit: "fedcba9876543210fedcba9876543210fedcba98", Go: "go1.26.8"}
	for _, r := range runs {
		writeRun(t, out, r.Meta, 100, r.Rows)
	}
	// A killed run: not complete, left out of trends unless asked.
	m := testMeta("killed")
	m.Started = testStart.Add(72 * time.Hour)
	w, err := NewWriterParts(out, m, 1)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(runs[0].Rows[0])
	read, err := ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	tr := Trends(read, false)
	if len(tr.Points) != 3 || len(tr.Excluded) != 1 || tr.Excluded[0] != "killed" {
		t.Fatalf("points %d excluded %v", len(tr.Points), tr.Excluded)
	}
	if got := tr.Points[2].Build; got != runs[2].Meta.Build {
		t.Errorf("day2 build read back from run.json as %+v, want %+v", got, runs[2].Meta.Build)
	}
	if got := tr.Points[2].Reached["device"]; got != 1 {
		t.Errorf("day2 device: %d", got)
	}
	var b bytes.Buffer
	if err := Render(&b, tr.Document(), FormatText); err != nil {
		t.Fatal(err)
	}
	golden(t, "trends.txt", b.Bytes())
	if all := Trends(read, true); len(all.Points) != 4 {
		t.Fatalf("with incomplete: %d", len(all.Points))
	}
	// A run whose run.json lists other row counts than were read is refused.
	tr.listed[0]++
	if err := tr.Table().Check(); err == nil {
		t.Fatal("trend table that does not add up was accepted")
	}
}
