package main

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/stages"
)

// selection is the subset of modules a run carries through its stages
// (--only-failed, --library, --function); the zero selection keeps every
// module. A module it drops gets no row; run.json counts the drops.
type selection struct {
	library  string
	function *regexp.Regexp
	// failed holds the failures of --only-failed's run, keyed by content;
	// nil keeps modules whether or not they failed.
	failed map[analytics.BaselineKey]bool
}

// newSelection builds the selection from the run's options. onlyFailed must
// already name one run directory (resolveOnlyFailed).
func newSelection(o runOptions) (selection, error) {
	var s selection
	if o.library != "" {
		if _, err := filepath.Match(o.library, ""); err != nil {
			return s, fmt.Errorf("--library %q: %v", o.library, err)
		}
		s.library = o.library
	}
	if o.function != "" {
		re, err := regexp.Compile(o.function)
		if err != nil {
			return s, fmt.Errorf("--function %q: %v", o.function, err)
		}
		s.function = re
	}
	if o.onlyFailed != "" {
		run, _, err := analytics.ChooseRun(o.onlyFailed)
		if err != nil {
			return s, fmt.Errorf("--only-failed: %w", err)
		}
		entries, err := analytics.BaselineOf(run)
		if err != nil {
			return s, fmt.Errorf("--only-failed: %w", err)
		}
		s.failed = make(map[analytics.BaselineKey]bool, len(entries))
		for _, e := range entries {
			s.failed[e.BaselineKey] = true
		}
	}
	return s, nil
}

// all reports whether the selection keeps every module.
func (s selection) all() bool { return s.library == "" && s.function == nil && s.failed == nil }

// keep reports whether the run carries module m. --library matches the
// library's provenance path (as the rows' source shows it) or its base
// name; --function matches the function's name anywhere (a row that stands
// for a library failing as a whole has the name ""); --only-failed keeps
// the modules that failed in that run, by library SHA-256 and function.
func (s selection) keep(m *stages.Module) bool {
	if s.library != "" {
		whole, _ := filepath.Match(s.library, m.Library.Source)
		base, _ := filepath.Match(s.library, filepath.Base(m.Library.Source))
		if !whole && !base {
			return false
		}
	}
	name := ""
	if m.Function != nil {
		name = m.Function.Name
	}
	if s.function != nil && !s.function.MatchString(name) {
		return false
	}
	if s.failed != nil && !s.failed[analytics.BaselineKey{LibrarySHA256: m.Library.SHA256, Function: name}] {
		return false
	}
	return true
}

// resolveOnlyFailed fixes --only-failed to one run directory before the run
// starts (a results directory's latest complete run could otherwise become
// this run itself on --resume), says on stderr which run was chosen, and
// returns the roots to walk: the given ones, or the previous run's when
// none is given. The returned arguments are the ones run.json records.
func resolveOnlyFailed(o *runOptions, args, roots []string, stderr io.Writer) ([]string, []string, error) {
	if o.onlyFailed == "" {
		return args, roots, nil
	}
	run, choice, err := analytics.ChooseRun(o.onlyFailed)
	if err != nil {
		return nil, nil, fmt.Errorf("--only-failed: %w", err)
	}
	if choice != nil {
		fmt.Fprintf(stderr, "airpipe run: --only-failed: %s\n", choice)
	}
	dir, err := filepath.Abs(run.Dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--only-failed: %w", err)
	}
	o.onlyFailed = dir
	args = append(args, "--only-failed="+dir)
	if len(roots) == 0 {
		if len(run.Meta.Roots) == 0 {
			return nil, nil, fmt.Errorf("--only-failed: run %s records no roots; give the PATHs to walk", run.ID())
		}
		roots = run.Meta.Roots
		args = append(args, roots...)
	}
	return args, roots, nil
}
