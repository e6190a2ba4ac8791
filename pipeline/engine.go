package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"slices"
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
	// Shared reports that some shared stages' results were copied from an
	// earlier item with the same key rather than computed again.
	Shared bool
	// Cached reports that some shared stages' results came from the Cache.
	Cached bool
	// Ran counts the shared stages this item ran itself (0 with Shared or
	// Cached: all its shared-stage work was reused).
	Ran int
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
	// shared stages once, up to the first stage with a Refine: from there
	// on, the key is narrowed by each Refine (Stage.Refine). Nil means every
	// item is distinct.
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
	// Key (narrowed by the Refines up to the stage), the shared stages'
	// names and versions, and CacheSalt.
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
	// own[i]: this job computed results[i] itself (neither copied from
	// another item nor taken from the cache).
	own []bool
	// ready[i]: stage i's in-memory artifacts exist in the item (it ran
	// the stage or restored it), so later stages may run.
	ready []bool
	// keys[s] is the item's key for segment s (computed on entry; "" when
	// the item shares nothing).
	keys []string
	// seg is the last segment the job entered (-1: none yet); lead is the
	// segment whose memo it leads and has not released (-1: none).
	seg, lead int
	shared    bool
	cached    bool
}

// ran counts the shared stages (from first on) the job ran itself.
func (j *job[T]) ran(first int) int {
	n := 0
	for _, own := range j.own[first:] {
		if own {
			n++
		}
	}
	return n
}

// memo is the record of one distinct (segment, key): the leader job that
// runs the segment's stages, and the followers waiting for its results.
type memo[T any] struct {
	done bool
	// results is the leader's results up to the segment's end, as they
	// were when it left the segment.
	results   []Result
	followers []*job[T]
}

// memoKey names a memo: a segment and the item key for that segment.
type memoKey struct {
	seg int
	key string
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
	r := newRunner(ctx, e)
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
			d := Done[T]{Item: m.done.item, Results: m.done.results, Shared: m.done.shared, Cached: m.done.cached, Ran: m.done.ran(r.firstShared)}
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
				for i, it := range x.Items {
					// The job holds the item from here: the expansion does
					// not keep a finished one alive (and its artifacts)
					// while the rest of a large library is routed.
					var zero T
					x.Items[i] = zero
					r.route(r.newJob(it), 0)
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

// runner is one Run's state. The shared stages fall into segments: a
// segment starts at the first shared stage and at every shared stage with a
// Refine, and all of a segment's stages share one item key. Items with
// equal keys for a segment run its stages once (the first to arrive leads,
// the others follow and receive its results when it leaves the segment);
// a follower then goes on to the next segment under its own, finer key.
type runner[S any, T any] struct {
	ctx         context.Context
	e           *Engine[S, T]
	firstShared int
	// segStart lists the first stage of each segment; segOf maps a stage
	// to its segment (-1 for per-occurrence stages).
	segStart []int
	segOf    []int
	in       []chan *job[T]
	out      chan message[T]

	// sigs[i] names stages[firstShared..i] (names, versions, salt) for the
	// cache key of stage i's result.
	sigs []string

	mu    sync.Mutex
	memos map[memoKey]*memo[T]
}

func newRunner[S any, T any](ctx context.Context, e *Engine[S, T]) *runner[S, T] {
	n := len(e.Stages)
	r := &runner[S, T]{ctx: ctx, e: e, firstShared: n, segOf: make([]int, n), memos: map[memoKey]*memo[T]{}, sigs: stageSignatures(e.Stages, e.CacheSalt)}
	for i, s := range e.Stages {
		r.segOf[i] = -1
		if s.PerOccurrence {
			continue
		}
		if r.firstShared == n {
			r.firstShared = i
		}
		if i == r.firstShared || s.Refine != nil {
			r.segStart = append(r.segStart, i)
		}
		r.segOf[i] = len(r.segStart) - 1
	}
	return r
}

func (r *runner[S, T]) newJob(it T) *job[T] {
	n := len(r.e.Stages)
	return &job[T]{item: it, results: make([]Result, n), own: make([]bool, n), ready: make([]bool, n),
		keys: make([]string, len(r.segStart)), seg: -1, lead: -1}
}

// segEnd is the first stage after segment s.
func (r *runner[S, T]) segEnd(s int) int {
	if s+1 < len(r.segStart) {
		return r.segStart[s+1]
	}
	return len(r.e.Stages)
}

// segmentKey is the item's key for segment s: Key, refined by every Refine
// of the shared stages up to the segment's start ("" when Key is nil or
// empty: the item shares nothing).
func (r *runner[S, T]) segmentKey(it T, s int) string {
	if r.e.Key == nil {
		return ""
	}
	key := r.e.Key(it)
	if key == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(key)
	for i := r.firstShared; i <= r.segStart[s]; i++ {
		if f := r.e.Stages[i].Refine; f != nil {
			b.WriteByte(0)
			b.WriteString(f(it))
		}
	}
	return b.String()
}

// cacheKey is the persistent cache's key of stage i's result for a job: it
// changes when the item's key for that stage's segment, that stage or any
// shared stage before it changes.
func (r *runner[S, T]) cacheKey(j *job[T], i int) string {
	return j.keys[r.segOf[i]] + "|" + r.sigs[i]
}

// fromCache fills a segment leader's results from the cache: the longest
// run of the segment's stages whose results are stored. It returns the
// first stage still to run (the segment's end when none), and whether a
// cached result stopped the item. Artifacts of cached stages are restored
// when a later stage needs them (prepare).
func (r *runner[S, T]) fromCache(j *job[T], s int) (next int, stopped bool) {
	end := r.segEnd(s)
	i := r.segStart[s]
	for ; i < end; i++ {
		res, ok := r.e.Cache.Get(r.cacheKey(j, i))
		if !ok || len(res) != 1 {
			return i, false
		}
		j.results[i] = res[0]
		j.cached = true
		r.out <- message[T]{event: &Event{Kind: StageDone, Stage: r.e.Stages[i].Name, Status: res[0].Status}}
		if !res[0].Status.Continues() {
			return end, true
		}
	}
	return end, false
}

// prepare makes sure the artifacts of every shared stage before i exist in
// the item before stage i runs: a result copied from another item or taken
// from the cache is restored (Stage.Restore) or, failing that, the stage is
// run again here and its own result replaces the received one. It reports
// false when such a rerun stopped the item.
func (r *runner[S, T]) prepare(ctx context.Context, j *job[T], i int) bool {
	for k := r.firstShared; k < i; k++ {
		if j.ready[k] || j.results[k].Status != Passed {
			continue
		}
		st := r.e.Stages[k]
		if restore(ctx, st, j.item, j.results[k]) {
			j.ready[k] = true
			continue
		}
		res := r.runOne(ctx, k, j)
		j.results[k], j.own[k], j.ready[k] = res, true, true
		if !res.Status.Continues() {
			for m := k + 1; m < len(j.results); m++ {
				j.results[m], j.own[m], j.ready[m] = Result{}, false, false
			}
			return false
		}
	}
	return true
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

// route sends a job to stage i, or to the memo of its key when stage i
// starts a segment, or to the sink.
func (r *runner[S, T]) route(j *job[T], i int) {
	for {
		if i >= len(r.in) {
			r.finish(j)
			return
		}
		s := r.segOf[i]
		if s < 0 || s <= j.seg || r.segStart[s] != i {
			r.in[i] <- j
			return
		}
		// Entering segment s leaves the segment before it. The job takes
		// its place in segment s's memo first, so that a follower released
		// from the old segment with the same new key follows it rather than
		// leading; the old segment's followers are released from a snapshot,
		// since j may belong to another goroutine once it follows.
		left := r.leave(j)
		j.seg = s
		key := r.segmentKey(j.item, s)
		j.keys[s] = key
		if key == "" {
			left()
			r.in[i] <- j
			return
		}
		mk := memoKey{s, key}
		r.mu.Lock()
		m, ok := r.memos[mk]
		switch {
		case !ok:
			r.memos[mk] = &memo[T]{}
			r.mu.Unlock()
			j.lead = s
			left()
		case m.done:
			r.mu.Unlock()
			left()
			if r.follow(j, s, m.results) {
				return
			}
			i = r.segEnd(s)
			continue
		default:
			m.followers = append(m.followers, j)
			r.mu.Unlock()
			left()
			return
		}
		if r.e.Cache == nil {
			r.in[i] <- j
			return
		}
		next, stopped := r.fromCache(j, s)
		if stopped {
			r.finish(j)
			return
		}
		if next < r.segEnd(s) {
			r.in[next] <- j
			return
		}
		i = next
	}
}

// follow gives a follower of segment s its leader's results up to the
// segment's end (the leader's key equals the follower's for s and every
// segment before it, so each of those results is the follower's too). It
// reports whether the follower stopped (and went to the sink); otherwise
// the caller routes it to the next segment.
func (r *runner[S, T]) follow(j *job[T], s int, results []Result) bool {
	end := r.segEnd(s)
	for k := r.firstShared; k < end; k++ {
		prev := j.results[k]
		if prev.Status == "" && results[k].Status != "" {
			r.out <- message[T]{event: &Event{Kind: StageDone, Stage: r.e.Stages[k].Name, Status: results[k].Status}}
		}
		if prev.Status != "" && prev.Status == results[k].Status {
			continue // it has this verdict already (and maybe its artifacts)
		}
		j.results[k], j.own[k], j.ready[k] = results[k], false, false
		j.shared = true
	}
	for k := r.firstShared; k < end; k++ {
		if !j.results[k].Status.Continues() {
			for m := k + 1; m < end; m++ {
				j.results[m] = Result{}
			}
			r.finish(j)
			return true
		}
	}
	return false
}

// leave ends the job's lead of a segment, if it leads one: the memo
// records its results up to the segment's end. It returns the release of
// the memo's followers, each of which receives those results and goes on;
// the release uses a snapshot, not the job.
func (r *runner[S, T]) leave(j *job[T]) (release func()) {
	s := j.lead
	if s < 0 {
		return func() {}
	}
	j.lead = -1
	snapshot := slices.Clone(j.results[:r.segEnd(s)])
	r.mu.Lock()
	m := r.memos[memoKey{s, j.keys[s]}]
	var followers []*job[T]
	if m != nil && !m.done {
		m.done = true
		m.results = snapshot
		followers = m.followers
		m.followers = nil
	}
	r.mu.Unlock()
	return func() {
		for _, f := range followers {
			if !r.follow(f, s, snapshot) {
				r.route(f, r.segEnd(s))
			}
		}
	}
}

// finish hands a job to the sink, keeping its own results in the cache and
// releasing the followers of the segment it leads.
func (r *runner[S, T]) finish(j *job[T]) {
	if r.e.Cache != nil {
		r.store(j)
	}
	release := r.leave(j)
	r.out <- message[T]{done: j}
	release()
}

// store keeps each shared stage's result that this job computed itself, as
// long as it and every shared result before it may be cached.
func (r *runner[S, T]) store(j *job[T]) {
	for i := r.firstShared; i < len(j.results); i++ {
		res := j.results[i]
		if res.Status == "" || res.Status == NotRun || !cacheable([]Result{res}) {
			return
		}
		if !j.own[i] || j.keys[r.segOf[i]] == "" {
			continue
		}
		if err := r.e.Cache.Put(r.cacheKey(j, i), []Result{res}); err != nil && r.e.CacheErrors != nil {
			r.e.CacheErrors(err)
		}
	}
}

// runStage runs stage i on one job and routes it onwards.
func (r *runner[S, T]) runStage(ctx context.Context, i int, j *job[T]) {
	if ctx.Err() == nil && !r.prepare(ctx, j, i) {
		r.finish(j)
		return
	}
	res := r.runOne(ctx, i, j)
	j.results[i], j.own[i], j.ready[i] = res, true, true
	r.out <- message[T]{event: &Event{Kind: StageDone, Stage: res.Stage, Status: res.Status}}
	if !res.Status.Continues() {
		r.finish(j)
		return
	}
	r.route(j, i+1)
}

// runOne runs stage i's work for a job and names the result's stage. Once
// the run is interrupted, every outcome but a pass is recorded as
// cancelled: a stage stopped by the interruption may report it as some
// failure of its own, and that must not pass for the module's verdict.
func (r *runner[S, T]) runOne(ctx context.Context, i int, j *job[T]) Result {
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
		if ctx.Err() != nil && res.Status != Passed && (res.Status != NotRun || res.Code != CodeCancelled) {
			msg := "run interrupted during this stage"
			if res.Message != "" {
				msg += " (the stage said: " + res.Message + ")"
			}
			res = Result{Status: NotRun, Code: CodeCancelled, Detail: st.Name, Message: msg, Duration: res.Duration}
		}
	}
	res.Stage = st.Name
	return res
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
