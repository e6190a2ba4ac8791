package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/airpipe/airpipe/stages"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// toolVersion is airpipe's version with the VCS revision when known.
func toolVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return v
}

func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "version", "Prints airpipe's version and the version of each stage (part of every cache key).", stdout)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	fmt.Fprintf(stdout, "airpipe %s\n", toolVersion())
	for _, s := range stages.Default(stages.Options{}) {
		fmt.Fprintf(stdout, "  stage %-10s version %s\n", s.Name, s.Version)
	}
	return 0
}
