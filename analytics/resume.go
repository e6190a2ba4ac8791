package analytics

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResumeWriter reopens a run directory (one shard of it) to continue an
// interrupted run. It keeps the part files that landed and read back whole,
// sets aside any that do not (renamed to *.corrupt, their rows to be
// recomputed), removes temporary files a killed writer left, and continues
// numbering after the last part. It returns the rows already written, so
// the caller can skip their modules: resuming yields exactly the rows an
// uninterrupted run would have, none lost and none twice.
func ResumeWriter(runDir, shard string, partRows int) (*Writer, []Row, []string, error) {
	meta, err := readMeta(filepath.Join(runDir, metaFileName(shard)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("resume: %w", err)
	}
	if meta.Complete {
		return nil, nil, nil, fmt.Errorf("resume: run %s is already complete", runDir)
	}
	if partRows <= 0 {
		partRows = DefaultPartRows
	}
	var notes []string
	tmps, _ := filepath.Glob(filepath.Join(runDir, ".*.tmp-*"))
	for _, t := range tmps {
		if err := os.Remove(t); err == nil {
			notes = append(notes, "removed unfinished "+filepath.Base(t))
		}
	}
	w := &Writer{dir: runDir, meta: meta, partRows: partRows}
	w.meta.Parts, w.meta.Rows = nil, 0
	pattern := "part-[0-9]*.parquet"
	if shard != "" {
		pattern = "part-" + shard + "-[0-9]*.parquet"
	}
	parts, err := filepath.Glob(filepath.Join(runDir, pattern))
	if err != nil {
		return nil, nil, nil, err
	}
	var rows []Row
	for _, p := range parts {
		name := filepath.Base(p)
		var seq int
		if _, err := fmt.Sscanf(strings.TrimSuffix(name[strings.LastIndex(name, "-")+1:], ".parquet"), "%d", &seq); err == nil && seq >= w.seq {
			w.seq = seq + 1
		}
		got, err := readPart(p)
		if err != nil {
			if rerr := os.Rename(p, p+".corrupt"); rerr != nil {
				return nil, nil, nil, fmt.Errorf("resume: %s unreadable (%v) and cannot be set aside: %w", name, err, rerr)
			}
			notes = append(notes, fmt.Sprintf("set aside unreadable %s (%v); its rows are recomputed", name, err))
			continue
		}
		rows = append(rows, got...)
		w.meta.Parts = append(w.meta.Parts, PartInfo{File: name, Rows: int64(len(got))})
		w.meta.Rows += int64(len(got))
	}
	w.meta.Interrupted = false
	if err := writeMeta(runDir, w.meta); err != nil {
		return nil, nil, nil, fmt.Errorf("resume: %w", err)
	}
	return w, rows, notes, nil
}

// Meta returns the run metadata the writer holds (as resumed or created).
func (w *Writer) Meta() RunMeta { return w.meta }

// Flush lands the open part, if it holds rows, so that everything written
// so far survives a kill. Runs call it periodically (a checkpoint).
func (w *Writer) Flush() error {
	if w.closed || w.part == nil || w.part.rows == 0 {
		return nil
	}
	return w.landPart()
}
