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

	"github.com/airpipe/airpipe/pipeline"
)

// progress is the run's progress state, kept apart from its display. Each
// counter has a single writer (the walker for files, the engine's collector
// goroutine for the rest); the display only reads.
type progress struct {
	start     time.Time
	stages    []string
	files     atomic.Int64
	libraries atomic.Int64
	modules   atomic.Int64
	done      atomic.Int64
	stageDone []atomic.Int64
	// verdicts is written by the collector goroutine only and read after
	// the engine returns.
	verdicts map[string]int64
}

func newProgress(stages []string) *progress {
	return &progress{start: time.Now(), stages: stages, stageDone: make([]atomic.Int64, len(stages)), verdicts: map[string]int64{}}
}

func (p *progress) fileSeen() { p.files.Add(1) }

// verdictCounts returns how many files got each verdict; call it only after
// the engine has returned.
func (p *progress) verdictCounts() map[string]int64 { return p.verdicts }

// observe receives the engine's events (from its single collector goroutine).
func (p *progress) observe(e pipeline.Event) {
	switch e.Kind {
	case pipeline.SourceDone:
		p.verdicts[e.Verdict]++
		p.libraries.Add(1)
		p.modules.Add(int64(e.Items))
	case pipeline.StageDone:
		for i, s := range p.stages {
			if s == e.Stage {
				p.stageDone[i].Add(1)
			}
		}
	case pipeline.ItemDone:
		p.done.Add(1)
	}
}

// line renders the state as one plain line.
func (p *progress) line() string {
	el := time.Since(p.start)
	done := p.done.Load()
	rate := float64(done) / max(el.Seconds(), 0.001)
	s := fmt.Sprintf("[%s] files %d found, %d read, modules %d done of %d found (%.0f/s)",
		el.Truncate(time.Second), p.files.Load(), p.libraries.Load(), done, p.modules.Load(), rate)
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

func startBars(p *progress, w io.Writer) *display {
	files := pb.New64(0).SetTemplateString(`{{ "files" | printf "%-10s" }} {{counters . }} {{ speed . "%s/s" }}`).SetWriter(w)
	bars := []*pb.ProgressBar{files}
	stageBars := make([]*pb.ProgressBar, len(p.stages))
	for i, s := range p.stages {
		stageBars[i] = pb.New64(0).SetTemplateString(`{{ "` + s + `" | printf "%-10s" }} {{ bar . }} {{counters . }} {{ speed . "%s/s" }} {{ rtime . "ETA %s" }}`).SetWriter(w).SetMaxWidth(120)
		bars = append(bars, stageBars[i])
	}
	pool, err := pb.StartPool(bars...)
	if err != nil {
		return startLines(p, w, 5*time.Second)
	}
	d := &display{quit: make(chan struct{})}
	update := func() {
		files.SetTotal(p.files.Load())
		files.SetCurrent(p.files.Load())
		for i := range stageBars {
			stageBars[i].SetTotal(p.modules.Load())
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
