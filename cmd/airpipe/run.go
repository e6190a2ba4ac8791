package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/stages"
)

const runDescription = `Walks every PATH (files and directories, recursively; symbolic links are followed
only while they stay inside the given paths), recognises Metal libraries by their
MTLB magic (not their names), and carries every function of every library through
the stages. Each module lands in exactly one row of OUT/<run_id>/part-*.parquet;
OUT/<run_id>/run.json records the run (arguments, stage versions, file counts,
whether it completed).

Exit status: 0 when the run completed (failed modules are data, not errors);
1 when it was interrupted (Ctrl-C) or results could not be written; 2 for usage
errors and unreadable paths.

Examples:
  airpipe run --out results ../shared/corpus
  airpipe run --jobs 8 --stage-jobs container=2 --timeout 2m --json lib.metallib
  airpipe run --stages container --progress plain ~/firmware/rootfs`

// runOptions are the flags of 'airpipe run'.
type runOptions struct {
	out         string
	jobs        int
	stageJobs   []string
	stages      string
	timeout     time.Duration
	jsonOut     bool
	maxFileSize int64
	progress    string
	runID       string
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fs := newFlags("run", "run [flags] PATH...", runDescription, stdout)
	fs.StringVarP(&o.out, "out", "o", "results", "results directory; the run is written to OUT/<run_id>/")
	fs.IntVarP(&o.jobs, "jobs", "j", runtime.NumCPU(), "workers per stage")
	fs.StringSliceVar(&o.stageJobs, "stage-jobs", nil, "per-stage worker counts, e.g. compile=1,reader=4")
	fs.StringVar(&o.stages, "stages", "all", "comma-separated stages to run (a prefix of the stage list)")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "per-module, per-stage timeout (0: none)")
	fs.BoolVar(&o.jsonOut, "json", false, "print the summary as JSON")
	fs.Int64Var(&o.maxFileSize, "max-file-size", stages.DefaultMaxFileSize, "largest library file read, in bytes")
	fs.StringVar(&o.progress, "progress", "auto", "progress display: auto (bars on a terminal, lines otherwise), bar, plain, none")
	fs.StringVar(&o.runID, "run-id", "", "run id (default: UTC time plus a random suffix)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "airpipe run: no PATH given (see 'airpipe run --help')")
		return 2
	}
	list, err := stages.Select(stages.Default(), o.stages)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: --stages: %v\n", err)
		return 2
	}
	if err := applyStageJobs(list, o.stageJobs); err != nil {
		fmt.Fprintf(stderr, "airpipe run: --stage-jobs: %v\n", err)
		return 2
	}
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(stderr, "airpipe run: %v\n", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return executeRun(ctx, o, list, append([]string{"run"}, args...), fs.Args(), stdout, stderr)
}

// applyStageJobs sets per-stage pool sizes from name=N pairs.
func applyStageJobs(list []pipeline.Stage[*stages.Module], pairs []string) error {
	for _, p := range pairs {
		name, n, ok := strings.Cut(p, "=")
		v, err := strconv.Atoi(n)
		if !ok || err != nil || v < 1 {
			return fmt.Errorf("%q is not STAGE=N with N >= 1", p)
		}
		found := false
		for i := range list {
			if list[i].Name == name {
				list[i].Workers, found = v, true
			}
		}
		if !found {
			return fmt.Errorf("no stage %q in this run", name)
		}
	}
	return nil
}

// newRunID names a run by its start time and a random suffix, so runs sort
// by time and shards started at the same second do not collide.
func newRunID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

func executeRun(ctx context.Context, o runOptions, list []pipeline.Stage[*stages.Module], args, roots []string, stdout, stderr io.Writer) int {
	started := time.Now()
	if o.runID == "" {
		o.runID = newRunID(started)
	}
	host, _ := os.Hostname()
	meta := analytics.RunMeta{
		SchemaVersion: analytics.SchemaVersion, RunID: o.runID, Started: started, Args: args, Host: host,
		ToolVersion: toolVersion(), Stages: stages.Names(list), StageVersions: map[string]string{},
		ToolVersions: map[string]string{"go": runtime.Version()},
	}
	for _, s := range list {
		meta.StageVersions[s.Name] = s.Version
	}
	w, err := analytics.NewWriter(o.out, meta)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 1
	}
	info := stages.RunInfo{ID: o.runID, Started: started, Stages: meta.Stages}
	prog := newProgress(meta.Stages)
	display := startDisplay(o.progress, prog, stderr)

	// The walker goroutine owns the file counts until it returns.
	sources := make(chan corpus.Entry, 16)
	var walk walkTally
	walkErr := make(chan error, 1)
	go func() {
		defer close(sources)
		walkErr <- walk.run(ctx, roots, sources, prog)
	}()

	sum := newSummary(meta.Stages)
	var writeErr error
	engine := &pipeline.Engine[corpus.Entry, *stages.Module]{
		Expand: func(ctx context.Context, e corpus.Entry) []*stages.Module {
			return stages.LoadLibrary(ctx, e, o.maxFileSize)
		},
		Key: stages.Key, Stages: list, Jobs: o.jobs, Timeout: o.timeout,
		Sink: func(d pipeline.Done[*stages.Module]) error {
			row := stages.Record(info, d)
			sum.add(row)
			if writeErr != nil {
				return writeErr
			}
			writeErr = w.Write(row)
			return writeErr
		},
		Progress: prog.observe,
	}
	engineErr := engine.Run(ctx, sources)
	wErr := <-walkErr
	display.stop()

	interrupted := ctx.Err() != nil
	meta.Ended = time.Now()
	meta.Interrupted = interrupted
	meta.Counts = walk.counts(sum, prog.sourcesExpanded())
	meta.Complete = !interrupted && engineErr == nil && wErr == nil
	if err := w.Close(meta); err != nil && engineErr == nil {
		engineErr = err
	}
	status := 0
	switch {
	case engineErr != nil:
		fmt.Fprintf(stderr, "airpipe run: writing results: %v (run marked incomplete)\n", engineErr)
		status = 1
	case wErr != nil && !interrupted:
		fmt.Fprintf(stderr, "airpipe run: %v\n", wErr)
		status = 2
	case interrupted:
		fmt.Fprintf(stderr, "airpipe run: interrupted; %d rows written, run marked incomplete\n", sum.total)
		status = 1
	}
	if err := sum.print(stdout, meta, w.Dir(), o.jsonOut); err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 1
	}
	return status
}

// walkTally counts the files a walk met; one goroutine owns it while the
// walk runs.
type walkTally struct {
	seen, notLibraries, libraries int64
	refused                       map[string]int64
}

func (t *walkTally) run(ctx context.Context, roots []string, out chan<- corpus.Entry, prog *progress) error {
	t.refused = map[string]int64{}
	return corpus.Walk(ctx, roots, func(e corpus.Entry) error {
		t.seen++
		prog.fileSeen()
		if e.Refused != "" {
			t.refused[reasonKey(e.Refused)]++
			return nil
		}
		ok, err := stages.HasLibraryMagic(e.Path)
		if err != nil {
			t.refused["unreadable"]++
			return nil
		}
		if !ok {
			t.notLibraries++
			return nil
		}
		t.libraries++
		select {
		case out <- e:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// reasonKey drops the specifics in parentheses so reasons group.
func reasonKey(reason string) string {
	if i := strings.Index(reason, " ("); i > 0 {
		reason = reason[:i]
	}
	if i := strings.Index(reason, ": "); i > 0 {
		reason = reason[:i]
	}
	return reason
}

// counts completes the file accounting: a file with library magic that
// failed as a whole (a library-level row) is a refused file, with its code.
//
// Libraries the walk handed over but the engine never read (the run was
// interrupted first) are refused files too, under their own reason.
func (t *walkTally) counts(s *summary, expanded int64) analytics.Counts {
	c := analytics.Counts{
		FilesSeen: t.seen, FilesNotLibraries: t.notLibraries,
		RefusedReasons: map[string]int64{}, Modules: s.total,
	}
	for r, n := range t.refused {
		c.RefusedReasons[r] += n
		c.FilesRefused += n
	}
	for code, n := range s.libraryFailures {
		c.RefusedReasons[code] += n
		c.FilesRefused += n
	}
	if unread := t.libraries - expanded; unread > 0 {
		c.RefusedReasons["not read: run interrupted"] += unread
		c.FilesRefused += unread
	}
	c.LibrariesParsed = expanded - s.libraryFailuresTotal()
	return c
}
