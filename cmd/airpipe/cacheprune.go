package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/airpipe/airpipe/compiler/cpuref/refcache"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/sealed"
	"github.com/airpipe/airpipe/pipeline"
)

const cacheDescription = `Removes from the stage cache (--cache) and the reference cache (--reference-cache)
every entry that this build of airpipe does not read: the entries other builds wrote
(every cache key includes the build — its clean VCS commit, else the executable's
SHA-256 — so after an upgrade the old build's entries are never read again, and
nothing else removes them; the reference cache grows by some 2.5 GB per build over
../shared/corpus), and entries that are damaged. Temporary files left by a writer
killed over a day ago go too. Nothing else in the directories is touched.

Run it with the build that the nightly runs use: entries of any other build sharing
the directories are removed (that build computes them again). --dry-run only counts.

Examples:
  airpipe cache prune --dry-run
  airpipe cache prune
  airpipe cache prune --cache /var/cache/airpipe/stages --reference-cache /var/cache/airpipe/references`

func cacheCmd(args []string, stdout, stderr io.Writer) int {
	var cacheDir, refDir string
	var dryRun bool
	fs := newFlags("cache", "cache prune [--cache DIR] [--reference-cache DIR] [--dry-run]", cacheDescription, stdout)
	fs.StringVar(&cacheDir, "cache", pipeline.DefaultCacheDir(), "the stage cache to prune (as 'run --cache'); empty: leave it")
	fs.StringVar(&refDir, "reference-cache", defaultUserCache("references"), "the reference cache to prune (as 'run --reference-cache'); empty: leave it")
	fs.BoolVar(&dryRun, "dry-run", false, "count what would be removed, remove nothing")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 || fs.Arg(0) != "prune" {
		fmt.Fprintln(stderr, "airpipe cache: want the one action prune (see 'airpipe cache --help')")
		return 2
	}
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	code := 0
	report := func(name, dir string, p sealed.Pruned, err error) {
		if err != nil {
			fmt.Fprintf(stderr, "airpipe cache prune: %s %s: %v (after %d removed)\n", name, dir, err, p.Removed+p.Temporary)
			code = 1
			return
		}
		fmt.Fprintf(stdout, "%s %s: kept %d entries (%s), %s %d entries and %d temporary files (%s)\n",
			name, dir, p.Kept, megabytes(p.KeptBytes), verb, p.Removed, p.Temporary, megabytes(p.RemovedBytes))
	}
	if cacheDir != "" {
		p, err := pruneStages(cacheDir, dryRun)
		report("stage cache", cacheDir, p, err)
	}
	if refDir != "" {
		p, err := refcache.Dir(refDir).Prune(harness.OfThisBuild, dryRun)
		report("reference cache", refDir, p, err)
	}
	return code
}

// pruneStages prunes the stage cache in dir, which is not created when
// missing.
func pruneStages(dir string, dryRun bool) (sealed.Pruned, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return sealed.Pruned{}, nil
	}
	c, err := pipeline.OpenDirCache(dir)
	if err != nil {
		return sealed.Pruned{}, err
	}
	return c.Prune(dryRun)
}

// megabytes is n bytes in MB, one decimal.
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
