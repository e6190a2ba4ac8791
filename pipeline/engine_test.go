package pipeline

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/airpipe/airpipe/internal/codes"
)

type item struct {
	src, n int
	key    string
}

func sources(n int) <-chan int {
	ch := make(chan int, n)
	for i := range n {
		ch <- i
	}
	close(ch)
	return ch
}

// expandBy makes k items per source, keyed so that items of different
// sources with the same n share a key.
func expandBy(k int) func(context.Context, int) Expansion[*item] {
	return func(_ context.Context, s int) Expansion[*item] {
		out := make([]*item, k)
		for i := range out {
			out[i] = &item{src: s, n: i, key: fmt.Sprint("k", i)}
		}
		return Expansion[*item]{Items: out, Verdict: "ok"}
	}
}

func collect(t *testing.T, e *Engine[int, *item], srcs <-chan int) []Done[*item] {
	t.Helper()
	var got []Done[*item]
	e.Sink = func(d Done[*item]) error { got = append(got, d); return nil }
	if err := e.Run(context.Background(), srcs); err != nil {
		t.Fatal(err)
	}
	return got
}

func passStage(name string, perOcc bool, calls *atomic.Int64) Stage[*item] {
	return Stage[*item]{Name: name, PerOccurrence: perOcc, Run: func(context.Context, *item) Result {
		calls.Add(1)
		return Pass()
	}}
}

func TestEngineEveryItemOneDoneAndDedup(t *testing.T) {
	var occ, shared atomic.Int64
	e := &Engine[int, *item]{
		Expand: expandBy(5), Jobs: 3,
		Key:    func(it *item) string { return it.key },
		Stages: []Stage[*item]{passStage("a", true, &occ), passStage("b", false, &shared)},
	}
	got := collect(t, e, sources(40))
	if len(got) != 200 {
		t.Fatalf("got %d done items, want 200", len(got))
	}
	if occ.Load() != 200 {
		t.Errorf("per-occurrence stage ran %d times, want 200", occ.Load())
	}
	if shared.Load() != 5 {
		t.Errorf("shared stage ran %d times, want once per key (5)", shared.Load())
	}
	seen := map[string]bool{}
	nShared := 0
	for _, d := range got {
		id := fmt.Sprint(d.Item.src, "/", d.Item.n)
		if seen[id] {
			t.Fatalf("item %s delivered twice", id)
		}
		seen[id] = true
		for _, r := range d.Results {
			if r.Status != Passed {
				t.Fatalf("item %s: %+v", id, r)
			}
		}
		if d.Shared {
			nShared++
		}
	}
	if nShared != 195 {
		t.Errorf("%d items marked shared, want 195", nShared)
	}
}

func TestEngineOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		run      func(context.Context, *item) Result
		timeout  time.Duration
		status   Status
		code     codes.Code
		msgParts string
	}{
		{"pass", func(context.Context, *item) Result { return Pass() }, 0, Passed, "", ""},
		{"fail", func(context.Context, *item) Result { return Fail("x/y", "d", "m") }, 0, Failed, "x/y", "m"},
		{"panic", func(context.Context, *item) Result { panic("boom") }, 0, Failed, CodeCrash, "boom"},
		{"timeout", func(ctx context.Context, _ *item) Result {
			<-ctx.Done()
			time.Sleep(5 * time.Millisecond)
			return Pass()
		}, 20 * time.Millisecond, Failed, CodeTimeout, "timeout"},
		{"hang-ignoring-ctx", func(context.Context, *item) Result { time.Sleep(300 * time.Millisecond); return Pass() }, 20 * time.Millisecond, Failed, CodeTimeout, "timeout"},
		{"empty", func(context.Context, *item) Result { return Result{} }, 0, Failed, CodeCrash, "no status"},
		{"unjudged", func(context.Context, *item) Result { return UnjudgedBecause("no reference") }, 0, Unjudged, "", "no reference"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var later atomic.Int64
			e := &Engine[int, *item]{
				Expand: expandBy(2), Jobs: 2, Timeout: tc.timeout,
				Stages: []Stage[*item]{{Name: "s", Run: tc.run}, passStage("after", false, &later)},
			}
			got := collect(t, e, sources(3))
			if len(got) != 6 {
				t.Fatalf("got %d items, want 6", len(got))
			}
			for _, d := range got {
				r := d.Results[0]
				if r.Status != tc.status || r.Code != tc.code || !strings.Contains(r.Message, tc.msgParts) {
					t.Fatalf("result %+v, want status %s code %q message containing %q", r, tc.status, tc.code, tc.msgParts)
				}
				if r.Stage != "s" {
					t.Errorf("stage name %q", r.Stage)
				}
				wantAfter := NotRun
				if tc.status == Passed {
					wantAfter = Passed
				}
				if d.Results[1].Status != wantAfter && !(wantAfter == NotRun && d.Results[1].Status == "") {
					t.Errorf("later stage %q, want %q", d.Results[1].Status, wantAfter)
				}
			}
			if tc.status != Passed && later.Load() != 0 {
				t.Errorf("later stage ran %d times after a stop", later.Load())
			}
		})
	}
}

func TestEngineCancelDeliversEveryItem(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int64
	srcs := make(chan int)
	e := &Engine[int, *item]{
		Expand: expandBy(4), Jobs: 2,
		Stages: []Stage[*item]{{Name: "slow", Run: func(ctx context.Context, _ *item) Result {
			if started.Add(1) == 3 {
				cancel()
			}
			select {
			case <-ctx.Done():
				return Result{Status: NotRun, Code: CodeCancelled}
			case <-time.After(10 * time.Millisecond):
				return Pass()
			}
		}}},
	}
	var got []Done[*item]
	e.Sink = func(d Done[*item]) error { got = append(got, d); return nil }
	expanded := 0
	e.Progress = func(ev Event) {
		if ev.Kind == SourceDone {
			expanded += ev.Items
		}
	}
	go func() {
		defer close(srcs)
		for i := 0; i < 1000; i++ {
			select {
			case srcs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	if err := e.Run(ctx, srcs); err != nil {
		t.Fatal(err)
	}
	if len(got) != expanded || expanded == 0 || expanded >= 4000 {
		t.Fatalf("delivered %d of %d expanded items", len(got), expanded)
	}
	cancelled := 0
	for _, d := range got {
		if d.Results[0].Code == CodeCancelled {
			cancelled++
		}
	}
	if cancelled == 0 {
		t.Errorf("no item marked cancelled")
	}
}

func TestEngineSinkErrorKeepsDraining(t *testing.T) {
	e := &Engine[int, *item]{Expand: expandBy(3), Stages: []Stage[*item]{{Name: "s", Run: func(context.Context, *item) Result { return Pass() }}}}
	n := 0
	e.Sink = func(Done[*item]) error { n++; return fmt.Errorf("disk full") }
	err := e.Run(context.Background(), sources(5))
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err %v", err)
	}
	if n != 15 {
		t.Errorf("sink saw %d items, want 15", n)
	}
}

func TestCheckStages(t *testing.T) {
	run := func(context.Context, int) Result { return Pass() }
	tests := []struct {
		name   string
		stages []Stage[int]
		want   string
	}{
		{"ok", []Stage[int]{{Name: "a", PerOccurrence: true, Run: run}, {Name: "b", Run: run}}, ""},
		{"dup", []Stage[int]{{Name: "a", Run: run}, {Name: "a", Run: run}}, "twice"},
		{"noname", []Stage[int]{{Run: run}}, "no name"},
		{"norun", []Stage[int]{{Name: "a"}}, "no Run"},
		{"order", []Stage[int]{{Name: "a", Run: run}, {Name: "b", PerOccurrence: true, Run: run}}, "comes after"},
		{"needs met", []Stage[int]{{Name: "a", Run: run, Provides: []string{"x", "y"}}, {Name: "b", Run: run, Needs: []string{"y"}, Provides: []string{"z"}},
			{Name: "c", Run: run, Needs: []string{"x", "z"}}}, ""},
		{"need unmet", []Stage[int]{{Name: "a", Run: run, Provides: []string{"x"}}, {Name: "b", Run: run, Needs: []string{"x", "w"}}},
			`stage "b" needs w, which no stage before it provides`},
		{"need provided later", []Stage[int]{{Name: "a", Run: run, Needs: []string{"x"}}, {Name: "b", Run: run, Provides: []string{"x"}}},
			`stage "a" needs x, which only "b" after it provides`},
		{"need of its own", []Stage[int]{{Name: "a", Run: run, Needs: []string{"x"}, Provides: []string{"x"}}},
			`stage "a" needs x, which no stage before it provides`},
	}
	for _, tc := range tests {
		err := checkStages(tc.stages)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (tc.want == "") != (err == nil) || !strings.Contains(got, tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestStackHashStable(t *testing.T) {
	var hashes []string
	for range 2 {
		r := runGuarded(context.Background(), Stage[int]{Name: "p", Run: func(context.Context, int) Result { panic("x") }}, 0, 0)
		hashes = append(hashes, r.Detail)
	}
	sort.Strings(hashes)
	if hashes[0] != hashes[1] || !strings.HasPrefix(hashes[0], "panic@") {
		t.Errorf("hashes %v", hashes)
	}
}

func fmtKey(it *item) string { return fmt.Sprint(it.src, "/", it.n) }

func writeFile(p string, b []byte) error { return os.WriteFile(p, b, 0o644) }

// fnItem is a module occurrence: its bytes (mod) and which function of the
// module it stands for (fn).
type fnItem struct {
	src      int
	mod, fn  string
	artifact string // what the "read" stage leaves for "judge"
}

// TestEngineRefineKeysLaterStagesByFunction: items with the same module key
// share the read stage, but the judging stages (which depend on the
// function) run once per (module, function) and every item gets its own
// function's verdict; followers of the read stage restore its artifacts.
func TestEngineRefineKeysLaterStagesByFunction(t *testing.T) {
	fns := []string{"f0", "f1", "f2", "f3"}
	for _, cached := range []bool{false, true} {
		t.Run(fmt.Sprint("cache=", cached), func(t *testing.T) {
			var reads, restores, judges, compiles atomic.Int64
			stages := []Stage[*fnItem]{
				{Name: "occ", PerOccurrence: true, Run: func(context.Context, *fnItem) Result { return Pass() }},
				{Name: "read", Run: func(_ context.Context, it *fnItem) Result {
					reads.Add(1)
					it.artifact = "ir:" + it.mod
					return Pass()
				}, Restore: func(_ context.Context, it *fnItem, _ Result) error {
					restores.Add(1)
					it.artifact = "ir:" + it.mod
					return nil
				}},
				{Name: "judge", Refine: func(it *fnItem) string { return it.fn }, Run: func(_ context.Context, it *fnItem) Result {
					judges.Add(1)
					if it.artifact != "ir:"+it.mod {
						return Fail("test/no-artifact", it.fn, "read's artifact missing")
					}
					if it.fn == "f1" {
						return Fail("test/unhandled", it.fn, "function "+it.fn+" calls an unhandled intrinsic")
					}
					r := Pass()
					r.Data = map[string]string{"entry": it.fn}
					return r
				}},
				{Name: "compile", Run: func(_ context.Context, it *fnItem) Result {
					compiles.Add(1)
					r := Pass()
					r.Data = map[string]string{"entry": it.fn}
					return r
				}},
			}
			var cache Cache
			if cached {
				c, err := OpenDirCache(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				cache = c
			}
			runOnce := func() []Done[*fnItem] {
				var got []Done[*fnItem]
				e := &Engine[int, *fnItem]{
					Expand: func(_ context.Context, s int) Expansion[*fnItem] {
						var out []*fnItem
						for _, f := range fns {
							out = append(out, &fnItem{src: s, mod: "shared-module", fn: f})
						}
						return Expansion[*fnItem]{Items: out, Verdict: "ok"}
					},
					Jobs: 3, Key: func(it *fnItem) string { return it.mod }, Stages: stages, Cache: cache,
					Sink: func(d Done[*fnItem]) error { got = append(got, d); return nil },
				}
				if err := e.Run(context.Background(), sources(5)); err != nil {
					t.Fatal(err)
				}
				return got
			}
			check := func(got []Done[*fnItem]) {
				t.Helper()
				if len(got) != 20 {
					t.Fatalf("%d items, want 20", len(got))
				}
				for _, d := range got {
					fn := d.Item.fn
					for _, r := range d.Results[2:] {
						for _, other := range fns {
							if other != fn && (strings.Contains(r.Detail, other) || strings.Contains(r.Message, other) || r.Data["entry"] == other) {
								t.Errorf("item %d/%s carries %s's verdict at %s: %+v", d.Item.src, fn, other, r.Stage, r)
							}
						}
					}
					want := Passed
					if fn == "f1" {
						want = Failed
					}
					if d.Results[1].Status != Passed || d.Results[2].Status != want {
						t.Errorf("item %d/%s: read %s judge %s (%s), want judge %s", d.Item.src, fn, d.Results[1].Status, d.Results[2].Status, d.Results[2].Code, want)
					}
				}
			}
			check(runOnce())
			if reads.Load() != 1 || judges.Load() != 4 || compiles.Load() != 3 {
				t.Errorf("read ran %d times (want 1), judge %d (want 4: one per function), compile %d (want 3)", reads.Load(), judges.Load(), compiles.Load())
			}
			if restores.Load() != 3 {
				t.Errorf("read restored %d times, want 3 (each function's leader but the read's own)", restores.Load())
			}
			if !cached {
				return
			}
			reads.Store(0)
			judges.Store(0)
			compiles.Store(0)
			restores.Store(0)
			check(runOnce())
			if reads.Load()+judges.Load()+compiles.Load()+restores.Load() != 0 {
				t.Errorf("warm run did work: read %d judge %d compile %d restore %d", reads.Load(), judges.Load(), compiles.Load(), restores.Load())
			}
		})
	}
}

// TestEngineInterruptedFailureIsCancelled: a stage that, interrupted,
// reports a failure of its own (a killed tool) is recorded as cancelled,
// so that the failure never stands as the module's verdict.
func TestEngineInterruptedFailureIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine[int, *item]{
		Expand: expandBy(1), Jobs: 1,
		Stages: []Stage[*item]{{Name: "tool", Run: func(context.Context, *item) Result {
			cancel()
			return Fail("tool/crash", "SIGKILL", "the tool was killed")
		}}},
	}
	var got []Done[*item]
	e.Sink = func(d Done[*item]) error { got = append(got, d); return nil }
	if err := e.Run(ctx, sources(1)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d items", len(got))
	}
	if r := got[0].Results[0]; r.Status != NotRun || r.Code != CodeCancelled || !strings.Contains(r.Message, "the tool was killed") {
		t.Errorf("result %+v, want not-run/cancelled keeping the stage's words", r)
	}
}

// TestEngineReleasesFinishedItems: an item that reached the sink is not kept
// alive by its source's expansion while the expansion's later items are
// still being routed (a library of 20,000 functions held every finished
// module, and its artifacts, until its last function was routed).
func TestEngineReleasesFinishedItems(t *testing.T) {
	type big struct {
		n int
		_ [4096]byte // large enough not to share an allocation with another object
	}
	const n = 16
	items := make([]*big, n)
	for i := range items {
		items[i] = &big{n: i}
	}
	first := weak.Make(items[0])
	sunk := make(chan struct{})
	checked := make(chan struct{})
	e := &Engine[int, *big]{
		Jobs: 1,
		Expand: func(context.Context, int) Expansion[*big] {
			x := Expansion[*big]{Items: items, Verdict: "ok"}
			items = nil
			return x
		},
		Key: func(*big) string { return "" },
		Stages: []Stage[*big]{{Name: "a", PerOccurrence: true, Run: func(_ context.Context, b *big) Result {
			if b.n == n/2 {
				<-checked // the expansion is still routing the items after this one
			}
			return Pass()
		}}},
		Sink: func(d Done[*big]) error {
			if d.Item.n == n/2-1 { // the sink has long moved on from item 0
				close(sunk)
			}
			return nil
		},
	}
	done := make(chan error)
	go func() { done <- e.Run(context.Background(), sources(1)) }()
	<-sunk
	collected := false
	for range 50 {
		runtime.GC()
		if first.Value() == nil {
			collected = true
			break
		}
		runtime.Gosched()
	}
	close(checked)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !collected {
		t.Error("the first item, delivered to the sink, is still alive while its expansion routes the rest")
	}
}
