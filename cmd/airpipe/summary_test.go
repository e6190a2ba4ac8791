package main

import (
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
)

// TestSummaryRefusesTablesThatDoNotAddUp breaks each table on purpose.
func TestSummaryRefusesTablesThatDoNotAddUp(t *testing.T) {
	mk := func() (*summary, analytics.Counts) {
		s := newSummary([]string{"container", "reader"})
		s.add(analytics.Row{Source: "a", ContainerStatus: "passed", ReaderStatus: "passed", StageReached: "reader"})
		s.add(analytics.Row{Source: "a", ContainerStatus: "passed", ReaderStatus: "failed", StageReached: "container", FailedStage: "reader", FailureCode: "reader/malformed"})
		s.add(analytics.Row{Source: "b", ContainerStatus: "passed", ReaderStatus: "unavailable", StageReached: "container", StatusReason: "no tool"})
		return s, analytics.Counts{FilesSeen: 2, LibrariesParsed: 2, Modules: 3, RefusedReasons: map[string]int64{}}
	}
	tests := []struct {
		name    string
		breakIt func(*summary, *analytics.Counts)
		want    string
	}{
		{"adds up", func(*summary, *analytics.Counts) {}, ""},
		{"reached", func(s *summary, _ *analytics.Counts) { s.reached["reader"]++ }, "stage reached"},
		{"stopped", func(s *summary, _ *analytics.Counts) { s.codes["reader x"]++ }, "stopped"},
		{"statuses", func(s *summary, _ *analytics.Counts) { s.statuses["reader"]["passed"]++ }, "reader statuses"},
		{"files", func(_ *summary, c *analytics.Counts) { c.FilesSeen++ }, "files_seen"},
	}
	for _, tc := range tests {
		s, c := mk()
		tc.breakIt(s, &c)
		err := s.check(c)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		var b strings.Builder
		if perr := s.print(&b, analytics.RunMeta{Counts: c}, "d", false); (perr == nil) != (tc.want == "") {
			t.Errorf("%s: print %v", tc.name, perr)
		} else if perr != nil && b.Len() != 0 {
			t.Errorf("%s: printed despite refusing:\n%s", tc.name, b.String())
		}
	}
}
