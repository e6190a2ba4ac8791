package analytics

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeRun writes rows as a complete run and returns its directory.
func writeRun(t testing.TB, out string, meta RunMeta, partRows int, rows []Row) string {
	t.Helper()
	w, err := NewWriterParts(out, meta, partRows)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	meta.Complete = true
	meta.Counts.Modules = int64(len(rows))
	if err := w.Close(meta); err != nil {
		t.Fatal(err)
	}
	return w.Dir()
}

func testMeta(id string) RunMeta {
	return RunMeta{
		RunID: id, Started: testStart, Args: []string{"run", "corpus"}, Host: "test",
		ToolVersion: "test", Stages: StageNames,
		StageVersions: map[string]string{"container": "1"},
		ToolVersions:  map[string]string{"llvm": "19.1.7"},
	}
}

func TestWriterRoundTrip(t *testing.T) {
	out := t.TempDir()
	rows := manyRows(1234)
	dir := writeRun(t, out, testMeta("r1"), 500, rows)

	parts, _ := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	if len(parts) != 3 {
		t.Fatalf("parts: %v, want 3 (500+500+234)", parts)
	}
	meta, got, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Complete || meta.Rows != 1234 || len(meta.Parts) != 3 || meta.SchemaVersion != SchemaVersion {
		t.Fatalf("meta: %+v", meta)
	}
	if len(got) != len(rows) {
		t.Fatalf("rows: %d, want %d", len(got), len(rows))
	}
	for i := range rows {
		want := rows[i]
		want.RunID, want.RunStarted, want.SchemaVersion = "r1", testStart.UnixMilli(), SchemaVersion
		if !reflect.DeepEqual(normal(got[i]), normal(want)) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want)
		}
	}
	// No temporary files are left behind.
	all, _ := os.ReadDir(dir)
	for _, e := range all {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// normal makes nil and empty slices compare equal.
func normal(r Row) Row {
	if len(r.Missing) == 0 {
		r.Missing = nil
	}
	if len(r.Features) == 0 {
		r.Features = nil
	}
	if len(r.Data) == 0 {
		r.Data = nil
	}
	return r
}

func TestWriterKilledRunIsIncomplete(t *testing.T) {
	out := t.TempDir()
	w, err := NewWriterParts(out, testMeta("killed"), 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range manyRows(25) {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	// No Close: the process "dies" here. Two parts landed, the third is a
	// temporary file that readers ignore.
	meta, rows, err := ReadRun(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if meta.Complete || len(rows) != 20 || meta.Rows != 20 {
		t.Fatalf("complete=%v rows=%d meta.rows=%d, want incomplete with 20", meta.Complete, len(rows), meta.Rows)
	}
	runs, err := ReadRuns(out)
	if err != nil || len(runs) != 1 || runs[0].Complete() {
		t.Fatalf("ReadRuns: %v %+v", err, runs)
	}
}

func TestWriterInterrupted(t *testing.T) {
	out := t.TempDir()
	w, err := NewWriter(out, testMeta("int"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(manyRows(1)[0]); err != nil {
		t.Fatal(err)
	}
	m := testMeta("int")
	m.Interrupted = true
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
	meta, rows, err := ReadRun(w.Dir())
	if err != nil || meta.Complete || !meta.Interrupted || len(rows) != 1 || meta.Ended.IsZero() {
		t.Fatalf("%v %+v %d", err, meta, len(rows))
	}
	if err := w.Write(rows[0]); err == nil {
		t.Fatal("write after close accepted")
	}
}

func TestWriterRefusesOverwriteAndBadNames(t *testing.T) {
	out := t.TempDir()
	writeRun(t, out, testMeta("same"), 10, manyRows(3))
	if _, err := NewWriter(out, testMeta("same")); err == nil || !strings.Contains(err.Error(), "never overwritten") {
		t.Fatalf("overwrite: %v", err)
	}
	for _, id := range []string{"", "../x", "a/b", ".hidden"} {
		if _, err := NewWriter(out, testMeta(id)); err == nil {
			t.Errorf("run_id %q accepted", id)
		}
	}
}

func TestReadRunShards(t *testing.T) {
	out := t.TempDir()
	a, b := testMeta("sharded"), testMeta("sharded")
	a.Shard, b.Shard = "hostA", "hostB"
	rows := manyRows(30)
	writeRun(t, out, a, 7, rows[:12])
	w, err := NewWriterParts(out, b, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[12:] {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(b); err != nil { // b.Complete is false
		t.Fatal(err)
	}
	runs, err := ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || len(runs[0].Rows) != 30 || len(runs[0].Shards) != 2 || runs[0].Meta.Rows != 30 {
		t.Fatalf("runs: %d rows=%d shards=%d", len(runs), len(runs[0].Rows), len(runs[0].Shards))
	}
	if runs[0].Complete() {
		t.Fatal("a run with an incomplete shard is complete")
	}
}

func TestReadRunInconsistencies(t *testing.T) {
	out := t.TempDir()
	dir := writeRun(t, out, testMeta("bad"), 5, manyRows(12))

	// A part listed in run.json but gone is an error.
	os.Rename(filepath.Join(dir, "part-00001.parquet"), filepath.Join(out, "moved.parquet"))
	if _, _, err := ReadRun(dir); err == nil || !strings.Contains(err.Error(), "part-00001.parquet, not found") {
		t.Fatalf("missing part: %v", err)
	}
	// A part not listed is read but makes the run incomplete.
	os.Rename(filepath.Join(out, "moved.parquet"), filepath.Join(dir, "part-00001.parquet"))
	b, _ := os.ReadFile(filepath.Join(dir, "part-00002.parquet"))
	os.WriteFile(filepath.Join(dir, "part-00009.parquet"), b, 0o644)
	meta, rows, err := ReadRun(dir)
	if err != nil || meta.Complete || len(rows) != 14 {
		t.Fatalf("unlisted part: %v complete=%v rows=%d", err, meta.Complete, len(rows))
	}
	runs, _ := ReadRuns(out)
	if len(runs[0].Problems) != 1 || !strings.Contains(runs[0].Problems[0], "part-00009.parquet (2 rows) is not listed") {
		t.Fatalf("problems: %v", runs[0].Problems)
	}
	// A part whose row count differs from run.json is an error.
	os.Remove(filepath.Join(dir, "part-00009.parquet"))
	os.WriteFile(filepath.Join(dir, "part-00000.parquet"), b, 0o644)
	if _, _, err := ReadRun(dir); err == nil || !strings.Contains(err.Error(), "holds 2 rows, run.json says 5") {
		t.Fatalf("row count: %v", err)
	}
	// A truncated part is an error naming the file.
	os.WriteFile(filepath.Join(dir, "part-00000.parquet"), b[:len(b)/2], 0o644)
	if _, _, err := ReadRun(dir); err == nil || !strings.Contains(err.Error(), "part-00000.parquet") {
		t.Fatalf("truncated: %v", err)
	}
	// Among other runs, the damaged one is returned as incomplete, without
	// rows, and the good one is still read.
	writeRun(t, out, testMeta("good"), 5, manyRows(3))
	runs, err = ReadRuns(out)
	if err != nil || len(runs) != 2 {
		t.Fatalf("ReadRuns with a damaged run: %v, %d runs", err, len(runs))
	}
	for _, r := range runs {
		switch r.ID() {
		case "bad":
			if r.Complete() || len(r.Rows) != 0 || !strings.Contains(r.Problems[0], "part-00000.parquet") {
				t.Errorf("damaged run: %+v", r.Problems)
			}
		case "good":
			if !r.Complete() || len(r.Rows) != 3 {
				t.Errorf("good run: %d rows", len(r.Rows))
			}
		}
	}
}

func TestCountsCheck(t *testing.T) {
	c := Counts{FilesSeen: 10, LibrariesParsed: 6, FilesRefused: 3, FilesNotLibraries: 1,
		RefusedReasons: map[string]int64{"truncated": 2, "zero-byte": 1}}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	c.FilesSeen = 11
	if err := c.Check(); err == nil {
		t.Fatal("files_seen mismatch accepted")
	}
	c.FilesSeen = 10
	c.RefusedReasons["truncated"] = 1
	if err := c.Check(); err == nil {
		t.Fatal("refused_reasons mismatch accepted")
	}
}

func BenchmarkWrite16841(b *testing.B) {
	rows := manyRows(16841)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		out := b.TempDir()
		w, err := NewWriter(out, testMeta("bench"))
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rows {
			if err := w.Write(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(testMeta("bench")); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(16841*b.N)/b.Elapsed().Seconds(), "rows/s")
}

func TestWriterFileModes(t *testing.T) {
	dir := writeRun(t, t.TempDir(), testMeta("modes"), 10, manyRows(3))
	for _, name := range []string{"run.json", "part-00000.parquet"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", name, st.Mode().Perm())
		}
	}
}
