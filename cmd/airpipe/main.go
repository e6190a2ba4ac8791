// Command airpipe measures how far Metal shader libraries get through a
// translator pipeline (container → reader → translate → compile → emulator
// → device) and writes one Parquet row per module.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	if code, ok := serveChild(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// serveChild runs a hidden child command (a compile or emulator child that
// airpipe starts for itself) and reports whether args named one.
func serveChild(args []string) (int, bool) {
	if len(args) != 1 {
		return 0, false
	}
	serve, ok := childServers[args[0]]
	if !ok {
		return 0, false
	}
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "airpipe %s: %v\n", args[0], err)
		return 1, true
	}
	return 0, true
}

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand, one file each.
func commands() map[string]command {
	return map[string]command{
		"run":        {"run the pipeline over files, directories and firmware; write Parquet results", runCmd},
		"inspect":    {"show everything a .metallib container holds (text or JSON)", inspectCmd},
		"pack":       {"build a .metallib from bitcode files", packCmd},
		"report":     {"the stage funnel, failure codes and set-aside counts of a run (or JUnit XML; a baseline gate)", reportCmd},
		"baseline":   {"a run's failures as an expected-failures file for 'report --baseline'", baselineCmd},
		"features":   {"missing features ranked by how many modules they would unlock", featuresCmd},
		"milestones": {"milestones met or not across runs", milestonesCmd},
		"diff":       {"per-module changes between two runs (improved, regressed, ...)", diffCmd},
		"trends":     {"stage counts across runs over time", trendsCmd},
		"trend":      {"the same as trends", trendsCmd},
		"repro":      {"write a self-contained directory that replays one module of a run", reproCmd},
		"devices":    {"list the Vulkan devices and compile targets this machine offers", devicesCmd},
		"version":    {"print airpipe's version and its stages' versions", versionCmd},
		"opcheck":    {"check every air.* math operation on its own against its Metal accuracy bound", opcheckCmd},
		"cache":      {"prune the stage and reference caches of entries this build does not read", cacheCmd},
	}
}

// run dispatches to a subcommand and returns the process exit status:
// 0 success, 1 a failed or interrupted operation, 2 a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if c, ok := cmds[args[1]]; ok {
				return c.run([]string{"--help"}, stdout, stderr)
			}
		}
		usage(stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" {
		return versionCmd(append([]string{"--short"}, args[1:]...), stdout, stderr)
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "airpipe: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("airpipe measures how far Metal shader libraries get through a translator pipeline:\n")
	b.WriteString("container → reader → translate → compile → emulator → device, one Parquet row per module.\n\n")
	b.WriteString("Usage: airpipe COMMAND [flags] [args]\n       airpipe --version\n\nCommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-11s %s\n", n, cmds[n].summary)
	}
	b.WriteString("\nRun 'airpipe COMMAND --help' for a command's flags and examples.\n")
	b.WriteString("\nExamples:\n  airpipe run --out results ~/firmware/System/Library\n  airpipe report results/<run_id>\n  airpipe features results/<run_id>\n")
	io.WriteString(w, b.String())
}
