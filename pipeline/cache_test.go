package pipeline

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
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
