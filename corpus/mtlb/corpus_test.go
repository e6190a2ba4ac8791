package mtlb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// corpusEntry is one MANIFEST.tsv row.
type corpusEntry struct {
	path      string
	functions int
	platform  string // "0x8001"
	format    string // "2.7"
	bytes     string
}

// corpusDir returns $AIRPIPE_CORPUS or skips the test.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("AIRPIPE_CORPUS")
	if dir == "" {
		tb.Skip("AIRPIPE_CORPUS is not set: the real metallib corpus is not available")
	}
	return dir
}

// readManifest reads MANIFEST.tsv's file and function_count columns.
func readManifest(tb testing.TB, dir string) []corpusEntry {
	tb.Helper()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var out []corpusEntry
	col := map[string]int{}
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(col) == 0 {
			for i, c := range cols {
				col[c] = i
			}
			for _, c := range []string{"file", "function_count", "platform_u16_hex", "format_version", "bytes"} {
				if _, ok := col[c]; !ok {
					tb.Fatalf("MANIFEST.tsv header lacks %s: %q", c, cols)
				}
			}
			continue
		}
		if len(cols) < len(col) {
			tb.Fatalf("MANIFEST.tsv row %q has %d columns, want %d", cols, len(cols), len(col))
		}
		fileCol, countCol := col["file"], col["function_count"]
		n, err := strconv.Atoi(cols[countCol])
		if err != nil {
			tb.Fatalf("MANIFEST.tsv row %q: %v", cols[fileCol], err)
		}
		out = append(out, corpusEntry{path: filepath.Join(dir, cols[fileCol]), functions: n,
			platform: cols[col["platform_u16_hex"]], format: cols[col["format_version"]], bytes: cols[col["bytes"]]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	entries := readManifest(t, dir)
	total := 0
	unknown := map[string]int{}
	stats := map[string]int{}
	for _, e := range entries {
		data, err := os.ReadFile(e.path)
		if err != nil {
			t.Fatal(err)
		}
		if !ValidHeader(data) {
			t.Errorf("%s: ValidHeader false", e.path)
		}
		lib, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", e.path, err)
			continue
		}
		for _, u := range lib.Unknown {
			unknown[u]++
		}
		if got := fmt.Sprintf("0x%04x", lib.Platform); got != e.platform {
			t.Errorf("%s: platform %s, manifest says %s", e.path, got, e.platform)
		}
		if got := fmt.Sprintf("%d.%d", lib.FormatMajor, lib.FormatMinor); got != e.format {
			t.Errorf("%s: format %s, manifest says %s", e.path, got, e.format)
		}
		if got := strconv.FormatUint(lib.FileSize, 10); got != e.bytes || lib.TrailingBytes != 0 {
			t.Errorf("%s: file size %s (trailing %d), manifest says %s bytes", e.path, got, lib.TrailingBytes, e.bytes)
		}
		if err := lib.WriteText(io.Discard); err != nil {
			t.Error(err)
		}
		if _, err := json.Marshal(lib); err != nil {
			t.Errorf("%s: JSON: %v", e.path, err)
		}
		if len(lib.Functions) != e.functions {
			t.Errorf("%s: %d functions, manifest says %d", e.path, len(lib.Functions), e.functions)
		}
		total += len(lib.Functions)
		stats[fmt.Sprintf("extension=%v", lib.Extension != nil)]++
		for i := range lib.Functions {
			f := &lib.Functions[i]
			stats[fmt.Sprintf("air=%d.%d", f.AIRMajor, f.AIRMinor)]++
			stats["type="+f.TypeName()]++
			stats[fmt.Sprintf("mdsz=%v", f.HasMDSZ)]++
			if f.Problem != nil {
				t.Errorf("%s: %v", e.path, f.Problem)
				continue
			}
			if !bytes.HasPrefix(f.Bitcode, []byte{0xDE, 0xC0, 0x17, 0x0B}) {
				t.Errorf("%s: function %q bitcode does not start with the wrapper magic", e.path, f.Name)
			}
			if !f.HashMatches() {
				t.Errorf("%s: function %q: SHA-256 of bitcode differs from HASH", e.path, f.Name)
			}
			if _, err := f.RawBitcode(); err != nil {
				t.Errorf("%s: %v", e.path, err)
			}
		}
		if lib.Source != nil {
			for _, a := range lib.Source.Archives {
				if a.Problem != "" || len(a.Entries) == 0 {
					t.Errorf("%s: source archive %q: %d entries, problem %q", e.path, a.ID, len(a.Entries), a.Problem)
				}
			}
		}
	}
	if want := manifestFunctions(entries); total != want {
		t.Errorf("corpus holds %d functions, MANIFEST.tsv lists %d", total, want)
	}
	t.Logf("%d libraries, %d functions; undocumented features (libraries): %v", len(entries), total, unknown)
	t.Logf("counts: %v", stats)
}

// manifestFunctions sums MANIFEST.tsv's function_count column.
func manifestFunctions(entries []corpusEntry) int {
	n := 0
	for _, e := range entries {
		n += e.functions
	}
	return n
}

// TestCorpusManifestComplete checks that MANIFEST.tsv lists exactly the
// .metallib files the corpus holds, so the per-library checks above see
// every library.
func TestCorpusManifestComplete(t *testing.T) {
	dir := corpusDir(t)
	listed := map[string]bool{}
	for _, e := range readManifest(t, dir) {
		listed[e.path] = true
	}
	found := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".metallib") {
			return err
		}
		found++
		if !listed[p] {
			t.Errorf("%s is not in MANIFEST.tsv", p)
		}
		delete(listed, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range listed {
		t.Errorf("MANIFEST.tsv lists %s, which is not in the corpus", p)
	}
	t.Logf("%d libraries on disk, all listed", found)
}
