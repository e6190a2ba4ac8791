package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepStartTemps: a start temporary whose lock is free (its process
// died) is removed, one whose lock is held stays, a lockless one stays
// while young and goes once older than staleTempAge; other runs' are not
// touched.
func TestSweepStartTemps(t *testing.T) {
	out := t.TempDir()
	mk := func(name string, withLock bool) string {
		d := filepath.Join(out, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if withLock {
			if err := os.WriteFile(filepath.Join(d, lockFileName("")), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	dead := mk(".r.tmp-1", true)
	held := mk(".r.tmp-2", true)
	l, err := tryLock(held, filepath.Join(held, lockFileName("")))
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	young := mk(".r.tmp-3", false)
	old := mk(".r.tmp-4", false)
	past := time.Now().Add(-2 * staleTempAge)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	other := mk(".s.tmp-1", true)
	sweepStartTemps(out, "r", "")
	for _, c := range []struct {
		dir  string
		stay bool
	}{{dead, false}, {held, true}, {young, true}, {old, false}, {other, true}} {
		_, err := os.Stat(c.dir)
		if (err == nil) != c.stay {
			t.Errorf("%s: present %v, want %v", filepath.Base(c.dir), err == nil, c.stay)
		}
	}
}
