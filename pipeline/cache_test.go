package pipeline

import (
	"context"
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
	var shared, later atomic.Int64
	stagesAt := func(version string) []Stage[*item] {
		return []Stage[*item]{
			{Name: "occ", PerOccurrence: true, Run: func(context.Context, *item) Result { return Pass() }},
			{Name: "shared", Version: version, Run: func(_ context.Context, it *item) Result {
				shared.Add(1)
				if it.n == 1 {
					return Fail("x/missing", "feature", "m")
				}
				return Pass()
			}},
			{Name: "later", Run: func(context.Context, *item) Result { later.Add(1); return UnjudgedBecause("no reference") }},
		}
	}
	runOnce := func(version string) []Done[*item] {
		e := &Engine[int, *item]{Expand: expandBy(3), Jobs: 2, Key: func(it *item) string { return it.key },
			Stages: stagesAt(version), Cache: cache}
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
	if n, _ := cache.Len(); n != 3 {
		t.Fatalf("cache holds %d entries, want 3", n)
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
	// Bumping the shared stage's version reruns it.
	shared.Store(0)
	runOnce("2")
	if shared.Load() != 3 {
		t.Errorf("after a version bump the shared stage ran %d times, want 3", shared.Load())
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
