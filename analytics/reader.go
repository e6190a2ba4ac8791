package analytics

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Run is one run directory as read back: its metadata (shards merged), its
// rows, and anything found wrong with it.
type Run struct {
	// Dir is the run directory.
	Dir string
	// Meta is the run's metadata, the shards' run*.json merged.
	Meta RunMeta
	// Shards holds each shard's own metadata, sorted by shard name.
	Shards []RunMeta
	// Rows holds every row of every part file.
	Rows []Row
	// Problems names what is inconsistent in the directory: a part file
	// that run.json does not list, a run without run.json. A run with
	// problems is incomplete.
	Problems []string
}

// Complete reports whether every shard said it completed and nothing is
// inconsistent.
func (r *Run) Complete() bool { return r.Meta.Complete && len(r.Problems) == 0 }

// ID returns the run ID (the directory name when run.json is missing).
func (r *Run) ID() string {
	if r.Meta.RunID != "" {
		return r.Meta.RunID
	}
	return filepath.Base(r.Dir)
}

// ReadRun reads one run directory: its run.json (and run-<shard>.json of
// other shards, merged) and every part file. A part listed in run.json that
// is missing or holds another number of rows is an error; a part present
// but not listed (a run killed between the two writes) is read, and the
// returned metadata is marked incomplete.
func ReadRun(dir string) (RunMeta, []Row, error) {
	r, err := readRunDir(dir)
	if err != nil {
		return RunMeta{}, nil, err
	}
	if len(r.Shards) == 0 {
		return RunMeta{}, nil, fmt.Errorf("run %s: no run.json", dir)
	}
	if len(r.Problems) > 0 {
		r.Meta.Complete = false
	}
	return r.Meta, r.Rows, nil
}

// ReadRuns reads every run directory directly under resultsDir, sorted by
// start time then run ID. A directory holding neither run*.json nor
// part-*.parquet is not a run and is passed over; a run with problems is
// returned with Problems set (and so is incomplete), never dropped. A run
// that cannot be read at all (a listed part missing, a damaged part) is
// returned without rows, with the error as its problem.
func ReadRuns(resultsDir string) ([]Run, error) {
	entries, err := os.ReadDir(resultsDir)
	if err != nil {
		return nil, fmt.Errorf("results %s: %w", resultsDir, err)
	}
	var runs []Run
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(resultsDir, e.Name())
		r, err := readRunDir(dir)
		if err != nil {
			// One damaged run does not hide the others: it is returned
			// without rows, its error as its problem (so incomplete).
			r = &Run{Dir: dir, Meta: RunMeta{RunID: e.Name()}, Problems: []string{err.Error()}}
		}
		if len(r.Shards) == 0 && len(r.Rows) == 0 && len(r.Problems) == 0 {
			continue
		}
		runs = append(runs, *r)
	}
	SortRuns(runs)
	return runs, nil
}

// SortRuns orders runs by start time, then run ID.
func SortRuns(runs []Run) {
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i].Meta.Started, runs[j].Meta.Started
		if !a.Equal(b) {
			return a.Before(b)
		}
		return runs[i].ID() < runs[j].ID()
	})
}

// readRunDir reads whatever a run directory holds and records problems.
func readRunDir(dir string) (*Run, error) {
	r := &Run{Dir: dir}
	metas, err := filepath.Glob(filepath.Join(dir, "run*.json"))
	if err != nil {
		return nil, err
	}
	listed := map[string]int64{}
	for _, p := range metas {
		m, err := readMeta(p)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", dir, err)
		}
		if want := metaFileName(m.Shard); want != filepath.Base(p) {
			return nil, fmt.Errorf("run %s: %s names shard %q (expected file %s)", dir, filepath.Base(p), m.Shard, want)
		}
		if m.SchemaVersion > SchemaVersion {
			return nil, fmt.Errorf("run %s: %s has schema_version %d, this airpipe reads up to %d", dir, filepath.Base(p), m.SchemaVersion, SchemaVersion)
		}
		for _, part := range m.Parts {
			listed[part.File] = part.Rows
		}
		r.Shards = append(r.Shards, m)
	}
	r.Meta = mergeMeta(r.Shards)
	if len(r.Shards) == 0 {
		r.Meta.RunID = filepath.Base(dir)
	}
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	if err != nil {
		return nil, err
	}
	sort.Strings(parts)
	if len(r.Shards) == 0 {
		if len(parts) == 0 {
			return r, nil
		}
		r.Problems = append(r.Problems, "no run.json: the run never started properly or its metadata was lost")
	}
	seen := map[string]bool{}
	for _, p := range parts {
		name := filepath.Base(p)
		seen[name] = true
		rows, err := readPart(p)
		if err != nil {
			return nil, fmt.Errorf("run %s: %s: %w", dir, name, err)
		}
		want, ok := listed[name]
		switch {
		case !ok && len(r.Shards) > 0:
			r.Problems = append(r.Problems, fmt.Sprintf("%s (%d rows) is not listed in run.json", name, len(rows)))
		case ok && want != int64(len(rows)):
			return nil, fmt.Errorf("run %s: %s holds %d rows, run.json says %d", dir, name, len(rows), want)
		}
		for i := range rows {
			if rows[i].RunID != r.Meta.RunID {
				return nil, fmt.Errorf("run %s: %s row %d has run_id %q, the run is %q", dir, name, i, rows[i].RunID, r.Meta.RunID)
			}
		}
		r.Rows = append(r.Rows, rows...)
	}
	var missing []string
	for name := range listed {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("run %s: run.json lists %s, not found", dir, strings.Join(missing, ", "))
	}
	return r, nil
}

// IsRunDir reports whether dir holds a run: a run*.json or a part file.
func IsRunDir(dir string) bool {
	for _, pat := range []string{"run*.json", "part-*.parquet"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return true
		}
	}
	return false
}

// OpenRun reads the run at path. path is a run directory, or a results
// directory, in which case its latest complete run is read (latest reports
// which: "" when path was a run directory). ChooseRun also says which runs
// were passed over.
func OpenRun(path string) (run *Run, latest string, err error) {
	run, c, err := ChooseRun(path)
	if err != nil || c == nil {
		return run, "", err
	}
	return run, c.Chosen, nil
}

// Choice says how a run was chosen from a results directory: the run read
// and every newer run passed over, with why.
type Choice struct {
	// Dir is the results directory.
	Dir string
	// Chosen is the ID of the run read.
	Chosen string
	// Skipped lists the runs newer than Chosen, newest first.
	Skipped []SkippedRun
}

// SkippedRun is a run passed over when choosing from a results directory.
type SkippedRun struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// String says in one line which run was chosen and which were skipped.
func (c *Choice) String() string {
	s := fmt.Sprintf("%s is a results directory; using its latest complete run %s", c.Dir, c.Chosen)
	if len(c.Skipped) == 0 {
		return s
	}
	var parts []string
	for _, k := range c.Skipped {
		parts = append(parts, k.ID+" ("+k.Reason+")")
	}
	return s + fmt.Sprintf("; skipped %d newer: %s", len(c.Skipped), strings.Join(parts, "; "))
}

// ChooseRun reads the run at path: a run directory (the Choice is nil), or
// a results directory, whose latest complete run is read and whose newer
// runs are named in the Choice with the reason each was passed over. A
// results directory without a complete run is an error naming its runs.
func ChooseRun(path string) (*Run, *Choice, error) {
	if IsRunDir(path) {
		r, err := readRunDir(path)
		if err != nil {
			return nil, nil, err
		}
		return r, nil, nil
	}
	runs, err := ReadRuns(path)
	if err != nil {
		return nil, nil, err
	}
	c := &Choice{Dir: path}
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Complete() {
			c.Chosen = runs[i].ID()
			return &runs[i], c, nil
		}
		c.Skipped = append(c.Skipped, SkippedRun{ID: runs[i].ID(), Reason: IncompleteReason(&runs[i])})
	}
	if len(c.Skipped) == 0 {
		return nil, nil, fmt.Errorf("%s: neither a run directory nor a results directory with a run", path)
	}
	var names []string
	for _, k := range c.Skipped {
		names = append(names, k.ID+" ("+k.Reason+")")
	}
	return nil, nil, fmt.Errorf("%s: no complete run among its %d: %s", path, len(runs), strings.Join(names, "; "))
}

// IncompleteReason says why a run is not complete ("" when it is).
func IncompleteReason(r *Run) string {
	switch {
	case len(r.Problems) > 0:
		return "damaged: " + strings.Join(r.Problems, "; ")
	case r.Meta.Interrupted:
		return "interrupted"
	case !r.Meta.Complete:
		var open []string
		for _, m := range r.Shards {
			if !m.Complete {
				open = append(open, m.Shard)
			}
		}
		if len(r.Shards) > 1 && len(open) > 0 {
			return "shards not complete: " + strings.Join(open, ", ")
		}
		return "not complete: still running, killed, or it found no library"
	}
	return ""
}
