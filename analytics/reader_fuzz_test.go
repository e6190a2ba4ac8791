package analytics

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadPart feeds damaged part files to the run reader: it must return
// rows or an error naming the file, never panic.
func FuzzReadPart(f *testing.F) {
	out := f.TempDir()
	dir := writeRun(f, out, testMeta("seed"), 100, manyRows(8))
	seed, err := os.ReadFile(filepath.Join(dir, "part-00000.parquet"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "part-00000.parquet"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		readPart(filepath.Join(d, "part-00000.parquet"))
	})
}

// TestReadPartSurvivesDamage flips bytes of a valid part file 300 times
// (seeded): parquet-go panics on some of these files, and the reader must
// turn every such panic into an error.
func TestReadPartSurvivesDamage(t *testing.T) {
	dir := writeRun(t, t.TempDir(), testMeta("seed"), 100, manyRows(8))
	seed, err := os.ReadFile(filepath.Join(dir, "part-00000.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	p := filepath.Join(t.TempDir(), "part-00000.parquet")
	damaged := 0
	for range 300 {
		b := append([]byte(nil), seed...)
		for range 3 {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readPart(p); err != nil && strings.HasPrefix(err.Error(), "damaged Parquet file") {
			damaged++
		}
	}
	t.Logf("%d of 300 damaged files made parquet-go panic; each became an error", damaged)
}
