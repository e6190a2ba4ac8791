package analytics

import (
	"bytes"
	"path/filepath"
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

// TestDiffMatchesByContent: the same corpus reached through another path
// matches module for module (the old behaviour matched nothing, so a
// regression gate passed); sources show relative to the runs' roots, and
// identical copies pair by relative path first.
func TestDiffMatchesByContent(t *testing.T) {
	rows := func(root string) []Row {
		a := mkRow(root+"/x/a.metallib", "k", "s1", "kernel", "device", "", "", "")
		a.LibrarySHA256 = "liba"
		b := mkRow(root+"/x/b.metallib", "k", "s1", "kernel", "device", "", "", "")
		b.LibrarySHA256 = "liba" // an identical copy
		c := mkRow(root+"/y/c.metallib", "f", "s2", "fragment", "reader", "translate", "translate/x", "d")
		c.LibrarySHA256 = "libc"
		u := mkRow(root+"/y/unreadable.metallib", "", "", "", "", "container", "container/unreadable", "")
		u.LibrarySHA256, u.FunctionIndex = "", -1
		return []Row{a, b, c, u}
	}
	om, nm := testMeta("old"), testMeta("new")
	om.Roots, nm.Roots = []string{"/mnt/corpus/"}, []string{"../../corpus"}
	old := &Run{Meta: om, Rows: rows("/mnt/corpus")}
	nr := rows("../../corpus")
	// The copies are listed in the other order, and c regressed.
	nr[0], nr[1] = nr[1], nr[0]
	nr[2] = mkRow("../../corpus/y/c.metallib", "f", "s2", "fragment", "container", "reader", "reader/x", "d")
	nr[2].LibrarySHA256 = "libc"
	d := Diff(old, &Run{Meta: nm, Rows: nr})
	if d.Matched != 4 || d.Counts[Regressed] != 1 || d.Counts[Unchanged] != 3 || d.Counts[New] != 0 || d.Counts[Gone] != 0 {
		t.Fatalf("matched %d, counts %v", d.Matched, d.Counts)
	}
	if got := d.Changes[0].Module.Source; got != "y/c.metallib" {
		t.Errorf("regressed module shown as %q, want its path relative to the root", got)
	}
	// A row matched by another path when it has no content identity is not.
	nr[3].Source = "../../corpus/y/renamed.metallib"
	d = Diff(old, &Run{Meta: nm, Rows: nr})
	if d.Counts[New] != 1 || d.Counts[Gone] != 1 {
		t.Errorf("unreadable file under another name: counts %v", d.Counts)
	}
}

func TestRelativeSource(t *testing.T) {
	for _, tc := range []struct {
		source string
		roots  []string
		want   string
	}{
		{"/c/x/a.metallib", []string{"/c"}, "x/a.metallib"},
		{"/c/x/a.metallib", []string{"/c/"}, "x/a.metallib"},
		{"/c/x/a.metallib", []string{"/c", "/c/x"}, "a.metallib"},
		{"lib.metallib", []string{"lib.metallib"}, "lib.metallib"},
		{"/fw/x.ipsw!/img.dmg!/S/default.metallib", []string{"/fw/x.ipsw"}, "x.ipsw!/img.dmg!/S/default.metallib"},
		{"/cx/a.metallib", []string{"/c"}, "/cx/a.metallib"},
		{"/c/a.metallib", nil, "/c/a.metallib"},
	} {
		if got := RelativeSource(tc.source, tc.roots); got != tc.want {
			t.Errorf("RelativeSource(%q, %q) = %q, want %q", tc.source, tc.roots, got, tc.want)
		}
	}
}

// TestChooseRunNamesSkipped: a results directory resolves to its latest
// complete run, naming every newer run passed over and why; with no
// complete run it is an error naming them.
func TestChooseRunNamesSkipped(t *testing.T) {
	out := t.TempDir()
	base := testMeta("a-complete")
	base.Complete = true
	writeRun(t, out, base, DefaultPartRows, []Row{mkRow("s", "f", "x", "kernel", "device", "", "", "")})
	killed := testMeta("b-killed")
	killed.Started = base.Started.Add(time.Hour)
	writeIncomplete(t, out, killed)
	stopped := testMeta("c-interrupted")
	stopped.Started = base.Started.Add(2 * time.Hour)
	stopped.Interrupted = true
	writeIncomplete(t, out, stopped)
	run, c, err := ChooseRun(out)
	if err != nil {
		t.Fatal(err)
	}
	if run.ID() != "a-complete" || c.Chosen != "a-complete" || len(c.Skipped) != 2 ||
		c.Skipped[0].ID != "c-interrupted" || c.Skipped[0].Reason != "interrupted" || c.Skipped[1].ID != "b-killed" {
		t.Fatalf("chose %s, %+v", run.ID(), c)
	}
	if s := c.String(); !strings.Contains(s, "skipped 2 newer: c-interrupted (interrupted); b-killed (not complete") {
		t.Errorf("choice says %q", s)
	}
	// A run directory is itself, no choice.
	if _, c, err := ChooseRun(filepath.Join(out, "b-killed")); err != nil || c != nil {
		t.Errorf("run directory: %+v %v", c, err)
	}
	only := t.TempDir()
	writeIncomplete(t, only, killed)
	if _, _, err := ChooseRun(only); err == nil || !strings.Contains(err.Error(), "no complete run among its 1: b-killed") {
		t.Errorf("no complete run: %v", err)
	}
}

// writeIncomplete writes a run that never completed.
func writeIncomplete(t *testing.T, out string, meta RunMeta) {
	t.Helper()
	w, err := NewWriterParts(out, meta, DefaultPartRows)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(meta); err != nil {
		t.Fatal(err)
	}
}
