package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// refusedFile names a run's list of refused files: refused.jsonl, or
// refused-<shard>.jsonl for a shard.
func refusedFile(shard string) string {
	if shard == "" {
		return "refused.jsonl"
	}
	return "refused-" + shard + ".jsonl"
}

// refusedEntry is one line of refused.jsonl: a file the run met but did not
// turn into rows, and why.
type refusedEntry struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// refusedLog writes, one JSON line per file, every file the walk refused
// (a link leaving the roots, a loop, a special or unreadable file, an
// image or entry refused inside firmware) and every file read but refused
// without a row (too large to scan, unreadable): the per-file account behind
// run.json's refused_reasons. It is written under a temporary dot-name and
// renamed when the run ends, so a reader sees a whole file. Safe for
// concurrent use; a write error is kept and reported by close.
type refusedLog struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	path string
	err  error
}

func openRefusedLog(dir, shard string) (*refusedLog, error) {
	f, err := os.CreateTemp(dir, "."+refusedFile(shard)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &refusedLog{f: f, w: bufio.NewWriter(f), path: filepath.Join(dir, refusedFile(shard))}, nil
}

func (l *refusedLog) add(source, reason string) {
	if l == nil {
		return
	}
	b, err := json.Marshal(refusedEntry{Source: source, Reason: reason})
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = err
	}
	if l.err == nil {
		_, l.err = l.w.Write(append(b, '\n'))
	}
}

// close lands the file under its name.
func (l *refusedLog) close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.err
	if err == nil {
		err = l.w.Flush()
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(l.f.Name(), l.path)
	}
	if err != nil {
		os.Remove(l.f.Name())
	}
	return err
}
