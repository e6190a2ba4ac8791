package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	run := func(context.Context, int) Result { return Pass() }
	all := []Stage[int]{
		{Name: "a", Run: run, Provides: []string{"x"}},
		{Name: "b", Run: run, Needs: []string{"x"}},
		{Name: "c", Run: run},
	}
	for _, tc := range []struct {
		names string
		want  []string
		err   string
	}{
		{"", []string{"a", "b", "c"}, ""},
		{"all", []string{"a", "b", "c"}, ""},
		{"a, b", []string{"a", "b"}, ""},
		{"a", []string{"a"}, ""},
		{"a,d", nil, `unknown stage "d" (stages: a, b, c)`},
		{"a,c", nil, `stage "c" needs "b" before it`},
	} {
		got, err := Select(all, tc.names)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Select(%q) error %v, want %q", tc.names, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(Names(got), tc.want) {
			t.Errorf("Select(%q) = %v, %v; want %v", tc.names, Names(got), err, tc.want)
		}
	}
	// A selected stage whose need no earlier stage provides is refused.
	if _, err := Select(all[1:], "b"); err == nil {
		t.Error("Select kept a stage whose need nothing provides")
	}
}
