package main

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/proc"
)

// toolVersionCommands are the external tools whose versions change stage
// outcomes; their answers go to run.json and into the cache key.
var toolVersionCommands = map[string][]string{
	"llvm-dis-19": {"--version"},
	"spirv-val":   {"--version"},
	"llc-19":      {"--version"},
	"7z":          {"i"},
}

// toolVersions asks each tool for its version (a tool that is absent is
// recorded as such) and the Vulkan drivers for theirs.
func toolVersions(ctx context.Context, withDrivers bool) map[string]string {
	out := map[string]string{}
	for tool, args := range toolVersionCommands {
		o, err := proc.Run(ctx, proc.Spec{Path: tool, Args: args, Timeout: 10 * time.Second, MaxOutput: 4096})
		if err != nil {
			out[tool] = "absent"
			continue
		}
		out[tool] = versionLine(string(o.Stdout) + string(o.Stderr))
	}
	if withDrivers {
		if facts, err := device.Devices(); err == nil {
			for _, f := range facts {
				out["vulkan:"+f.Name] = f.DriverInfo + " " + f.DriverVersion
			}
		} else {
			out["vulkan"] = "absent: " + err.Error()
		}
	}
	return out
}

// versionLine picks the line of a tool's output that names its version.
func versionLine(s string) string {
	lines := strings.Split(s, "\n")
	for _, l := range lines {
		if strings.Contains(strings.ToLower(l), "version") || strings.HasPrefix(strings.TrimSpace(l), "7-Zip") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[0])
}

// fingerprint folds tool versions into one cache salt, in a stable order.
func fingerprint(versions map[string]string) string {
	keys := make([]string, 0, len(versions))
	for k := range versions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + versions[k] + ";")
	}
	return b.String()
}
