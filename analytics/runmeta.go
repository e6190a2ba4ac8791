package analytics

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// RunMeta is the content of a run's run.json (or run-<shard>.json when the
// run is written by several machines). It is written when the run starts
// (Complete false), rewritten each time a part file lands, and written a
// last time by Writer.Close.
type RunMeta struct {
	SchemaVersion int       `json:"schema_version"`
	RunID         string    `json:"run_id"`
	Shard         string    `json:"shard,omitempty"`
	Started       time.Time `json:"started"`
	Ended         time.Time `json:"ended,omitzero"`
	Args          []string  `json:"args"`
	// Roots are the paths the run walked, as typed (absent in runs
	// written before they were recorded); diff shows sources relative to them.
	Roots       []string `json:"roots,omitempty"`
	Host        string   `json:"host"`
	ToolVersion string   `json:"tool_version"`
	// Build identifies the airpipe binary that wrote the run (absent in
	// runs written before it was recorded).
	Build Build `json:"build,omitzero"`
	// Stages lists the stages of this run's pipeline, in order. A stage
	// not listed is absent from the run (its status column is "").
	Stages        []string          `json:"stages,omitempty"`
	StageVersions map[string]string `json:"stage_versions"`
	ToolVersions  map[string]string `json:"tool_versions"`
	// Complete is set by the caller when every input was processed.
	Complete bool `json:"complete"`
	// Interrupted is set when the run was stopped (Ctrl-C, a signal).
	Interrupted bool   `json:"interrupted"`
	Counts      Counts `json:"counts"`
	// Parts lists the part files that have landed, with their row counts.
	// The writer maintains it; a caller's value is ignored.
	Parts []PartInfo `json:"parts"`
	// Rows is the sum of Parts' rows. The writer maintains it.
	Rows int64 `json:"rows"`
}

// Counts accounts for every file a run saw, so that
// FilesSeen == LibrariesParsed + FilesRefused + FilesNotLibraries holds.
type Counts struct {
	FilesSeen         int64 `json:"files_seen"`
	LibrariesParsed   int64 `json:"libraries_parsed"`
	FilesRefused      int64 `json:"files_refused"`
	FilesNotLibraries int64 `json:"files_not_libraries"`
	// RefusedReasons counts refused files by reason; its values add up to
	// FilesRefused.
	RefusedReasons map[string]int64 `json:"refused_reasons"`
	// Modules is the number of module rows the pipeline produced.
	Modules int64 `json:"modules"`
	// ModulesNotSelected counts the modules of the libraries read that a
	// selection (run --only-failed, --library, --function) left out: they
	// have no row.
	ModulesNotSelected int64 `json:"modules_not_selected,omitempty"`
	// CacheEntriesRefused counts stage-cache and reference-cache entries
	// refused as damaged (a link, a FIFO, oversized, a checksum mismatch):
	// each was a miss and recomputed, never a result.
	CacheEntriesRefused int64 `json:"cache_entries_refused"`
}

// PartInfo is one landed part file of a run.
type PartInfo struct {
	File string `json:"file"`
	Rows int64  `json:"rows"`
}

// Check reports whether the file counts add up: files seen equals
// libraries parsed plus files refused plus files that are not libraries,
// and the refusal reasons add up to the files refused.
func (c Counts) Check() error {
	if sum := c.LibrariesParsed + c.FilesRefused + c.FilesNotLibraries; sum != c.FilesSeen {
		return fmt.Errorf("run.json counts: files_seen %d != libraries_parsed %d + files_refused %d + files_not_libraries %d (= %d)",
			c.FilesSeen, c.LibrariesParsed, c.FilesRefused, c.FilesNotLibraries, sum)
	}
	var reasons int64
	for _, n := range c.RefusedReasons {
		reasons += n
	}
	if reasons != c.FilesRefused {
		return fmt.Errorf("run.json counts: refused_reasons add up to %d, files_refused is %d", reasons, c.FilesRefused)
	}
	return nil
}

// metaFileName is the metadata file of a shard: run.json for the unnamed
// shard, run-<shard>.json otherwise.
func metaFileName(shard string) string {
	if shard == "" {
		return "run.json"
	}
	return "run-" + shard + ".json"
}

// writeMeta writes meta to dir atomically (temporary name, then rename).
func writeMeta(dir string, meta RunMeta) error {
	b, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return fmt.Errorf("run.json: %w", err)
	}
	b = append(b, '\n')
	return writeFileAtomic(filepath.Join(dir, metaFileName(meta.Shard)), b)
}

// readMeta reads one run.json or run-<shard>.json.
func readMeta(path string) (RunMeta, error) {
	var m RunMeta
	b, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// writeFileAtomic writes b to a temporary file beside path (mode 0644),
// syncs it and renames it over path, so readers see the old or the new file, never a
// torn one.
func writeFileAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// mergeMeta combines the shards of one run into one RunMeta: counts and
// rows are summed, the run is complete only if every shard is, started is
// the earliest and ended the latest.
func mergeMeta(shards []RunMeta) RunMeta {
	if len(shards) == 0 {
		return RunMeta{}
	}
	sort.Slice(shards, func(i, j int) bool { return shards[i].Shard < shards[j].Shard })
	m := shards[0]
	m.Shard = ""
	m.Parts = append([]PartInfo(nil), shards[0].Parts...)
	m.Counts.RefusedReasons = map[string]int64{}
	for k, v := range shards[0].Counts.RefusedReasons {
		m.Counts.RefusedReasons[k] = v
	}
	for _, s := range shards[1:] {
		if s.Started.Before(m.Started) {
			m.Started = s.Started
		}
		if s.Ended.After(m.Ended) {
			m.Ended = s.Ended
		}
		m.Complete = m.Complete && s.Complete
		m.Interrupted = m.Interrupted || s.Interrupted
		m.Counts.FilesSeen += s.Counts.FilesSeen
		m.Counts.LibrariesParsed += s.Counts.LibrariesParsed
		m.Counts.FilesRefused += s.Counts.FilesRefused
		m.Counts.FilesNotLibraries += s.Counts.FilesNotLibraries
		m.Counts.Modules += s.Counts.Modules
		m.Counts.CacheEntriesRefused += s.Counts.CacheEntriesRefused
		for k, v := range s.Counts.RefusedReasons {
			m.Counts.RefusedReasons[k] += v
		}
		m.Parts = append(m.Parts, s.Parts...)
		m.Rows += s.Rows
		if len(s.Stages) > len(m.Stages) {
			m.Stages = s.Stages
		}
	}
	return m
}
