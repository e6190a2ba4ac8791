package mtlb

import (
	"bufio"
	"bytes"
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
	fileCol, countCol := -1, -1
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if fileCol < 0 {
			for i, c := range cols {
				switch c {
				case "file":
					fileCol = i
				case "function_count":
					countCol = i
				}
			}
			if fileCol < 0 || countCol < 0 {
				tb.Fatalf("MANIFEST.tsv header lacks file/function_count: %q", cols)
			}
			continue
		}
		n, err := strconv.Atoi(cols[countCol])
		if err != nil {
			tb.Fatalf("MANIFEST.tsv row %q: %v", cols[fileCol], err)
		}
		out = append(out, corpusEntry{path: filepath.Join(dir, cols[fileCol]), functions: n})
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
		if len(lib.Functions) != e.functions {
			t.Errorf("%s: %d functions, manifest says %d", e.path, len(lib.Functions), e.functions)
		}
		total += len(lib.Functions)
		for i := range lib.Functions {
			f := &lib.Functions[i]
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
	if total != 1182 {
		t.Errorf("corpus holds %d functions, want 1182", total)
	}
	t.Logf("%d libraries, %d functions; undocumented features (libraries): %v", len(entries), total, unknown)
}
