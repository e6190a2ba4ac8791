package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/pipeline"
)

// shardMetaName is the run metadata file of a shard (run.json unsharded),
// as analytics writes it.
func shardMetaName(name string) string {
	if name == "" {
		return "run.json"
	}
	return "run-" + name + ".json"
}

// resumeRun continues an interrupted run: the same arguments, the same run
// id and shard, the rows already landed kept, every other module run. In a
// directory the shards of one run share, --shard I/N picks the shard to
// resume in place (its run-IofN.json, parts and lock; the other shards'
// files are not touched, and may be written meanwhile).
func resumeRun(o runOptions, stdout, stderr io.Writer) int {
	dir := o.resume
	want, err := parseShard(o.shard)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run --resume: --shard: %v\n", err)
		return 2
	}
	metas, _ := filepath.Glob(filepath.Join(dir, "run*.json"))
	metaPath := ""
	switch {
	case o.shard != "":
		metaPath = filepath.Join(dir, shardMetaName(want.name()))
		if _, err := os.Lstat(metaPath); err != nil {
			fmt.Fprintf(stderr, "airpipe run --resume: %s holds no %s: shard %s of this run never started here (start it with run --shard %s and the run's --run-id)\n", dir, filepath.Base(metaPath), o.shard, o.shard)
			return 2
		}
	case len(metas) == 1:
		metaPath = metas[0]
	case len(metas) == 0:
		fmt.Fprintf(stderr, "airpipe run --resume: %s holds no run*.json: not a run directory\n", dir)
		return 2
	default:
		var names []string
		for _, m := range metas {
			names = append(names, filepath.Base(m))
		}
		fmt.Fprintf(stderr, "airpipe run --resume: %s holds the shards %s of one run: resume one shard in place with --resume %s --shard I/N\n", dir, strings.Join(names, ", "), dir)
		return 2
	}
	var prev analytics.RunMeta
	b, err := os.ReadFile(metaPath)
	if err == nil {
		err = json.Unmarshal(b, &prev)
	}
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run --resume: %s: %v\n", metaPath, err)
		return 2
	}
	// Re-read the original arguments, without --resume itself.
	var orig runOptions
	fs := newFlags("run", "run", "", io.Discard)
	bindRunFlags(fs, &orig)
	if len(prev.Args) < 1 || fs.Parse(prev.Args[1:]) != nil || fs.NArg() == 0 {
		fmt.Fprintf(stderr, "airpipe run --resume: %s: cannot re-read the original arguments %q\n", dir, prev.Args)
		return 2
	}
	orig.progress, orig.jsonOut = o.progress, o.jsonOut
	list, err := buildStages(orig)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run --resume: %v\n", err)
		return 2
	}
	for _, s := range list {
		if v, ok := prev.StageVersions[s.Name]; ok && v != s.Version {
			fmt.Fprintf(stderr, "airpipe run --resume: stage %s is version %s here but %s in the run; start a new run instead\n", s.Name, s.Version, v)
			return 2
		}
	}
	sh, err := parseShard(orig.shard)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run --resume: %v\n", err)
		return 2
	}
	if sh.name() != prev.Shard || (o.shard != "" && sh != want) {
		fmt.Fprintf(stderr, "airpipe run --resume: %s was written by shard %q (its arguments say --shard %q), not the shard asked for (%q)\n", metaPath, prev.Shard, orig.shard, o.shard)
		return 2
	}
	if err := checkRoots(fs.Args()); err != nil {
		fmt.Fprintf(stderr, "airpipe run --resume: %v\n", err)
		return 2
	}
	// One writer per run directory: a second resume (or the run itself,
	// still going) holds the lock.
	lock, err := lockRunDir(dir, sh.name())
	if err != nil {
		return lockRefused(stderr, "airpipe run --resume", err)
	}
	defer lock.release()
	w, done, notes, err := analytics.ResumeWriter(dir, sh.name(), 0)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe run --resume: %v\n", err)
		return 1
	}
	// An older airpipe wrote the rows of modules an interruption cut short;
	// they sit in landed parts, so this resume cannot redo them in place.
	if n := countCutShort(done); n > 0 {
		fmt.Fprintf(stderr, "airpipe run --resume: %s holds %d rows cut short by an interruption (failure code %s, written by an older airpipe); they cannot be redone in place: start a new run\n", dir, n, pipeline.CodeCancelled)
		return 2
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "airpipe run --resume: %s\n", n)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return executeRun(ctx, orig, runPlan{list: list, args: prev.Args, roots: fs.Args(), shard: sh, writer: w, done: done}, stdout, stderr)
}

// countCutShort counts landed rows whose work an interruption cut short.
func countCutShort(rows []analytics.Row) int {
	n := 0
	for _, r := range rows {
		if r.FailureCode == string(pipeline.CodeCancelled) {
			n++
		}
	}
	return n
}
