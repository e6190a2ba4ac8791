package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// exitLocked is run's exit status when another process is writing the run
// directory (or this shard of it).
const exitLocked = 3

// runLock is the advisory lock (flock) one writer holds on a run directory
// for as long as it writes there: .lock in the run directory, .lock-<shard>
// for a shard, so shards of one run write side by side by design. The lock
// file holds the writer's pid, host and start time, for the refusal.
type runLock struct{ f *os.File }

// lockFileName is the lock file of a shard ("" unsharded).
func lockFileName(shard string) string {
	if shard == "" {
		return ".lock"
	}
	return ".lock-" + shard
}

// errRunLocked is a refusal: another process holds the run's lock.
type errRunLocked struct {
	dir, holder string
}

func (e *errRunLocked) Error() string {
	holder := strings.TrimSpace(e.holder)
	if holder == "" {
		holder = "holder unknown"
	}
	return fmt.Sprintf("%s is being written by another airpipe (%s): one writer per run directory; wait for it to end, or stop it and continue with --resume %s", e.dir, holder, e.dir)
}

// lockRefused reports err, a run lock that could not be taken, on stderr
// after the command's name cmd, and returns the command's exit status:
// exitLocked when another process holds the lock, else 1.
func lockRefused(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	var locked *errRunLocked
	if errors.As(err, &locked) {
		return exitLocked
	}
	return 1
}

// tryLock takes the lock file at path without waiting.
func tryLock(dir, path string) (*runLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &errRunLocked{dir: dir, holder: string(b)}
		}
		return nil, fmt.Errorf("run lock %s: %w", path, err)
	}
	host, _ := os.Hostname()
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	}
	return &runLock{f: f}, nil
}

// lockRunDir takes the lock of an existing run directory (a resume).
func lockRunDir(dir, shard string) (*runLock, error) {
	return tryLock(dir, filepath.Join(dir, lockFileName(shard)))
}

// lockNewRun takes the lock of OUT/<runID> before the run's writer starts.
// A directory that does not exist yet is made under a temporary name with
// the lock already held inside and renamed into place, so two processes
// starting the same run at once cannot both hold it; an existing directory
// (another shard's, or a run already there) is locked in place.
func lockNewRun(out, runID, shard string) (*runLock, error) {
	dir := filepath.Join(out, runID)
	if _, err := os.Lstat(dir); err == nil {
		return lockRunDir(dir, shard)
	}
	if strings.ContainsAny(runID, `/\`) || runID == "" || strings.HasPrefix(runID, ".") {
		// Not a directory name: the writer refuses it by name.
		return &runLock{}, nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	sweepStartTemps(out, runID, shard)
	tmp, err := os.MkdirTemp(out, "."+runID+".tmp-")
	if err != nil {
		return nil, err
	}
	l, err := tryLock(dir, filepath.Join(tmp, lockFileName(shard)))
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		if err = os.Rename(tmp, dir); err == nil {
			return l, nil
		}
	}
	l.release()
	os.RemoveAll(tmp)
	if _, serr := os.Lstat(dir); serr == nil {
		// Another process made the directory first: lock it in place.
		return lockRunDir(dir, shard)
	}
	return nil, err
}

// staleTempAge is how old a lockless start temporary must be before a new
// run removes it: younger ones may belong to a process starting right now.
const staleTempAge = time.Minute

// sweepStartTemps removes what runs of runID killed while starting left in
// out: the hidden directory each prepares its run directory in
// (.RUNID.tmp-*, which no reader lists). One whose lock file a new lock
// can take belonged to a dead process; one without a lock file is removed
// once older than staleTempAge.
func sweepStartTemps(out, runID, shard string) {
	temps, _ := filepath.Glob(filepath.Join(out, "."+runID+".tmp-*"))
	for _, tmp := range temps {
		fi, err := os.Lstat(tmp)
		if err != nil || !fi.IsDir() {
			continue
		}
		lock := filepath.Join(tmp, lockFileName(shard))
		if _, err := os.Lstat(lock); err != nil {
			if time.Since(fi.ModTime()) > staleTempAge {
				os.RemoveAll(tmp)
			}
			continue
		}
		if l, err := tryLock(tmp, lock); err == nil {
			l.release()
			os.RemoveAll(tmp)
		}
	}
}

// release drops the lock (the lock file stays: removing it would let a
// later writer lock a file another has already opened).
func (l *runLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
