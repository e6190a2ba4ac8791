package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
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
1 when it was interrupted (Ctrl-C, SIGTERM) or results could not be written; 2 for
usage errors and unreadable paths; 3 when another process is writing the same run
directory (same --out and --run-id, or a second --resume; shards of one run each
have their own lock); 4 when it found no Metal library (unless --allow-empty).
An interrupted run writes no row for a module whose work it cut short: --resume
runs those again.

Progress (on stderr): the walk runs ahead to discover every file, and each
library file's header declares its function count, so the total is known
as soon as the walk ends (until then, and while Mach-O or firmware files
that declare nothing are unread, it says "found so far" and gives no ETA).
On a terminal: one overall line (modules done of the total, elapsed, rate,
ETA, failures so far) and a bar per stage; otherwise the same as a plain line
every 5 seconds; --progress none for silence.

Examples:
  airpipe run --out results ../shared/corpus
  airpipe run --jobs 8 --stage-jobs container=2 --timeout 2m --format json lib.metallib
  airpipe run --stages container --progress plain ~/firmware/rootfs
  airpipe run --only-failed results --out results     # rerun last night's failures
  airpipe run --library '*angle*' --function '^blit' ../shared/corpus`

// exitEmpty is run's exit status when it found no library to measure.
const exitEmpty = 4

// runOptions are the flags of 'airpipe run'.
type runOptions struct {
	out            string
	jobs           int
	stageJobs      []string
	stages         string
	timeout        time.Duration
	jsonOut        bool
	maxFileSize    int64
	progress       string
	runID          string
	cacheDir       string
	noCache        bool
	shard          string
	resume         string
	checkpoint     time.Duration
	oracle         string
	stageConfig    string
	maxScanSize    int64
	firmwareCache  string
	compileTargets string
	device         string
	referenceCache string
	skipStages     []string
	fusedRefs      bool
	lvpDefaults    bool
	grid           string
	allowEmpty     bool
	readerMemory   int64
	onlyFailed     string
	library        string
	function       string
}

// bindRunFlags declares run's flags into o.
func bindRunFlags(fs *pflag.FlagSet, o *runOptions) {
	fs.StringVarP(&o.out, "out", "o", "results", "results directory; the run is written to OUT/<run_id>/ (-o: deprecated spelling)")
	fs.IntVarP(&o.jobs, "jobs", "j", runtime.NumCPU(), "workers per stage")
	fs.StringSliceVar(&o.stageJobs, "stage-jobs", nil, "per-stage worker counts, e.g. compile=1,reader=4")
	fs.StringVar(&o.stages, "stages", "all", "comma-separated stages to run (a prefix of the stage list)")
	fs.StringSliceVar(&o.skipStages, "skip-stages", nil, "stages to exclude while running the ones after them (status skipped; stage_reached stops there), e.g. emulator on a GPU host without lavapipe")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "per-module, per-stage timeout (0: none)")
	jsonFormatFlag(fs, &o.jsonOut, "summary format: text or json")
	fs.Int64Var(&o.maxFileSize, "max-file-size", stages.DefaultMaxFileSize, "largest library file read, in bytes")
	fs.Int64Var(&o.maxScanSize, "max-scan-size", stages.DefaultMaxScanSize, "largest other file (Mach-O, dyld cache, ...) scanned for embedded libraries and bare modules, in bytes; 0 turns scanning off")
	fs.StringVar(&o.firmwareCache, "firmware-cache", defaultFirmwareCache(), "where files extracted from .ipsw firmware are kept (content-addressed, reused); empty: do not open .ipsw files")
	choiceFlag(fs, &o.progress, "progress", "auto", []string{"auto", "bar", "plain", "none"}, "progress display: auto (bars on a terminal, lines otherwise), bar, plain, none")
	fs.StringVar(&o.runID, "run-id", "", "run id (default: UTC time plus a random suffix); shards of one run share it")
	fs.StringVar(&o.cacheDir, "cache", pipeline.DefaultCacheDir(), "persistent cache of stage outcomes (keyed by bitcode SHA-256, stage versions, tool fingerprints and airpipe's own build)")
	fs.BoolVar(&o.noCache, "no-cache", false, "neither read nor write the cache")
	fs.StringVar(&o.shard, "shard", "", "run shard I/N only (0-based; libraries split by SHA-256); e.g. $JOB_COMPLETION_INDEX/N or $SLURM_ARRAY_TASK_ID/N")
	fs.StringVar(&o.resume, "resume", "", "continue the interrupted run in RUN_DIR with its original arguments; with --shard I/N, that shard of a run whose shards share RUN_DIR")
	fs.StringVar(&o.oracle, "oracle", "", "check the reader against an oracle: llvm-dis (llvm-dis-19 must agree with our printed module)")
	fs.StringVar(&o.stageConfig, "stage-config", "", "JSON file adding exec stages (external tools) or replacing built-in ones; see docs/stages.md")
	fs.StringVar(&o.compileTargets, "compile-targets", strings.Join(device.DefaultTargets, ","), "compile stage targets: radv-<family> (RADV's null device: real AMD ISA, no hardware), lavapipe, or a device name (see 'airpipe devices')")
	fs.StringVar(&o.device, "device", "", "run the device stage on this GPU: auto or a name substring (see 'airpipe devices'); empty: the device stage is unavailable")
	fs.StringVar(&o.referenceCache, "reference-cache", defaultUserCache("references"), "keep CPU reference results here, so a GPU host without LLVM can judge with references computed elsewhere; empty: none")
	fs.StringVar(&o.grid, "grid", "", "dispatch every compute kernel over GROUPS/THREADS, e.g. 2x2x1/2x2x1 (threadgroups per grid / threads per threadgroup; x Y and Z may be left out); empty: by the kernel's position dimensions (16 threads in a line, 4x4, or 4x4x2)")
	fs.BoolVar(&o.lvpDefaults, "lavapipe-defaults", false, "let the emulator's lavapipe compile as it does by default; without it airpipe marks every loop DontUnroll, gives every draw a depth attachment tested with ALWAYS (lavapipe then compiles a fragment shader once, not twice) and sets GALLIVM_PERF=nopt (no LLVM optimisation passes), which computes the same by the SPIR-V and Vulkan specifications in a fraction of the time on loop-heavy kernels")
	fs.BoolVar(&o.fusedRefs, "fused-references", false, "also store, in --reference-cache, the fused-multiply-add reference of every module whose AIR permits contraction (for a GPU host without LLVM)")
	fs.BoolVar(&o.allowEmpty, "allow-empty", false, "exit 0 even when the paths hold no Metal library (by default such a run exits 4 and is marked incomplete)")
	fs.Int64Var(&o.readerMemory, "reader-memory", stages.DefaultReaderMemory, "the reader's memory budget per module, in bytes: a module whose estimated cost (128 bytes per bitcode byte plus 1 MiB) exceeds it fails as reader/over-budget without being read")
	fs.StringVar(&o.onlyFailed, "only-failed", "", "carry only the modules that failed in this previous run (a run directory, or a results directory's latest complete run), matched by library SHA-256 and function; with no PATH, the previous run's paths are walked")
	fs.StringVar(&o.library, "library", "", "carry only libraries whose path (as the rows' source shows it) or base name matches this glob, e.g. '*angle*.metallib'")
	fs.StringVar(&o.function, "function", "", "carry only functions whose name matches this regular expression (RE2, unanchored), e.g. '^blit'")
	fs.DurationVar(&o.checkpoint, "checkpoint", 10*time.Second, "land written rows in a part file at least this often (a kill loses at most this much work)")
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fs := newFlags("run", "run [flags] PATH...", runDescription, stdout)
	bindRunFlags(fs, &o)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	warnOldShorthand("run", args, stderr)
	if o.resume != "" {
		return resumeRun(o, stdout, stderr)
	}
	runArgs, roots, err := resolveOnlyFailed(&o, append([]string{"run"}, args...), fs.Args(), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 2
	}
	if len(roots) == 0 {
		fmt.Fprintln(stderr, "airpipe run: no PATH given (see 'airpipe run --help')")
		return 2
	}
	list, err := buildStages(o)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 2
	}
	if err := checkRoots(roots); err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sh, err := parseShard(o.shard)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: --shard: %v\n", err)
		return 2
	}
	return executeRun(ctx, o, runPlan{list: list, args: runArgs, roots: roots, shard: sh}, stdout, stderr)
}

// buildStages makes the run's stage list from the options: the built-in
// stages, the --stage-config changes, the --stages selection and the
// --stage-jobs pool sizes, in that order.
func buildStages(o runOptions) ([]pipeline.Stage[*stages.Module], error) {
	switch o.oracle {
	case "", "llvm-dis":
	default:
		return nil, fmt.Errorf("--oracle %q: the only oracle is llvm-dis", o.oracle)
	}
	targets, err := device.ParseTargets(o.compileTargets)
	if err != nil {
		return nil, fmt.Errorf("--compile-targets: %w", err)
	}
	child, err := childArgv(compileChildCommand)
	if err != nil {
		return nil, err
	}
	emuChild, err := childArgv(emulatorChildCommand)
	if err != nil {
		return nil, err
	}
	llvmChild, err := childArgv(llvmChildCommand)
	if err != nil {
		return nil, err
	}
	cpuref.UseLLVMChildren(llvmChild)
	grid, err := parseGrid(o.grid)
	if err != nil {
		return nil, fmt.Errorf("--grid: %w", err)
	}
	list := stages.Default(stages.Options{Oracle: o.oracle, ReaderMemory: o.readerMemory,
		Compile:  stages.CompileOptions{Targets: targets, ChildArgv: child, Timeout: o.timeout},
		Emulator: stages.EmulatorOptions{ChildArgv: emuChild, ReferenceCache: o.referenceCache, PrecomputeFused: o.fusedRefs, Timeout: o.timeout, Grid: grid, LavapipeDefaults: o.lvpDefaults},
		Device:   stages.DeviceOptions{Device: o.device, ChildArgv: emuChild, ReferenceCache: o.referenceCache, Timeout: o.timeout, Grid: grid},
	})
	if o.stageConfig != "" {
		var err error
		if list, err = stages.ApplyConfig(list, o.stageConfig); err != nil {
			return nil, fmt.Errorf("--stage-config: %w", err)
		}
	}
	list, err = stages.Select(list, o.stages)
	if err != nil {
		return nil, fmt.Errorf("--stages: %w", err)
	}
	if err := applyStageJobs(list, o.stageJobs); err != nil {
		return nil, fmt.Errorf("--stage-jobs: %w", err)
	}
	if err := skipStages(list, o.skipStages); err != nil {
		return nil, fmt.Errorf("--skip-stages: %w", err)
	}
	return list, nil
}

// skipStages replaces the named stages' work with a skipped outcome.
func skipStages(list []pipeline.Stage[*stages.Module], names []string) error {
	for _, n := range names {
		i := slices.IndexFunc(list, func(s pipeline.Stage[*stages.Module]) bool { return s.Name == n })
		switch {
		case i < 0:
			return fmt.Errorf("no stage %q in this run", n)
		case list[i].PerOccurrence:
			return fmt.Errorf("stage %q reads the library for every later stage and cannot be skipped", n)
		}
		list[i].Version = "skipped"
		list[i].Run = func(context.Context, *stages.Module) pipeline.Result {
			return pipeline.Result{Status: pipeline.Skipped, Message: "excluded by --skip-stages"}
		}
	}
	return nil
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

// defaultFirmwareCache is the extraction cache under the user cache directory.
func defaultFirmwareCache() string { return defaultUserCache("firmware") }

// defaultUserCache is airpipe's directory name under the user cache directory.
func defaultUserCache(name string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "airpipe", name)
}

// newRunID names a run by its start time and a random suffix, so runs sort
// by time and shards started at the same second do not collide.
func newRunID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// runPlan is everything executeRun needs beyond the options: the stage
// list, the roots, and for a resumed run its writer and finished rows.
type runPlan struct {
	list  []pipeline.Stage[*stages.Module]
	args  []string
	roots []string
	shard shard
	// writer and done are set when resuming.
	writer *analytics.Writer
	done   []analytics.Row
}

func executeRun(ctx context.Context, o runOptions, plan runPlan, stdout, stderr io.Writer) int {
	started := time.Now()
	sel, err := newSelection(o)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 2
	}
	var notSelected atomic.Int64
	w := plan.writer
	var meta analytics.RunMeta
	if w == nil {
		if o.runID == "" {
			o.runID = newRunID(started)
		}
		host, _ := os.Hostname()
		meta = analytics.RunMeta{
			SchemaVersion: analytics.SchemaVersion, RunID: o.runID, Shard: plan.shard.name(), Started: started, Args: plan.args, Roots: plan.roots, Host: host,
			ToolVersion: toolVersion(), Build: buildIdentity(), Stages: stages.Names(plan.list), StageVersions: map[string]string{},
			ToolVersions: toolVersions(ctx, slices.Contains(stages.Names(plan.list), "compile")),
		}
		meta.ToolVersions["go"] = runtime.Version()
		for _, s := range plan.list {
			meta.StageVersions[s.Name] = s.Version
		}
		lock, err := lockNewRun(o.out, o.runID, meta.Shard)
		if err != nil {
			return lockRefused(stderr, "airpipe run", err)
		}
		defer lock.release()
		if w, err = analytics.NewWriter(o.out, meta); err != nil {
			fmt.Fprintf(stderr, "airpipe run: %v\n", err)
			return 1
		}
	} else {
		meta = w.Meta()
		started = meta.Started
	}
	info := stages.RunInfo{ID: meta.RunID, Started: started, Stages: meta.Stages}
	prog := newProgress(meta.Stages)
	display := startDisplay(o.progress, prog, stderr)

	// Modules already written by an interrupted run are not run again.
	sum := newSummary(meta.Stages)
	finished := map[moduleID]bool{}
	for _, r := range plan.done {
		finished[moduleID{r.Source, r.FunctionIndex}] = true
		sum.add(r)
	}

	// The walker goroutine owns the file counts until it returns.
	found := make(chan corpus.Entry, 16)
	walk := walkTally{shard: plan.shard}
	if o.firmwareCache != "" {
		walk.opts.FirmwareCache = o.firmwareCache
	}
	refused, err := openRefusedLog(w.Dir(), meta.Shard)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 1
	}
	walk.log = refused
	// The run's own output and caches are never its input (issue 21).
	walk.opts.Exclude = []string{o.out, w.Dir(), o.firmwareCache, o.referenceCache}
	if !o.noCache {
		walk.opts.Exclude = append(walk.opts.Exclude, o.cacheDir)
	}
	walkErr := make(chan error, 1)
	go func() {
		defer close(found)
		err := walk.run(ctx, plan.roots, found, prog)
		prog.walkDone()
		walkErr <- err
	}()
	// The walk runs ahead of the engine (discovery), so the number of
	// files is known early; the engine takes them at its own pace.
	sources := relay(ctx, found)

	var cache pipeline.Cache
	var dirCache *pipeline.DirCache
	refsRefused := stages.ReferenceCacheRefused()
	if !o.noCache && o.cacheDir != "" {
		dc, err := pipeline.OpenDirCache(o.cacheDir)
		if err != nil {
			fmt.Fprintf(stderr, "airpipe run: %v (continuing without a cache)\n", err)
		} else {
			cache, dirCache = dc, dc
		}
	}
	var writeErr error
	var cut int64 // modules the interruption cut short (no row)
	lastFlush := time.Now()
	engine := &pipeline.Engine[corpus.Entry, *stages.Module]{
		Expand: func(ctx context.Context, e corpus.Entry) pipeline.Expansion[*stages.Module] {
			x := stages.LoadSource(ctx, e, stages.LoadOptions{MaxFileSize: o.maxFileSize, MaxScanSize: o.maxScanSize})
			if code, ok := strings.CutPrefix(x.Verdict, stages.VerdictRefusedPrefix); ok {
				refused.add(e.Provenance, code)
			}
			if len(finished) == 0 && sel.all() {
				prog.expanded(e, len(x.Items))
				return x
			}
			defer func() { prog.expanded(e, len(x.Items)) }()
			keep := x.Items[:0]
			for _, m := range x.Items {
				switch {
				case !sel.keep(m):
					notSelected.Add(1)
				case !finished[moduleID{m.Library.Source, int32(m.Index)}]:
					keep = append(keep, m)
				}
			}
			x.Items = keep
			return x
		},
		Key: stages.Key, Stages: plan.list, Jobs: o.jobs, Timeout: o.timeout, Cache: cache,
		CacheSalt: fingerprint(meta.ToolVersions) + "device=" + o.device + ";grid=" + o.grid + ";lavapipe-defaults=" + strconv.FormatBool(o.lvpDefaults),
		Sink: func(d pipeline.Done[*stages.Module]) error {
			if cutShort(d.Results) {
				cut++
				return nil
			}
			row := stages.Record(info, d)
			sum.add(row)
			if (d.Cached || d.Shared) && d.Ran == 0 {
				sum.reused++
			}
			if writeErr != nil {
				return writeErr
			}
			if writeErr = w.Write(row); writeErr == nil && time.Since(lastFlush) > o.checkpoint {
				writeErr, lastFlush = w.Flush(), time.Now()
			}
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
	meta.Counts = walk.counts(sum, prog)
	meta.Counts.ModulesNotSelected = notSelected.Load()
	meta.Counts.CacheEntriesRefused = stages.ReferenceCacheRefused() - refsRefused
	if dirCache != nil {
		meta.Counts.CacheEntriesRefused += dirCache.Damaged()
	}
	if n := meta.Counts.CacheEntriesRefused; n > 0 {
		fmt.Fprintf(stderr, "airpipe run: %d cache entries refused as damaged (links, special files, oversized or failing their checksum); recomputed, never reused\n", n)
	}
	if err := refused.close(); err != nil && engineErr == nil {
		engineErr = fmt.Errorf("list of refused files: %w", err)
	}
	meta.Complete = !interrupted && engineErr == nil && wErr == nil
	// Rows saying a *.metallib holds no library are no library found.
	empty := meta.Complete && !o.allowEmpty && meta.Counts.LibrariesParsed == 0 && sum.total == sum.libraryFailures[string(codes.ContainerNotALibrary)]
	selectedNone := meta.Complete && !o.allowEmpty && !empty && !sel.all() && sum.total == 0
	if empty || selectedNone {
		// A run over nothing is no evidence: never passed off as complete.
		meta.Complete = false
	}
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
		fmt.Fprintf(stderr, "airpipe run: interrupted; %d rows written (%d modules cut short get no row), run marked incomplete; continue with: airpipe run --resume %s\n", sum.total, cut, w.Dir())
		status = 1
	case empty:
		fmt.Fprintf(stderr, "airpipe run: found no Metal library under %s (%d files seen: %d not libraries, %d refused); run marked incomplete; pass --allow-empty if that is expected\n",
			strings.Join(plan.roots, ", "), meta.Counts.FilesSeen, meta.Counts.FilesNotLibraries, meta.Counts.FilesRefused)
		status = exitEmpty
	case selectedNone:
		fmt.Fprintf(stderr, "airpipe run: the selection (--only-failed, --library, --function) kept none of the %d modules found; run marked incomplete; pass --allow-empty if that is expected\n", meta.Counts.ModulesNotSelected)
		status = exitEmpty
	}
	if err := sum.print(stdout, meta, w.Dir(), o.jsonOut); err != nil {
		fmt.Fprintf(stderr, "airpipe run: %v\n", err)
		return 1
	}
	return status
}

// relay passes entries from in to the returned channel in order, queueing
// without bound so the sender never waits for the receiver. It closes its
// output when in is closed and drained, or when ctx ends.
func relay(ctx context.Context, in <-chan corpus.Entry) <-chan corpus.Entry {
	out := make(chan corpus.Entry)
	go func() {
		defer close(out)
		var queue []corpus.Entry
		for in != nil || len(queue) > 0 {
			var send chan corpus.Entry
			var next corpus.Entry
			if len(queue) > 0 {
				send, next = out, queue[0]
			}
			select {
			case e, ok := <-in:
				if !ok {
					in = nil
					continue
				}
				queue = append(queue, e)
			case send <- next:
				queue = queue[1:]
			case <-ctx.Done():
				for range in {
				}
				return
			}
		}
	}()
	return out
}

// checkRoots refuses a path that cannot be read: one missing, a file that
// does not open, a directory whose entries cannot be listed.
func checkRoots(roots []string) error {
	for _, p := range roots {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			continue // a FIFO or device would block an open: the walk refuses it by name
		}
		f, err := os.Open(p)
		if err != nil {
			return fmt.Errorf("%s: unreadable: %w", p, err)
		}
		if fi.IsDir() {
			if _, err = f.ReadDir(1); err == io.EOF {
				err = nil
			}
		}
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: unreadable: %w", p, err)
		}
	}
	return nil
}

// cutShort reports whether an interruption cut the module's work short: a
// stage was cancelled. Such a module gets no row, so --resume runs it.
func cutShort(results []pipeline.Result) bool {
	for _, r := range results {
		if r.Code == pipeline.CodeCancelled {
			return true
		}
	}
	return false
}

// moduleID identifies a module occurrence within a run.
type moduleID struct {
	source string
	index  int32
}
