package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"sort"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/stages"
)

// version is set at build time with -ldflags "-X main.version=..."; when
// left at "dev" the module version of the build information is used.
var version = "dev"

// buildIdentity is the build of this binary: module, version, VCS commit
// and dirty flag, Go version.
func buildIdentity() analytics.Build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return withVersion(analytics.BuildFrom(bi), version)
}

// withVersion puts a version set at link time (anything but "dev") in
// place of the module version.
func withVersion(b analytics.Build, linked string) analytics.Build {
	if linked != "dev" && linked != "" {
		b.Version = linked
	}
	if b.Version == "" {
		b.Version = linked
	}
	return b
}

// toolVersion is airpipe's version with the VCS revision when known.
func toolVersion() string {
	v := version
	if b := buildIdentity(); b.Commit != "" {
		v += "+" + b.ShortCommit()
	}
	return v
}

const versionDescription = `Prints airpipe's build — module version, the VCS commit it was built from (with
"+dirty" when the checkout had uncommitted changes), the Go version — then each
stage's version (part of every cache key) and, with --tools, the external tools'
versions. The same build identity is recorded in every run's run.json ("build") and
shown by diff and trends. 'airpipe --version' prints the first line only.

A build records its commit when built in a git checkout (make build; go build
-buildvcs=auto ./cmd/airpipe); the commit reads "unknown" otherwise.

Examples:
  airpipe --version
  airpipe version
  airpipe version --tools
  airpipe version --format json | jq -r .build.commit`

// versionReport is what 'airpipe version --format json' prints.
type versionReport struct {
	Build         analytics.Build   `json:"build"`
	StageVersions map[string]string `json:"stage_versions"`
	ToolVersions  map[string]string `json:"tool_versions,omitempty"`
}

func versionCmd(args []string, stdout, stderr io.Writer) int {
	var format string
	var tools, short bool
	fs := newFlags("version", "version [--format text|json] [--tools]", versionDescription, stdout)
	fs.StringVarP(&format, "format", "f", "text", "output format: text or json")
	fs.BoolVar(&tools, "tools", false, "also ask the external tools (llvm, spirv-val, 7z, Vulkan drivers) for their versions")
	fs.BoolVar(&short, "short", false, "print the first line only (what 'airpipe --version' prints)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "airpipe version: takes no arguments (see 'airpipe version --help')")
		return 2
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(stderr, "airpipe version: --format: unknown format %q (want text or json)\n", format)
		return 2
	}
	rep := versionReport{Build: buildIdentity(), StageVersions: map[string]string{}}
	list := stages.Default(stages.Options{})
	for _, s := range list {
		rep.StageVersions[s.Name] = s.Version
	}
	if tools {
		rep.ToolVersions = toolVersions(context.Background(), true)
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "airpipe version: %v\n", err)
			return 1
		}
		return 0
	}
	b := rep.Build
	fmt.Fprintf(stdout, "airpipe %s\n", b)
	if short {
		return 0
	}
	fmt.Fprintf(stdout, "  module  %s %s\n", b.Module, b.Version)
	commit := b.Commit
	if commit == "" {
		commit = "unknown (built without VCS information)"
	} else if b.Modified {
		commit += " (modified: uncommitted changes)"
	}
	fmt.Fprintf(stdout, "  commit  %s\n", commit)
	if !b.CommitTime.IsZero() {
		fmt.Fprintf(stdout, "  date    %s\n", b.CommitTime.Format("2006-01-02 15:04:05Z"))
	}
	fmt.Fprintf(stdout, "  go      %s\n", b.Go)
	for _, s := range list {
		fmt.Fprintf(stdout, "  stage %-10s version %s\n", s.Name, s.Version)
	}
	names := make([]string, 0, len(rep.ToolVersions))
	for n := range rep.ToolVersions {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(stdout, "  tool  %-10s %s\n", n, rep.ToolVersions[n])
	}
	return 0
}
