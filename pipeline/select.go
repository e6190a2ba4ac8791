package pipeline

import (
	"fmt"
	"strings"
)

// Select keeps the stages named in names (comma-separated names, or "all").
// Stages depend on the ones before them, so the selection must be a prefix
// of the list; a name not in the list is an error naming it, and so is a
// selected stage whose Needs no stage before it provides (CheckNeeds).
func Select[T any](all []Stage[T], names string) ([]Stage[T], error) {
	out, err := selectPrefix(all, names)
	if err != nil {
		return nil, err
	}
	if err := CheckNeeds(out); err != nil {
		return nil, err
	}
	return out, nil
}

func selectPrefix[T any](all []Stage[T], names string) ([]Stage[T], error) {
	if names == "" || names == "all" {
		return all, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, s := range all {
			found = found || s.Name == n
		}
		if !found {
			return nil, fmt.Errorf("unknown stage %q (stages: %s)", n, strings.Join(Names(all), ", "))
		}
		want[n] = true
	}
	var out []Stage[T]
	for i, s := range all {
		if !want[s.Name] {
			for _, later := range all[i+1:] {
				if want[later.Name] {
					return nil, fmt.Errorf("stage %q needs %q before it: --stages must name a prefix of %s", later.Name, s.Name, strings.Join(Names(all), ","))
				}
			}
			break
		}
		out = append(out, s)
	}
	return out, nil
}

// Names lists the stages' names in order.
func Names[T any](list []Stage[T]) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Name
	}
	return out
}
