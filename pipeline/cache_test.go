package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func TestEngineCache(t *testing.T) {
	dir := t.TempDir()
	cache, err := OpenDirCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	var shared, later, restored atomic.Int64
	stagesAt := func(version, laterVersion string) []Stage[*item] {
		return []Stage[*item]{
			{Name: "occ", PerOccurrence: true, Run: func(context.Context, *item) Result { return Pass() }},
			{Name: "shared", Version: version, Run: func(_ context.Context, it *item) Result {
				shared.Add(1)
				if it.n == 1 {
					return Fail("x/missing", "feature", "m")
				}
				return Pass()
			}, Restore: func(context.Context, *item, Result) error { restored.Add(1); return nil }},
			{Name: "later", Version: laterVersion, Run: func(context.Context, *item) Result { later.Add(1); return UnjudgedBecause("no reference") }},
		}
	}
	runOnce := func(version string, laterVersion ...string) []Done[*item] {
		lv := "1"
		if len(laterVersion) > 0 {
			lv = laterVersion[0]
		}
		e := &Engine[int, *item]{Expand: expandBy(3), Jobs: 2, Key: func(it *item) string { return it.key },
			Stages: stagesAt(version, lv), Cache: cache}
		return collect(t, e, sources(4))
	}
	statuses := func(ds []Done[*item]) map[string][]Status {
		out := map[string][]Status{}
		for _, d := range ds {
			var st []Status
			for _, r := range d.Results {
				st = append(st, r.Status)
			}
			out[fmtKey(d.Item)] = st
		}
		return out
	}

	cold := runOnce("1")
	if shared.Load() != 3 {
		t.Fatalf("cold run: shared stage ran %d times, want 3", shared.Load())
	}
	// One entry per stage result: two keys passed "shared" and reached
	// "later", one stopped at "shared".
	if n, _ := cache.Len(); n != 5 {
		t.Fatalf("cache holds %d entries, want 5", n)
	}
	shared.Store(0)
	later.Store(0)
	warm := runOnce("1")
	if shared.Load() != 0 || later.Load() != 0 {
		t.Fatalf("warm run did stage work: shared %d later %d", shared.Load(), later.Load())
	}
	if !reflect.DeepEqual(statuses(cold), statuses(warm)) {
		t.Errorf("warm results differ:\ncold %v\nwarm %v", statuses(cold), statuses(warm))
	}
	for _, d := range warm {
		if !d.Cached && !d.Shared {
			t.Errorf("warm item %s neither cached nor shared", fmtKey(d.Item))
		}
	}
	// Bumping the shared stage's version reruns it and the stage after it.
	shared.Store(0)
	later.Store(0)
	runOnce("2")
	if shared.Load() != 3 || later.Load() != 2 {
		t.Errorf("after a version bump: shared ran %d times (want 3), later %d (want 2)", shared.Load(), later.Load())
	}
	// Bumping only the later stage reruns it alone: the shared stage's
	// cached passes are restored, not judged again.
	shared.Store(0)
	later.Store(0)
	restored.Store(0)
	got := runOnce("2", "2")
	if shared.Load() != 0 || later.Load() != 2 || restored.Load() != 2 {
		t.Errorf("after bumping the later stage: shared ran %d (want 0), later %d (want 2), restored %d (want 2)", shared.Load(), later.Load(), restored.Load())
	}
	for _, d := range got {
		if d.Results[1].Status == Passed && d.Results[2].Status != Unjudged {
			t.Errorf("%s: later stage %q", fmtKey(d.Item), d.Results[2].Status)
		}
	}
}

func TestCacheableRefusesTransientOutcomes(t *testing.T) {
	tests := []struct {
		r    Result
		want bool
	}{
		{Pass(), true},
		{Fail("x", "y", "z"), true},
		{UnjudgedBecause("no reference"), true},
		{Fail(CodeTimeout, "", ""), false},
		{Fail(CodeCrash, "", ""), false},
		{Result{Status: NotRun, Code: CodeCancelled}, false},
		{Unavailablef("no GPU"), true},
		{Result{Status: Skipped, Message: "excluded"}, false},
	}
	for _, tc := range tests {
		if got := cacheable([]Result{Pass(), tc.r}); got != tc.want {
			t.Errorf("%+v: cacheable %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestDirCacheDamagedEntryIsMiss(t *testing.T) {
	c, _ := OpenDirCache(t.TempDir())
	if err := c.Put("k", []Result{Pass()}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("k"); !ok {
		t.Fatal("miss after put")
	}
	if err := writeFile(c.path("k"), []byte("{garbage")); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("k"); ok {
		t.Fatal("damaged entry was a hit")
	}
}

// TestEngineCacheRestoreFailureReruns: a cached stage whose artifacts cannot
// be restored is run again rather than trusted.
func TestEngineCacheRestoreFailureReruns(t *testing.T) {
	cache, _ := OpenDirCache(t.TempDir())
	var runs atomic.Int64
	mk := func(laterVersion string) []Stage[*item] {
		return []Stage[*item]{
			{Name: "a", Run: func(context.Context, *item) Result { runs.Add(1); return Pass() },
				Restore: func(context.Context, *item, Result) error { return fmt.Errorf("artifact gone") }},
			{Name: "b", Version: laterVersion, Run: func(context.Context, *item) Result { return Pass() }},
		}
	}
	for i, v := range []string{"1", "2"} {
		runs.Store(0)
		e := &Engine[int, *item]{Expand: expandBy(2), Key: func(it *item) string { return it.key }, Stages: mk(v), Cache: cache}
		got := collect(t, e, sources(1))
		if runs.Load() != 2 {
			t.Errorf("run %d: stage a ran %d times, want 2", i, runs.Load())
		}
		for _, d := range got {
			if d.Results[0].Status != Passed || d.Results[1].Status != Passed {
				t.Errorf("run %d: %+v", i, d.Results)
			}
		}
	}
}

// TestDirCacheRefusesHostileEntries: an entry that still parses but is not
// what this build wrote — a flipped byte, a link, a FIFO, an oversized file,
// another build's entry — is a counted miss, never a result, and never
// blocks.
func TestDirCacheRefusesHostileEntries(t *testing.T) {
	valid := func(t *testing.T) (*DirCache, string) {
		c, err := OpenDirCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Put("k", []Result{Pass()}); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Get("k"); !ok {
			t.Fatal("miss after put")
		}
		return c, c.path("k")
	}
	tests := []struct {
		name   string
		damage func(t *testing.T, c *DirCache, p string)
	}{
		{"flipped status byte", func(t *testing.T, c *DirCache, p string) {
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, []byte(`"passed"`))
			if i < 0 {
				t.Fatalf("no status in %q", b)
			}
			b[i+2] ^= 0x80 // "p\xe1ssed": still JSON
			must(t, os.WriteFile(p, b, 0o644))
		}},
		{"flipped code byte", func(t *testing.T, c *DirCache, p string) {
			must(t, c.Put("k", []Result{Fail("x/abc", "d", "m")}))
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, []byte(`x/abc`))
			b[i+2] = 'z'
			must(t, os.WriteFile(p, b, 0o644))
		}},
		{"checksum header dropped", func(t *testing.T, c *DirCache, p string) {
			b, _ := os.ReadFile(p)
			must(t, os.WriteFile(p, b[bytes.IndexByte(b, '\n')+1:], 0o644))
		}},
		{"symlink to a valid entry", func(t *testing.T, c *DirCache, p string) {
			elsewhere := filepath.Join(t.TempDir(), "e.json")
			must(t, os.Rename(p, elsewhere))
			must(t, os.Symlink(elsewhere, p))
		}},
		{"symlink to /dev/zero", func(t *testing.T, c *DirCache, p string) {
			must(t, os.Remove(p))
			must(t, os.Symlink("/dev/zero", p))
		}},
		{"fifo", func(t *testing.T, c *DirCache, p string) {
			must(t, os.Remove(p))
			must(t, syscall.Mkfifo(p, 0o644))
		}},
		{"oversized", func(t *testing.T, c *DirCache, p string) {
			b, _ := os.ReadFile(p)
			must(t, os.WriteFile(p, append(b, make([]byte, MaxCacheEntry)...), 0o644))
		}},
		{"linked subdirectory", func(t *testing.T, c *DirCache, p string) {
			sub := filepath.Dir(p)
			elsewhere := filepath.Join(t.TempDir(), "sub")
			must(t, os.Rename(sub, elsewhere))
			must(t, os.Symlink(elsewhere, sub))
		}},
		{"another build's entry", func(t *testing.T, c *DirCache, p string) {
			other := &DirCache{dir: c.dir, build: "vcs:other"}
			b, _ := os.ReadFile(p)
			must(t, os.MkdirAll(filepath.Dir(other.path("k")), 0o755))
			must(t, os.WriteFile(other.path("k"), b, 0o644))
			c.build = "vcs:other"
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, p := valid(t)
			tc.damage(t, c, p)
			type got struct {
				res []Result
				ok  bool
			}
			done := make(chan got, 1)
			go func() { r, ok := c.Get("k"); done <- got{r, ok} }()
			select {
			case g := <-done:
				if g.ok {
					t.Fatalf("damaged entry was a hit: %+v", g.res)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Get blocked on the entry")
			}
			if c.Damaged() != 1 {
				t.Errorf("Damaged() = %d, want 1", c.Damaged())
			}
		})
	}
	// A missing entry is a plain miss, not damage.
	c, _ := valid(t)
	if _, ok := c.Get("absent"); ok || c.Damaged() != 0 {
		t.Errorf("absent key: hit %v, damaged %d", ok, c.Damaged())
	}
}

// TestDirCacheKeyedOnBuild: an entry written by one build is a miss for
// another, so a rebuilt binary never reuses another's verdicts.
func TestDirCacheKeyedOnBuild(t *testing.T) {
	dir := t.TempDir()
	a := &DirCache{dir: dir, build: "vcs:aaaa"}
	b := &DirCache{dir: dir, build: "exe:bbbb"}
	must(t, a.Put("k", []Result{Pass()}))
	if _, ok := b.Get("k"); ok {
		t.Fatal("build b reused build a's entry")
	}
	if _, ok := a.Get("k"); !ok {
		t.Fatal("build a misses its own entry")
	}
	if b.Damaged() != 0 {
		t.Errorf("another build's key counted as damage: %d", b.Damaged())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDirCachePrune: Prune keeps this build's entries and removes another
// build's and damaged ones; the kept entry still reads back.
func TestDirCachePrune(t *testing.T) {
	dir := t.TempDir()
	a := &DirCache{dir: dir, build: "vcs:aaaa"}
	b := &DirCache{dir: dir, build: "exe:bbbb"}
	must(t, a.Put("k", []Result{Pass()}))
	must(t, b.Put("k", []Result{Pass()}))
	must(t, b.Put("j", []Result{Pass()}))
	damaged := a.path("d")
	must(t, a.Put("d", []Result{Pass()}))
	body, err := os.ReadFile(damaged)
	must(t, err)
	body[len(body)-2] ^= 1
	must(t, os.WriteFile(damaged, body, 0o644))
	p, err := a.Prune(false)
	must(t, err)
	if p.Kept != 1 || p.Removed != 3 {
		t.Errorf("kept %d, removed %d; want 1 and 3", p.Kept, p.Removed)
	}
	if _, ok := a.Get("k"); !ok {
		t.Error("the kept entry no longer reads back")
	}
	for _, k := range []string{"k", "j"} {
		if _, err := os.Stat(b.path(k)); err == nil {
			t.Errorf("build b's entry %q is still there", k)
		}
	}
}
