package main

import (
	"context"
	"strings"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/internal/filehash"
	"github.com/airpipe/airpipe/stages"
)

// walkTally counts the files a walk met; one goroutine owns it while the
// walk runs. Under --shard it counts only the files its shard owns.
type walkTally struct {
	shard        shard
	opts         corpus.Options
	seen, handed int64
	refused      map[string]int64
	// log, when set, lists each refused file.
	log *refusedLog
}

func (t *walkTally) run(ctx context.Context, roots []string, out chan<- corpus.Entry, prog *progress) error {
	t.refused = map[string]int64{}
	return corpus.WalkWith(ctx, roots, t.opts, func(e corpus.Entry) error {
		owner := e.Provenance
		if e.Refused == "" && t.shard.n > 1 {
			// Libraries split by content, so identical copies share a shard.
			if lib, err := stages.LibraryMagic(e.Path); err == nil && lib {
				if sum, err := filehash.SHA256(e.Path); err == nil {
					owner = sum
				}
			}
		}
		if !t.shard.owns(owner) {
			return nil
		}
		t.seen++
		prog.fileSeen()
		if e.Refused != "" {
			t.refused[reasonKey(e.Refused)]++
			t.log.add(e.Provenance, e.Refused)
			return nil
		}
		t.handed++
		prog.fileHanded(e)
		select {
		case out <- e:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// reasonKey drops the specifics after the reason so that reasons group.
func reasonKey(reason string) string {
	if i := strings.Index(reason, " ("); i > 0 {
		reason = reason[:i]
	}
	if i := strings.Index(reason, ": "); i > 0 {
		reason = reason[:i]
	}
	return reason
}

// counts completes the file accounting from the walk, the engine's
// verdicts on the files it read, and the rows: a library file that failed
// as a whole (its library-level row) is a refused file, under its code;
// files the walk handed over but the engine never read (the run was
// interrupted first) are refused under their own reason.
func (t *walkTally) counts(s *summary, p *progress) analytics.Counts {
	c := analytics.Counts{FilesSeen: t.seen, RefusedReasons: map[string]int64{}, Modules: s.total}
	refuse := func(reason string, n int64) {
		if n > 0 {
			c.RefusedReasons[reason] += n
			c.FilesRefused += n
		}
	}
	for r, n := range t.refused {
		refuse(r, n)
	}
	var read int64
	for v, n := range p.verdictCounts() {
		read += n
		switch {
		case v == stages.VerdictLibrary, v == stages.VerdictContainer:
			c.LibrariesParsed += n
		case v == stages.VerdictNotLibrary:
			c.FilesNotLibraries += n
		case strings.HasPrefix(v, stages.VerdictRefusedPrefix):
			refuse(strings.TrimPrefix(v, stages.VerdictRefusedPrefix), n)
		default:
			refuse("verdict "+v, n)
		}
	}
	for code, n := range s.libraryFailures {
		refuse(code, n)
		c.LibrariesParsed -= n
	}
	refuse("not read: run interrupted", t.handed-read)
	return c
}
