package corpus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWalk(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(os.WriteFile(filepath.Join(root, "a", "one"), []byte("1"), 0o644))
	must(os.WriteFile(filepath.Join(root, "a", "b", "two"), []byte("22"), 0o644))
	must(os.WriteFile(filepath.Join(root, "empty"), nil, 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
	must(os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "a", "b", "loop")))    // directory loop
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape")))    // leaves the roots
	must(os.Symlink(filepath.Join(root, "a", "one"), filepath.Join(root, "inner-link"))) // stays inside
	must(os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "broken")))      // broken

	got := map[string]string{}
	err := Walk(context.Background(), []string{root}, func(e Entry) error {
		rel, _ := filepath.Rel(root, e.Path)
		if e.Refused != "" {
			got[rel] = "refused: " + e.Refused
		} else {
			got[rel] = "file"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a/one":      "file",
		"a/b/two":    "file",
		"empty":      "file",
		"inner-link": "file",
		"a/b/loop":   "refused: " + RefusedLoop,
		"escape":     "refused: " + RefusedOutsideRoots,
		"broken":     "refused: " + RefusedBrokenLink,
	}
	if len(got) != len(want) {
		t.Errorf("got %d entries %v, want %d", len(got), got, len(want))
	}
	for k, v := range want {
		if !strings.HasPrefix(got[k], v) {
			t.Errorf("%s: got %q, want prefix %q", k, got[k], v)
		}
	}
}

func TestWalkMissingRoot(t *testing.T) {
	err := Walk(context.Background(), []string{filepath.Join(t.TempDir(), "absent")}, func(Entry) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "corpus root") {
		t.Fatalf("err = %v, want a corpus root error", err)
	}
}

func TestWalkSingleFileRoot(t *testing.T) {
	f := filepath.Join(t.TempDir(), "lib.bin")
	if err := os.WriteFile(f, []byte("MTLB"), 0o644); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := Walk(context.Background(), []string{f}, func(e Entry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("visited %d, want 1", n)
	}
}

func TestWalkDeepNesting(t *testing.T) {
	root := t.TempDir()
	p := root
	for range MaxDepth + 5 {
		p = filepath.Join(p, "d")
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "deep.metallib"), []byte("MTLB"), 0o644); err != nil {
		t.Fatal(err)
	}
	var refused []string
	files := 0
	err := Walk(context.Background(), []string{root}, func(e Entry) error {
		if e.Refused != "" {
			refused = append(refused, e.Refused)
		} else {
			files++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 0 || len(refused) != 1 || !strings.HasPrefix(refused[0], RefusedTooDeep) {
		t.Errorf("files %d refused %v", files, refused)
	}
}

// TestWalkExcludesOwnOutput: the run's output and caches inside the input
// tree are not walked, whether reached directly or through a link; a root
// is walked even when excluded, and a missing exclusion is harmless.
func TestWalkExcludesOwnOutput(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"lib/a.metallib", "results/run1/part-0.parquet", "cache/ab/entry.json", "keep/cache/x"} {
		must(os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755))
		must(os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644))
	}
	must(os.Symlink(filepath.Join(root, "results"), filepath.Join(root, "lib", "results-link")))
	walk := func(roots []string, exclude ...string) []string {
		var got []string
		err := WalkWith(context.Background(), roots, Options{Exclude: exclude}, func(e Entry) error {
			rel, _ := filepath.Rel(root, e.Path)
			got = append(got, rel)
			return nil
		})
		must(err)
		return got
	}
	all := walk([]string{root})
	if len(all) != 5 {
		t.Fatalf("without exclusions: %v", all)
	}
	// The cache named by a relative path, the output through the root's path.
	wd, _ := os.Getwd()
	relCache, err := filepath.Rel(wd, filepath.Join(root, "cache"))
	must(err)
	got := walk([]string{root}, filepath.Join(root, "results"), relCache, filepath.Join(root, "missing"))
	if strings.Join(got, " ") != "keep/cache/x lib/a.metallib" {
		t.Errorf("with exclusions: %v", got)
	}
	if got := walk([]string{filepath.Join(root, "results")}, filepath.Join(root, "results")); len(got) != 1 {
		t.Errorf("an excluded root is still walked: %v", got)
	}
}
