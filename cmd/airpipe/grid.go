package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// maxGridThreads bounds --grid: the CPU reference runs every thread one
// after another, so a grid is a test input, not a workload.
const maxGridThreads = 1 << 16

// parseGrid reads --grid: "GROUPS/THREADS", each "X[xY[xZ]]" (a missing
// dimension is 1), e.g. "2x2x1/2x2x1". "" is the zero Grid: the reference
// chooses by the kernel's position dimensions (cpuref.GridFor).
func parseGrid(s string) (cpuref.Grid, error) {
	var g cpuref.Grid
	if s == "" {
		return g, nil
	}
	groups, threads, ok := strings.Cut(s, "/")
	if !ok {
		return g, fmt.Errorf("%q: want GROUPS/THREADS, e.g. 2x2x1/2x2x1", s)
	}
	var err error
	if g.Groups, err = parseDims(groups); err != nil {
		return g, fmt.Errorf("%q: threadgroups: %w", s, err)
	}
	if g.Threads, err = parseDims(threads); err != nil {
		return g, fmt.Errorf("%q: threads per threadgroup: %w", s, err)
	}
	n := uint64(1)
	for k := range 3 {
		n *= uint64(g.Groups[k]) * uint64(g.Threads[k])
	}
	if n > maxGridThreads {
		return g, fmt.Errorf("%q: %d threads; at most %d (the CPU reference runs them one by one)", s, n, maxGridThreads)
	}
	return g, nil
}

// parseDims reads "X[xY[xZ]]", each at least 1.
func parseDims(s string) ([3]uint32, error) {
	d := [3]uint32{1, 1, 1}
	parts := strings.Split(s, "x")
	if len(parts) > 3 {
		return d, fmt.Errorf("%q has %d dimensions; at most 3", s, len(parts))
	}
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil || v < 1 || v > maxGridThreads {
			return d, fmt.Errorf("%q: dimension %d is %q, want a number from 1 to %d", s, i+1, p, maxGridThreads)
		}
		d[i] = uint32(v)
	}
	return d, nil
}
