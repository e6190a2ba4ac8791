package analytics

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/parquet-go/parquet-go"
)

// DefaultPartRows is how many rows a part file holds before the writer
// starts the next one.
const DefaultPartRows = 50_000

// validName is what a run ID or shard name may look like: it becomes a
// directory or file name.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// Writer writes one run (or one shard of a run) as
// OUT/<run_id>/part-NNNNN.parquet (part-<shard>-NNNNN.parquet for a named
// shard) plus run.json (run-<shard>.json). Every file is written under a
// temporary name and renamed when complete, so a reader never sees a torn
// file. run.json is written at the start with complete=false and rewritten
// each time a part lands, so a killed run is visibly incomplete.
//
// A Writer is not safe for concurrent use: one goroutine owns it.
type Writer struct {
	dir      string
	meta     RunMeta
	partRows int
	part     *partFile
	seq      int
	closed   bool
}

// partFile is the part being written: its temporary file and the Parquet
// writer over it.
type partFile struct {
	tmp  *os.File
	name string
	pw   *parquet.GenericWriter[fileRow]
	rows int64
}

// NewWriter creates OUT/<meta.RunID> and writes its first run.json
// (complete false). It refuses a run directory that already holds this
// shard's metadata: a run is never overwritten.
func NewWriter(outDir string, meta RunMeta) (*Writer, error) {
	return NewWriterParts(outDir, meta, DefaultPartRows)
}

// NewWriterParts is NewWriter with the number of rows per part file.
func NewWriterParts(outDir string, meta RunMeta, partRows int) (*Writer, error) {
	if !validName.MatchString(meta.RunID) {
		return nil, fmt.Errorf("results writer: run_id %q is not a valid directory name", meta.RunID)
	}
	if meta.Shard != "" && !validName.MatchString(meta.Shard) {
		return nil, fmt.Errorf("results writer: shard %q is not a valid file name", meta.Shard)
	}
	if partRows <= 0 {
		return nil, fmt.Errorf("results writer: rows per part must be positive, got %d", partRows)
	}
	dir := filepath.Join(outDir, meta.RunID)
	metaPath := filepath.Join(dir, metaFileName(meta.Shard))
	if _, err := os.Stat(metaPath); err == nil {
		return nil, fmt.Errorf("results writer: %s already exists; a run is never overwritten", metaPath)
	}
	if meta.Started.IsZero() {
		meta.Started = time.Now().UTC()
	}
	meta.SchemaVersion = SchemaVersion
	meta.Complete = false
	meta.Parts = nil
	meta.Rows = 0
	w := &Writer{dir: dir, meta: meta, partRows: partRows}
	if err := startRunDir(outDir, dir, w.meta); err != nil {
		return nil, fmt.Errorf("results writer: %w", err)
	}
	return w, nil
}

// Dir returns the run directory the writer writes into.
func (w *Writer) Dir() string { return w.dir }

// Write appends one row. The writer sets the row's run_id, run_started and
// schema_version from the run's metadata. Its data entries must be
// "key=value" with distinct keys (the file stores them as a map).
func (w *Writer) Write(r Row) error {
	if w.closed {
		return errors.New("results writer: write after close")
	}
	if w.part == nil {
		if err := w.openPart(); err != nil {
			return err
		}
	}
	r.RunID = w.meta.RunID
	r.RunStarted = w.meta.Started.UnixMilli()
	r.SchemaVersion = SchemaVersion
	validUTF8(&r)
	fr, err := toFileRow(r)
	if err != nil {
		return fmt.Errorf("results writer: %s row %d (%s %s): %w", w.part.name, w.part.rows, r.Source, r.Function, err)
	}
	if _, err := w.part.pw.Write([]fileRow{fr}); err != nil {
		return fmt.Errorf("results writer: %s row %d: %w", w.part.name, w.part.rows, err)
	}
	w.part.rows++
	if w.part.rows >= int64(w.partRows) {
		return w.landPart()
	}
	return nil
}

// Close lands the open part and writes the final run.json from meta. The
// caller sets meta.Complete, Interrupted, Counts and Ended (Ended defaults to
// now); run_id, shard, started, schema_version, parts and rows stay the
// writer's. Close after Close is an error.
func (w *Writer) Close(meta RunMeta) error {
	if w.closed {
		return errors.New("results writer: close after close")
	}
	w.closed = true
	var landErr error
	if w.part != nil {
		landErr = w.landPart()
	}
	meta.RunID = w.meta.RunID
	meta.Shard = w.meta.Shard
	meta.Started = w.meta.Started
	meta.SchemaVersion = SchemaVersion
	meta.Parts = w.meta.Parts
	meta.Rows = w.meta.Rows
	if meta.Ended.IsZero() {
		meta.Ended = time.Now().UTC()
	}
	if landErr != nil {
		meta.Complete = false
	}
	w.meta = meta
	if err := writeMeta(w.dir, meta); err != nil {
		return errors.Join(landErr, fmt.Errorf("results writer: %w", err))
	}
	return landErr
}

// partName is the file name of part number seq.
func (w *Writer) partName(seq int) string {
	if w.meta.Shard == "" {
		return fmt.Sprintf("part-%05d.parquet", seq)
	}
	return fmt.Sprintf("part-%s-%05d.parquet", w.meta.Shard, seq)
}

// openPart starts the next part under a temporary name.
func (w *Writer) openPart() error {
	name := w.partName(w.seq)
	f, err := os.CreateTemp(w.dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("results writer: %w", err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("results writer: %w", err)
	}
	pw := parquet.NewGenericWriter[fileRow](f,
		parquet.Compression(&parquet.Zstd),
		parquet.CreatedBy("airpipe", fmt.Sprint(SchemaVersion), ""),
	)
	w.part = &partFile{tmp: f, name: name, pw: pw}
	w.seq++
	return nil
}

// landPart finishes the open part, renames it to its final name and
// rewrites run.json to list it.
func (w *Writer) landPart() error {
	p := w.part
	w.part = nil
	tmp := p.tmp.Name()
	fail := func(err error) error {
		p.tmp.Close()
		os.Remove(tmp)
		return fmt.Errorf("results writer: %s: %w", p.name, err)
	}
	if err := p.pw.Close(); err != nil {
		return fail(err)
	}
	if err := p.tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := p.tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, filepath.Join(w.dir, p.name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("results writer: %s: %w", p.name, err)
	}
	w.meta.Parts = append(w.meta.Parts, PartInfo{File: p.name, Rows: p.rows})
	w.meta.Rows += p.rows
	if err := writeMeta(w.dir, w.meta); err != nil {
		return fmt.Errorf("results writer: %w", err)
	}
	return nil
}

// startRunDir makes the run directory with its first run.json in one step:
// a new directory is prepared under a temporary name and renamed, so a run
// killed while starting leaves no run directory without metadata. Another
// shard's directory that already exists just gets this shard's file.
func startRunDir(outDir, dir string, meta RunMeta) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		return writeMeta(dir, meta)
	}
	tmp, err := os.MkdirTemp(outDir, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := writeMeta(tmp, meta); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another shard made the directory first.
		os.RemoveAll(tmp)
		if _, serr := os.Stat(dir); serr != nil {
			return err
		}
		return writeMeta(dir, meta)
	}
	return nil
}
