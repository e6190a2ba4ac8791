package main

import (
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

func TestParseGrid(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want cpuref.Grid
		err  string
	}{
		{"", cpuref.Grid{}, ""},
		{"2x2x1/2x2x1", cpuref.Grid{Groups: [3]uint32{2, 2, 1}, Threads: [3]uint32{2, 2, 1}}, ""},
		{"4/8", cpuref.Grid{Groups: [3]uint32{4, 1, 1}, Threads: [3]uint32{8, 1, 1}}, ""},
		{"1x2/3x1x2", cpuref.Grid{Groups: [3]uint32{1, 2, 1}, Threads: [3]uint32{3, 1, 2}}, ""},
		{"2x2", cpuref.Grid{}, "GROUPS/THREADS"},
		{"0/1", cpuref.Grid{}, "from 1"},
		{"1x1x1x1/1", cpuref.Grid{}, "at most 3"},
		{"a/1", cpuref.Grid{}, "dimension 1"},
		{"256x256/256", cpuref.Grid{}, "threads; at most"},
	} {
		g, err := parseGrid(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || g != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, g, err, tc.want)
		}
	}
}

// FuzzParseGrid: any string gives a grid within the bound or an error.
func FuzzParseGrid(f *testing.F) {
	for _, s := range []string{"", "2x2x1/2x2x1", "4/8", "0/0", "x/x", "65536/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := parseGrid(s)
		if err != nil {
			return
		}
		n := uint64(1)
		for k := range 3 {
			if s != "" && (g.Groups[k] < 1 || g.Threads[k] < 1) {
				t.Fatalf("%q: %+v has a zero dimension", s, g)
			}
			n *= uint64(max(g.Groups[k], 1)) * uint64(max(g.Threads[k], 1))
		}
		if n > maxGridThreads {
			t.Fatalf("%q: %d threads", s, n)
		}
	})
}
