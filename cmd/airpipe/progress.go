package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cheggaaa/pb/v3"
	"github.com/mattn/go-isatty"

	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/pipeline"
)

// progress is the run's progress state, kept apart from its display. Each
// counter has a single writer (the walker for files, the engine's collector
// goroutine for the rest); the display only reads.
type progress struct {
	start  time.Time
	stages []string
	files  atomic.Int64
	// estimates holds, for each library file handed over and not yet
	// read, the function count its header declares; pending sums them,
	// and unknown counts the handed files that declare nothing (Mach-O
	// binaries, caches, firmware) until they are read.
	estimates sync.Map
	pending   atomic.Int64
	unknown   atomic.Int64
	libraries atomic.Int64
	modules   atomic.Int64
	done      atomic.Int64
	stageDone []atomic.Int64
	// failed counts stage outcomes "failed" so far (a module fails once).
	failed atomic.Int64
	// walked is set when the walk has returned: every file is found.
	walked atomic.Bool
	// mu guards samples, the recent progress the ETA's rate comes from.
	mu      sync.Mutex
	samples []rateSample
	// verdicts is written by the collector goroutine only and read after
	// the engine returns.
	verdicts map[string]int64
}

func newProgress(stages []string) *progress {
	return &progress{start: time.Now(), stages: stages, stageDone: make([]atomic.Int64, len(stages)), verdicts: map[string]int64{}}
}

func (p *progress) fileSeen() { p.files.Add(1) }

// fileHanded notes a file handed to the engine to be read, with the
// number of modules its library header declares when it has one.
func (p *progress) fileHanded(e corpus.Entry) {
	if n, ok := mtlb.DeclaredFunctions(e.Path); ok {
		p.estimates.Store(e, int64(n))
		p.pending.Add(int64(n))
		return
	}
	p.unknown.Add(1)
}

// expanded notes that file e was read and yielded modules modules: its
// estimate is replaced by the real number.
func (p *progress) expanded(e corpus.Entry, modules int) {
	if n, ok := p.estimates.LoadAndDelete(e); ok {
		p.pending.Add(-n.(int64))
	} else {
		p.unknown.Add(-1)
	}
	p.modules.Add(int64(modules))
}

// verdictCounts returns how many files got each verdict; call it only after
// the engine has returned.
func (p *progress) verdictCounts() map[string]int64 { return p.verdicts }

// observe receives the engine's events (from its single collector goroutine).
func (p *progress) observe(e pipeline.Event) {
	switch e.Kind {
	case pipeline.SourceDone:
		p.verdicts[e.Verdict]++
		p.libraries.Add(1)
	case pipeline.StageDone:
		if e.Status == pipeline.Failed {
			p.failed.Add(1)
		}
		for i, s := range p.stages {
			if s == e.Stage {
				p.stageDone[i].Add(1)
			}
		}
	case pipeline.ItemDone:
		p.done.Add(1)
	}
}

// walkDone marks the discovery finished: the walker has returned.
func (p *progress) walkDone() { p.walked.Store(true) }

// discovering reports whether the module total is still unknown: the walk
// is running, or a file it handed over that declares no function count
// has not been read yet.
func (p *progress) discovering() bool {
	return !p.walked.Load() || p.unknown.Load() > 0
}

// total is the modules read so far plus those the unread library files
// declare.
func (p *progress) total() int64 { return p.modules.Load() + p.pending.Load() }

// overall renders the one line for the whole run: modules done of the
// total (a lower bound while files are still being found), elapsed time,
// rate, an ETA once the total is known, and failures so far.
func (p *progress) overall() string {
	now := time.Now()
	el := now.Sub(p.start)
	done, total := p.done.Load(), p.total()
	rate := float64(done) / max(el.Seconds(), 0.001)
	recent := p.recentRate(now, done, rate)
	s := fmt.Sprintf("[%s] modules %d of %d", el.Truncate(time.Second), done, total)
	eta := "ETA after discovery"
	if p.discovering() {
		s += fmt.Sprintf(" found so far (discovering: %d files found, %d read)", p.files.Load(), p.libraries.Load())
	} else {
		if total > 0 {
			s += fmt.Sprintf(" (%.0f%%)", 100*float64(done)/float64(total))
		}
		eta = "ETA " + etaOf(done, total, recent)
	}
	return s + fmt.Sprintf(", %.0f/s, %s, %d failed", rate, eta, p.failed.Load())
}

// rateWindow is how far back the ETA's rate looks: the last modules of a
// run are often the slow ones, so the average since the start promises
// too early an end.
const rateWindow = time.Minute

// recentRate is the rate over about the last rateWindow, from the samples
// overall keeps (the average since the start until a window has passed).
func (p *progress) recentRate(now time.Time, done int64, average float64) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.samples = append(p.samples, rateSample{now, done})
	for len(p.samples) > 2 && now.Sub(p.samples[1].at) >= rateWindow {
		p.samples = p.samples[1:]
	}
	first := p.samples[0]
	if now.Sub(first.at) < rateWindow {
		return average
	}
	return float64(done-first.done) / now.Sub(first.at).Seconds()
}

// rateSample is the number of modules done at a moment.
type rateSample struct {
	at   time.Time
	done int64
}

// etaOf is the time left at rate for total-done modules.
func etaOf(done, total int64, rate float64) string {
	switch {
	case done >= total:
		return "0s"
	case rate <= 0:
		return "unknown"
	}
	return (time.Duration(float64(total-done)/rate) * time.Second).Truncate(time.Second).String()
}

// line renders the state as one plain line: the overall line, then each
// stage's count.
func (p *progress) line() string {
	s := p.overall()
	for i, st := range p.stages {
		s += fmt.Sprintf(", %s %d", st, p.stageDone[i].Load())
	}
	return s
}

// display shows progress until stopped.
type display struct {
	quit chan struct{}
	wg   sync.WaitGroup
}

func (d *display) stop() {
	if d == nil || d.quit == nil {
		return
	}
	close(d.quit)
	d.wg.Wait()
}

// startDisplay starts the chosen display: bars (pb/v3) on a terminal,
// plain lines every few seconds otherwise, or none.
func startDisplay(mode string, p *progress, w io.Writer) *display {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = isatty.IsTerminal(f.Fd())
	}
	switch {
	case mode == "none":
		return &display{}
	case mode == "bar", mode == "auto" && tty:
		return startBars(p, w)
	default:
		return startLines(p, w, 5*time.Second)
	}
}

func startLines(p *progress, w io.Writer, every time.Duration) *display {
	d := &display{quit: make(chan struct{})}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				fmt.Fprintln(w, p.line())
			case <-d.quit:
				fmt.Fprintln(w, p.line())
				return
			}
		}
	}()
	return d
}

// startBars shows one bar a stage and the overall line. While files are
// still being discovered the stage bars show counts only (their total is
// not known yet); once discovery ends they run against the real total.
func startBars(p *progress, w io.Writer) *display {
	overall := pb.New64(0).SetTemplateString(`{{ string . "overall" }}`).SetWriter(w)
	bars := []*pb.ProgressBar{overall}
	stageBars := make([]*pb.ProgressBar, len(p.stages))
	const counting = `{{ "%[1]s" | printf "%%-10s" }} {{ counters . }} (discovering)`
	const barred = `{{ "%[1]s" | printf "%%-10s" }} {{ bar . }} {{ counters . }} {{ percent . }}`
	for i, s := range p.stages {
		stageBars[i] = pb.New64(0).SetTemplateString(fmt.Sprintf(counting, s)).SetWriter(w).SetMaxWidth(100)
		bars = append(bars, stageBars[i])
	}
	pool, err := pb.StartPool(bars...)
	if err != nil {
		return startLines(p, w, 5*time.Second)
	}
	d := &display{quit: make(chan struct{})}
	known := false
	update := func() {
		overall.Set("overall", p.overall())
		if !known && !p.discovering() {
			known = true
			for i, s := range p.stages {
				stageBars[i].SetTemplateString(fmt.Sprintf(barred, s))
			}
		}
		for i := range stageBars {
			if known {
				stageBars[i].SetTotal(p.total())
			}
			stageBars[i].SetCurrent(p.stageDone[i].Load())
		}
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				update()
			case <-d.quit:
				update()
				_ = pool.Stop()
				return
			}
		}
	}()
	return d
}
