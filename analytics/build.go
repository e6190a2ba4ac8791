package analytics

import (
	"runtime/debug"
	"time"
)

// Build identifies the airpipe binary that wrote a run, from the build
// information the Go toolchain records in every binary
// (runtime/debug.ReadBuildInfo).
type Build struct {
	// Module is the main module's path.
	Module string `json:"module"`
	// Version is the main module's version: a release tag when installed
	// with go install MODULE@VERSION, "(devel)" for a build in a checkout.
	Version string `json:"version"`
	// Commit is the VCS revision (full hex) the binary was built from;
	// empty when the build recorded none (-buildvcs=false, no checkout).
	Commit string `json:"commit,omitempty"`
	// CommitTime is the revision's commit time.
	CommitTime time.Time `json:"commit_time,omitzero"`
	// Modified is set when the checkout had uncommitted changes.
	Modified bool `json:"modified"`
	// Go is the toolchain version that built the binary.
	Go string `json:"go"`
}

// BuildFrom reads a Build out of build information (nil: none known).
func BuildFrom(bi *debug.BuildInfo) Build {
	if bi == nil {
		return Build{}
	}
	b := Build{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs.time":
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				b.CommitTime = t.UTC()
			}
		}
	}
	return b
}

// ShortCommit is the first 12 hex digits of the commit, with "+dirty"
// when the checkout was modified; "unknown" when no commit was recorded.
func (b Build) ShortCommit() string {
	if b.Commit == "" {
		return "unknown"
	}
	c := b.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if b.Modified {
		c += "+dirty"
	}
	return c
}

// Brief names the build in a few words: "commit 0123456789ab+dirty
// go1.26.8", or "unknown" when nothing was recorded.
func (b Build) Brief() string {
	if b.Commit == "" && b.Go == "" {
		return "unknown"
	}
	s := "commit " + b.ShortCommit()
	if b.Go != "" {
		s += " " + b.Go
	}
	return s
}

// String is one line naming the build: version, commit and Go version.
func (b Build) String() string {
	if b == (Build{}) {
		return "unknown build"
	}
	v := b.Version
	if v == "" {
		v = "(unknown version)"
	}
	return v + " commit " + b.ShortCommit() + " " + b.Go
}
