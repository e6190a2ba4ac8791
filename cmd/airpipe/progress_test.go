package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/pipeline"
)

// TestProgressTotals: while files are still being discovered the overall
// line says so and gives no ETA; a library file counts its declared
// functions before it is read, a file that declares none keeps the total
// open until read; once known, the line has a percentage, an ETA and the
// failures so far, and the total is the real number of modules.
func TestProgressTotals(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "c.metallib")
	if err := os.WriteFile(lib, sampleLibrary(t, "compute.metallib"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "app.bin")
	if err := os.WriteFile(other, []byte("\xcf\xfa\xed\xfe not a library header"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newProgress([]string{"container", "reader"})
	libEntry, otherEntry := corpus.Entry{Path: lib, Provenance: lib}, corpus.Entry{Path: other, Provenance: other}
	p.fileSeen()
	p.fileHanded(libEntry)
	p.fileSeen()
	p.fileHanded(otherEntry)
	steps := []struct {
		name string
		do   func()
		want []string
		not  []string
	}{
		{"walking", func() {}, []string{"modules 0 of 2 found so far", "discovering", "ETA after discovery"}, []string{"%"}},
		{"walked, one file without a count unread", p.walkDone, []string{"found so far", "ETA after discovery"}, nil},
		{"library read", func() { p.expanded(libEntry, 2) }, []string{"of 2 found so far"}, nil},
		{"other file read: two embedded modules", func() { p.expanded(otherEntry, 2) }, []string{"modules 0 of 4 (0%)", "ETA unknown", "0 failed"}, []string{"discovering"}},
		{"a module fails, one is done", func() {
			p.observe(pipeline.Event{Kind: pipeline.StageDone, Stage: "container", Status: pipeline.Failed})
			p.observe(pipeline.Event{Kind: pipeline.ItemDone})
		}, []string{"modules 1 of 4 (25%)", "1 failed", "container 1, reader 0"}, []string{"ETA unknown"}},
	}
	for _, s := range steps {
		s.do()
		line := p.line()
		for _, w := range s.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: %q lacks %q", s.name, line, w)
			}
		}
		for _, w := range s.not {
			if strings.Contains(line, w) {
				t.Errorf("%s: %q has %q", s.name, line, w)
			}
		}
	}
}

// TestProgressRecentRate: the ETA's rate is the average until a minute has
// passed, then the rate over about the last minute, so slow last modules
// are not promised the early modules' pace.
func TestProgressRecentRate(t *testing.T) {
	p := newProgress(nil)
	t0 := p.start
	steps := []struct {
		after   time.Duration
		done    int64
		average float64
		want    float64
	}{
		{0, 0, 0, 0},
		{30 * time.Second, 100, 100.0 / 30, 100.0 / 30},
		{90 * time.Second, 110, 110.0 / 90, 10.0 / 60},
		{150 * time.Second, 110, 110.0 / 150, 0},
	}
	for _, s := range steps {
		if got := p.recentRate(t0.Add(s.after), s.done, s.average); math.Abs(got-s.want) > 1e-9 {
			t.Errorf("at %s, %d done: rate %g, want %g", s.after, s.done, got, s.want)
		}
	}
	if got := etaOf(110, 200, 0); got != "unknown" {
		t.Errorf("no progress in the last minute: ETA %q, want unknown", got)
	}
}
