package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"
)

// Done is one item that left the pipeline, with one result per stage (in
// stage order; a stage the item never reached has status NotRun).
type Done[T any] struct {
	Item    T
	Results []Result
	// Shared reports that the shared stages' results were copied from an
	// earlier item with the same key rather than computed again.
	Shared bool
	// Cached reports that the shared stages' results came from the Cache.
	Cached bool
}

// Engine carries sources through an expansion step (one source becomes many
// items: a library becomes its modules) and then through the ordered stages,
// each with its own bounded pool, into one sink.
type Engine[S any, T any] struct {
	// Expand turns one source into items, with a verdict on the source
	// ("library", "not-library", a refusal...) that reaches Progress in
	// the SourceDone event. It runs in its own bounded pool.
	Expand func(ctx context.Context, src S) Expansion[T]
	// ExpandWorkers bounds the expansion pool; 0 means Jobs.
	ExpandWorkers int
	// Key names identical work; items with the same non-empty key run the
	// shared stages once. Nil means every item is distinct.
	Key func(T) string
	// Stages is the ordered stage list.
	Stages []Stage[T]
	// Jobs is the default pool size of each stage.
	Jobs int
	// Timeout is the default per-item, per-stage timeout (0: none).
	Timeout time.Duration
	// Sink receives every finished item, from a single goroutine. An error
	// from Sink is returned by Run after the pipeline drains; items keep
	// arriving so that none is lost silently.
	Sink func(Done[T]) error
	// Progress, when set, receives events from the same goroutine as Sink.
	Progress func(Event)
	// Cache, when set, keeps shared-stage results across runs, keyed by
	// Key, the shared stages' names and versions, and CacheSalt.
	Cache Cache
	// CacheSalt is folded into every cache key: tool fingerprints and
	// options that change outcomes.
	CacheSalt string
	// CacheErrors, when set, receives cache write errors (from workers;
	// it must be safe for concurrent use). They never fail a module.
	CacheErrors func(error)
}

// Expansion is what one source became: its items and a verdict on it.
type Expansion[T any] struct {
	Items   []T
	Verdict string
}

// job is one item's state as it travels. Exactly one goroutine owns a job at
// any time: it is handed from stage to stage over channels.
type job[T any] struct {
	item    T
	results []Result
	shared  bool
	cached  bool
	// ranFrom is the first stage this job ran rather than took from the
	// cache (0: it took nothing).
	ranFrom int
}

// memo is the record of one distinct key: the leader job that runs the
// shared stages, and the followers waiting for its results.
type memo[T any] struct {
	done      bool
	results   []Result
	followers []*job[T]
}

type message[T any] struct {
	event *Event
	done  *job[T]
}

// Run reads sources until the channel closes or ctx is cancelled and returns
// when every item produced has reached the sink. Items in flight when ctx is
// cancelled still reach the sink, with the stage they were at marked NotRun
// and code CodeCancelled.
func (e *Engine[S, T]) Run(ctx context.Context, sources <-chan S) error {
	if err := checkStages(e.Stages); err != nil {
		return err
	}
	if e.Sink == nil || e.Expand == nil {
		return fmt.Errorf("pipeline: Engine needs Expand and Sink")
	}
	jobs := max(e.Jobs, 1)
	firstShared := len(e.Stages)
	for i, s := range e.Stages {
		if !s.PerOccurrence {
			firstShared = i
			break
		}
	}

	r := &runner[S, T]{ctx: ctx, e: e, firstShared: firstShared, memos: map[string]*memo[T]{}, sigs: stageSignatures(e.Stages, e.CacheSalt)}
	r.out = make(chan message[T], 4*jobs)
	r.in = make([]chan *job[T], len(e.Stages))
	for i := range r.in {
		r.in[i] = make(chan *job[T], jobs)
	}

	// The collector: the single owner of the sink and of progress.
	var sinkErr error
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for m := range r.out {
			if m.event != nil {
				if e.Progress != nil {
					e.Progress(*m.event)
				}
				continue
			}
			d := Done[T]{Item: m.done.item, Results: m.done.results, Shared: m.done.shared, Cached: m.done.cached}
			if err := e.Sink(d); err != nil && sinkErr == nil {
				sinkErr = err
			}
			if e.Progress != nil {
				e.Progress(Event{Kind: ItemDone})
			}
		}
	}()

	// Stage pools, each closing its successor's input when drained.
	var stagesDone sync.WaitGroup
	for i := range e.Stages {
		stagesDone.Add(1)
		go func(i int) {
			defer stagesDone.Done()
			workers := e.Stages[i].Workers
			if workers <= 0 {
				workers = jobs
			}
			p := pool.New().WithMaxGoroutines(workers)
			for j := range r.in[i] {
				p.Go(func() { r.runStage(ctx, i, j) })
			}
			p.Wait()
			if i+1 < len(r.in) {
				close(r.in[i+1])
			}
		}(i)
	}

	// Expansion.
	ew := e.ExpandWorkers
	if ew <= 0 {
		ew = jobs
	}
	ep := pool.New().WithMaxGoroutines(ew)
expand:
	for {
		select {
		case <-ctx.Done():
			break expand
		case src, ok := <-sources:
			if !ok {
				break expand
			}
			ep.Go(func() {
				x := e.Expand(ctx, src)
				r.out <- message[T]{event: &Event{Kind: SourceDone, Items: len(x.Items), Verdict: x.Verdict}}
				for _, it := range x.Items {
					r.route(&job[T]{item: it, results: make([]Result, len(e.Stages))}, 0)
				}
			})
		}
	}
	ep.Wait()
	if len(r.in) > 0 {
		close(r.in[0])
	}
	stagesDone.Wait()
	close(r.out)
	<-collected
	return sinkErr
}

type runner[S any, T any] struct {
	ctx         context.Context
	e           *Engine[S, T]
	firstShared int
	in          []chan *job[T]
	out         chan message[T]

	// sigs[i] names stages[firstShared..i] (names, versions, salt) for the
	// cache key of stage i's result.
	sigs []string

	mu    sync.Mutex
	memos map[string]*memo[T]
}

// cacheKey is the persistent cache's key of stage i's result for an item
// key: it changes when that stage or any shared stage before it changes.
func (r *runner[S, T]) cacheKey(key string, i int) string { return key + "|" + r.sigs[i] }

// fromCache fills a leader's results from the cache: the longest run of
// shared stages whose results are stored. It returns the first stage still
// to run (len(stages) when none), after restoring the in-memory artifacts
// of the cached stages that later stages need; a stage that cannot be
// restored is run again, with everything after it.
func (r *runner[S, T]) fromCache(ctx context.Context, j *job[T], key string) int {
	n := len(r.e.Stages)
	i := r.firstShared
	for ; i < n; i++ {
		res, ok := r.e.Cache.Get(r.cacheKey(key, i))
		if !ok || len(res) != 1 {
			break
		}
		j.results[i] = res[0]
		if !res[0].Status.Continues() {
			// The module stopped here: nothing after it runs.
			for k := i + 1; k < n; k++ {
				j.results[k] = Result{}
			}
			return n
		}
	}
	if i == n {
		return n
	}
	for k := r.firstShared; k < i; k++ {
		st := r.e.Stages[k]
		if j.results[k].Status == Passed && !restore(ctx, st, j.item, j.results[k]) {
			for m := k; m < n; m++ {
				j.results[m] = Result{}
			}
			return k
		}
	}
	return i
}

// restore rebuilds a cached stage's in-memory artifacts, reporting false
// when the stage has no Restore or it failed (or panicked).
func restore[T any](ctx context.Context, st Stage[T], item T, res Result) (ok bool) {
	if st.Restore == nil {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return st.Restore(ctx, item, res) == nil
}

// route sends a job to stage i, to the memo of its key, or to the sink.
func (r *runner[S, T]) route(j *job[T], i int) {
	if i >= len(r.in) {
		r.finish(j)
		return
	}
	if i == r.firstShared && r.e.Key != nil {
		if key := r.e.Key(j.item); key != "" {
			r.mu.Lock()
			m, ok := r.memos[key]
			switch {
			case !ok:
				r.memos[key] = &memo[T]{}
			case m.done:
				r.mu.Unlock()
				r.copyShared(j, m.results)
				r.out <- message[T]{done: j}
				return
			default:
				m.followers = append(m.followers, j)
				r.mu.Unlock()
				return
			}
			r.mu.Unlock()
			if r.e.Cache != nil {
				next := r.fromCache(r.ctx, j, key)
				j.ranFrom = next
				if next > i {
					r.emitCopiedUpTo(j, next)
				}
				if next == len(r.in) {
					j.cached = true
					r.finish(j)
					return
				}
				i = next
			}
		}
	}
	r.in[i] <- j
}

// emitCopied reports the stage outcomes a job received without running
// them, so progress counts every module at every stage it reached.
func (r *runner[S, T]) emitCopied(j *job[T]) { r.emitCopiedUpTo(j, len(j.results)) }

// emitCopiedUpTo reports the received outcomes of the shared stages before end.
func (r *runner[S, T]) emitCopiedUpTo(j *job[T], end int) {
	for i := r.firstShared; i < end; i++ {
		if st := j.results[i].Status; st != "" {
			r.out <- message[T]{event: &Event{Kind: StageDone, Stage: r.e.Stages[i].Name, Status: st}}
		}
	}
}

// copyShared gives a follower the leader's shared-stage results.
func (r *runner[S, T]) copyShared(j *job[T], results []Result) {
	copy(j.results[r.firstShared:], results[r.firstShared:])
	j.shared = true
	r.emitCopied(j)
}

// finish hands a job to the sink, releasing followers if it led a key.
func (r *runner[S, T]) finish(j *job[T]) {
	if r.e.Key != nil && !j.shared {
		if key := r.e.Key(j.item); key != "" && r.reachedShared(j) {
			r.mu.Lock()
			m := r.memos[key]
			var followers []*job[T]
			if m != nil && !m.done {
				m.done = true
				m.results = j.results
				followers = m.followers
				m.followers = nil
			}
			r.mu.Unlock()
			if r.e.Cache != nil && !j.cached {
				r.store(j, key)
			}
			for _, f := range followers {
				r.copyShared(f, j.results)
				r.out <- message[T]{done: f}
			}
		}
	}
	r.out <- message[T]{done: j}
}

// store keeps each shared stage's result that this job computed, as long
// as it and every shared result before it may be cached.
func (r *runner[S, T]) store(j *job[T], key string) {
	from := max(j.ranFrom, r.firstShared)
	for i := r.firstShared; i < len(j.results); i++ {
		res := j.results[i]
		if res.Status == "" || res.Status == NotRun || !cacheable([]Result{res}) {
			return
		}
		if i < from {
			continue
		}
		if err := r.e.Cache.Put(r.cacheKey(key, i), []Result{res}); err != nil && r.e.CacheErrors != nil {
			r.e.CacheErrors(err)
		}
	}
}

// reachedShared reports whether the job passed every per-occurrence stage
// (and so registered as a key's leader).
func (r *runner[S, T]) reachedShared(j *job[T]) bool {
	for i := 0; i < r.firstShared; i++ {
		if j.results[i].Status != Passed {
			return false
		}
	}
	return r.firstShared < len(r.in)
}

// runStage runs stage i on one job and routes it onwards.
func (r *runner[S, T]) runStage(ctx context.Context, i int, j *job[T]) {
	st := r.e.Stages[i]
	var res Result
	if ctx.Err() != nil {
		res = Result{Status: NotRun, Code: CodeCancelled, Message: "run interrupted before this stage"}
	} else {
		timeout := st.Timeout
		if timeout <= 0 {
			timeout = r.e.Timeout
		}
		res = runGuarded(ctx, st, j.item, timeout)
	}
	res.Stage = st.Name
	j.results[i] = res
	r.out <- message[T]{event: &Event{Kind: StageDone, Stage: st.Name, Status: res.Status}}
	if !res.Status.Continues() {
		r.finish(j)
		return
	}
	r.route(j, i+1)
}

// runGuarded runs one stage with a timeout, turning a panic into a crash
// failure and an overrun into a timeout failure.
func runGuarded[T any](ctx context.Context, st Stage[T], item T, timeout time.Duration) Result {
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	start := time.Now()
	ch := make(chan Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- Fail(CodeCrash, "panic@"+stackHash(), fmt.Sprintf("stage %s panicked: %v", st.Name, p))
			}
		}()
		ch <- st.Run(sctx, item)
	}()
	var res Result
	select {
	case res = <-ch:
	case <-sctx.Done():
		select {
		case res = <-ch:
		default:
			if ctx.Err() != nil {
				res = Result{Status: NotRun, Code: CodeCancelled, Detail: st.Name, Message: "run interrupted during this stage"}
			} else {
				res = Fail(CodeTimeout, st.Name, fmt.Sprintf("stage %s ran past its timeout of %s", st.Name, timeout))
			}
		}
	}
	if res.Duration == 0 {
		res.Duration = time.Since(start)
	}
	if res.Status == "" {
		res = Fail(CodeCrash, "empty-result", fmt.Sprintf("stage %s returned no status", st.Name))
	}
	return res
}

// stackHash names a panic's place by hashing the function names on the
// panicking goroutine's stack (addresses and line numbers excluded, so the
// same bug hashes the same across builds of unrelated code).
func stackHash() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			b.WriteString(f.Function)
			b.WriteByte('\n')
		}
		if !more {
			break
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:4])
}
