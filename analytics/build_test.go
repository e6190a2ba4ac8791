package analytics

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestBuildFrom(t *testing.T) {
	const rev = "d5603c7bbe333a9172b174ead2c191fbbe9b1507"
	bi := func(settings ...string) *debug.BuildInfo {
		b := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/airpipe/airpipe", Version: "(devel)"}}
		for i := 0; i+1 < len(settings); i += 2 {
			b.Settings = append(b.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return b
	}
	tests := []struct {
		name  string
		in    *debug.BuildInfo
		short string
		want  Build
	}{
		{"clean checkout", bi("vcs", "git", "vcs.revision", rev, "vcs.modified", "false", "vcs.time", "2026-12-01T20:52:24Z"),
			"d5603c7bbe33",
			Build{Module: "github.com/airpipe/airpipe", Version: "(devel)", Commit: rev, Modified: false, Go: "go1.26.8",
				CommitTime: time.Date(2026, 12, 1, 20, 52, 24, 0, time.UTC)}},
		{"dirty checkout", bi("vcs.revision", rev, "vcs.modified", "true"), "d5603c7bbe33+dirty",
			Build{Module: "github.com/airpipe/airpipe", Version: "(devel)", Commit: rev, Modified: true, Go: "go1.26.8"}},
		{"no vcs", bi("-buildmode", "exe"), "unknown",
			Build{Module: "github.com/airpipe/airpipe", Version: "(devel)", Go: "go1.26.8"}},
		{"no build info", nil, "unknown", Build{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BuildFrom(tt.in)
			if got != tt.want {
				t.Errorf("BuildFrom = %+v, want %+v", got, tt.want)
			}
			if s := got.ShortCommit(); s != tt.short {
				t.Errorf("ShortCommit = %q, want %q", s, tt.short)
			}
			if s := got.Brief(); tt.in != nil && s != "commit "+tt.short+" go1.26.8" || tt.in == nil && s != "unknown" {
				t.Errorf("Brief = %q", s)
			}
			if s := got.String(); tt.in != nil && !strings.Contains(s, tt.short) {
				t.Errorf("String = %q, lacks %q", s, tt.short)
			}
		})
	}
}
