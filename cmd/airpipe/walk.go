package main

import (
	"context"
	"strings"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/stages"
)

// walkTally counts the files a walk met; one goroutine owns it while the
// walk runs. Under --shard it counts only the files its shard owns.
type walkTally struct {
	shard                         shard
	seen, notLibraries, libraries int64
	refused                       map[string]int64
}

func (t *walkTally) run(ctx context.Context, roots []string, out chan<- corpus.Entry, prog *progress) error {
	t.refused = map[string]int64{}
	return corpus.Walk(ctx, roots, func(e corpus.Entry) error {
		if e.Refused != "" {
			if t.shard.owns(e.Provenance) {
				t.seen++
				prog.fileSeen()
				t.refused[reasonKey(e.Refused)]++
			}
			return nil
		}
		ok, err := stages.HasLibraryMagic(e.Path)
		owner := e.Provenance
		if err == nil && ok && t.shard.n > 1 {
			// Libraries split by content, so identical copies share a shard.
			if owner, err = fileSHA256(e.Path); err != nil {
				owner = e.Provenance
			}
		}
		if !t.shard.owns(owner) {
			return nil
		}
		t.seen++
		prog.fileSeen()
		switch {
		case err != nil:
			t.refused["unreadable"]++
			return nil
		case !ok:
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

// counts completes the file accounting: a file with library magic that
// failed as a whole (a library-level row) is a refused file, with its code.
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
	c.LibrariesParsed = t.libraries - c.RefusedReasons["not read: run interrupted"] - s.libraryFailuresTotal()
	return c
}
