package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
)

// gate is an exec stage that holds one module (the kernel "scale") in
// flight until the test lets it go, the first time only: it says so on the
// FIFO ready, then waits on the FIFO release. Every later call, and every
// other module, passes at once.
type gate struct {
	cfg, ready, release, once string
}

func newGate(t *testing.T) *gate {
	t.Helper()
	dir := t.TempDir()
	g := &gate{cfg: filepath.Join(dir, "stages.json"), ready: filepath.Join(dir, "ready"),
		release: filepath.Join(dir, "release"), once: filepath.Join(dir, "once")}
	for _, f := range []string{g.ready, g.release} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(dir, "gate.sh")
	body := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = scale ] && mkdir %q 2>/dev/null; then\n  echo held > %q\n  read x < %q\nfi\nexit 0\n", g.once, g.ready, g.release)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"stages": [{"name": "gate", "after": "container", "command": ["` + script + `", "{function}"], "timeout": "5m"}]}`
	if err := os.WriteFile(g.cfg, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return g
}

// awaitHeld blocks until the gate holds its module, or the child exits.
func (g *gate) awaitHeld(t *testing.T, exited <-chan error) {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(g.ready) // blocks until the gate opens it
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		line, _ := bufio.NewReader(f).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		if strings.TrimSpace(line) != "held" {
			t.Fatalf("gate said %q", line)
		}
	case err := <-exited:
		t.Fatalf("the run ended (%v) before the gate held a module", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the gate never held a module")
	}
}

// letGo releases the held module.
func (g *gate) letGo(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile(g.release, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "go")
	f.Close()
}

// startChild starts the built airpipe with args; its exit arrives once on
// the channel returned. A child still running when the test ends is killed.
func startChild(t *testing.T, stderr *strings.Builder, args ...string) (*exec.Cmd, <-chan error) {
	t.Helper()
	cmd := exec.Command(buildAirpipe(t), args...)
	cmd.Stderr = stderr
	// A gate script orphaned by a failed test must not hold Wait forever.
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		err := cmd.Wait()
		close(done)
		exited <- err
	}()
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return cmd, exited
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// gatedCorpus is a few copies of the sample libraries.
func gatedCorpus(t *testing.T) string { return bigCorpus(t, 6) }

// TestInterruptThenResumeRedoesCutShort: SIGINT while a module is in a
// stage, then --resume, gives exactly the rows of an uninterrupted run: the
// module the interruption cut short gets no row, and the resume runs it.
func TestInterruptThenResumeRedoesCutShort(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a child")
	}
	g := newGate(t)
	root := gatedCorpus(t)
	args := []string{"--progress", "none", "--no-cache", "--jobs", "2", "--stage-config", g.cfg, "--stages", "container,gate,reader"}

	// The reference: the gate already opened once, so nothing is held.
	if err := os.Mkdir(g.once, 0o755); err != nil {
		t.Fatal(err)
	}
	refOut := t.TempDir()
	runOK(t, append(append([]string{"run", "--out", refOut}, args...), root)...)
	_, refRows, err := analytics.ReadRun(onlyRun(t, refOut))
	if err != nil {
		t.Fatal(err)
	}
	want := rowSet(t, refRows)
	if err := os.Remove(g.once); err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	var stderr strings.Builder
	cmd, exited := startChild(t, &stderr, append(append([]string{"run", "--out", out, "--run-id", "int"}, args...), root)...)
	g.awaitHeld(t, exited)
	_ = cmd.Process.Signal(os.Interrupt)
	if code := exitCode(<-exited); code != 1 {
		t.Fatalf("interrupted run exit %d, want 1; stderr %s", code, stderr.String())
	}
	dir := filepath.Join(out, "int")
	meta, rows, err := analytics.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Complete || !meta.Interrupted {
		t.Errorf("run.json: complete %v interrupted %v", meta.Complete, meta.Interrupted)
	}
	for _, r := range rows {
		if r.FailureCode == "cancelled" {
			t.Errorf("row %s!%s landed as cancelled: %s", r.Source, r.Function, r.FailureMessage)
		}
	}
	if len(rows) >= len(want) || !strings.Contains(stderr.String(), "cut short") {
		t.Errorf("%d of %d rows landed after the interrupt; stderr %s", len(rows), len(want), stderr.String())
	}
	var so, se strings.Builder
	if code := run([]string{"run", "--resume", dir, "--progress", "none"}, &so, &se); code != 0 {
		t.Fatalf("resume exit %d: %s", code, se.String())
	}
	meta, rows, err = analytics.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Complete {
		t.Error("resumed run not complete")
	}
	if got := rowSet(t, rows); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resumed rows differ from an uninterrupted run:\n got %d rows: %s\nwant %d rows: %s", len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}
}

// TestOneWriterPerRunDirectory: while a run writes OUT/<run_id>, a second
// process with the same --out and --run-id, and a --resume of the same
// directory, refuse by name with exit 3 and write nothing; the first run
// completes with every row once; the lock ends with its run.
func TestOneWriterPerRunDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a child")
	}
	g := newGate(t)
	root := gatedCorpus(t)
	out := t.TempDir()
	args := []string{"run", "--out", out, "--run-id", "one", "--progress", "none", "--no-cache", "--stage-config", g.cfg, "--stages", "container,gate,reader", root}
	var firstErr strings.Builder
	first, exited := startChild(t, &firstErr, args...)
	g.awaitHeld(t, exited)

	dir := filepath.Join(out, "one")
	for _, second := range [][]string{args, {"run", "--resume", dir, "--progress", "none"}} {
		c := exec.Command(buildAirpipe(t), second...)
		var se strings.Builder
		c.Stderr = &se
		err := c.Run()
		if code := exitCode(err); code != exitLocked {
			t.Errorf("%s: exit %d, want %d; stderr %s", strings.Join(second[:2], " "), code, exitLocked, se.String())
		}
		if msg := se.String(); !strings.Contains(msg, "being written by another airpipe") || !strings.Contains(msg, fmt.Sprintf("pid %d ", first.Process.Pid)) {
			t.Errorf("%s: refusal does not name the writer: %s", strings.Join(second[:2], " "), msg)
		}
	}
	g.letGo(t)
	if code := exitCode(<-exited); code != 0 {
		t.Fatalf("first run exit %d; stderr %s", code, firstErr.String())
	}
	meta, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m analytics.RunMeta
	if err := json.Unmarshal(meta, &m); err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "part-[0-9]*.parquet"))
	if !m.Complete || m.Rows != 12 || len(parts) != len(m.Parts) {
		t.Errorf("first run: complete %v, %d rows (want 12), %d part files for %d listed", m.Complete, m.Rows, len(parts), len(m.Parts))
	}
	// The lock ended with the run: a resume now says why it has nothing
	// to do, not that the run is busy.
	var so, se strings.Builder
	if code := run([]string{"run", "--resume", dir, "--progress", "none"}, &so, &se); code == exitLocked || !strings.Contains(se.String(), "already complete") {
		t.Errorf("resume after the run: exit %d: %s", code, se.String())
	}
}

// TestLockRefusesInProcess: the lock is per open file, so a second writer
// in the same process is refused too (flock semantics), by name.
func TestLockRefusesInProcess(t *testing.T) {
	out := t.TempDir()
	l, err := lockNewRun(out, "r", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockNewRun(out, "r", ""); err == nil || !strings.Contains(err.Error(), "being written by another airpipe (pid ") {
		t.Errorf("second lock: %v", err)
	}
	if _, err := lockRunDir(filepath.Join(out, "r"), ""); err == nil {
		t.Error("a resume's lock was granted while the run holds it")
	}
	s, err := lockNewRun(out, "r", "0of2")
	if err != nil {
		t.Errorf("a shard's lock: %v", err)
	}
	s.release()
	l.release()
	l2, err := lockRunDir(filepath.Join(out, "r"), "")
	if err != nil {
		t.Errorf("lock after release: %v", err)
	}
	l2.release()
}

// TestEmptyRunFails: a run that finds no library exits 4 with a message
// and is not marked complete, unless --allow-empty.
func TestEmptyRunFails(t *testing.T) {
	empty := t.TempDir()
	junk := t.TempDir()
	if err := os.WriteFile(filepath.Join(junk, "notes.txt"), []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(junk, "x.metallib"), make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		root  string
		allow bool
		code  int
	}{
		{"empty", empty, false, exitEmpty},
		{"junk", junk, false, exitEmpty},
		{"empty-allowed", empty, true, 0},
		{"junk-allowed", junk, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"run", "--out", out, "--progress", "none", "--no-cache", "--run-id", "e"}
			if tc.allow {
				args = append(args, "--allow-empty")
			}
			var so, se strings.Builder
			code := run(append(args, tc.root), &so, &se)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, se.String())
			}
			meta, _, err := analytics.ReadRun(filepath.Join(out, "e"))
			if err != nil {
				t.Fatal(err)
			}
			if meta.Complete != tc.allow {
				t.Errorf("complete %v", meta.Complete)
			}
			if !tc.allow && !strings.Contains(se.String(), "found no Metal library") {
				t.Errorf("stderr does not say why: %q", se.String())
			}
		})
	}
}

// TestUnreadableRootExits2: a root that exists but cannot be read is a
// usage error (exit 2), named, before any run directory is made. As root
// (where mode 000 reads anyway) the child runs as nobody.
func TestUnreadableRootExits2(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a child")
	}
	bin := buildAirpipe(t)
	base := t.TempDir()
	root := filepath.Join(base, "locked")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.metallib"), sampleLibrary(t, "compute.metallib"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(root, 0o755) })
	out := filepath.Join(base, "out")
	cmd := exec.Command(bin, "run", "--out", out, "--progress", "none", "--no-cache", root)
	if os.Geteuid() == 0 {
		for _, d := range []string{filepath.Dir(bin), filepath.Dir(base), base} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Env = append(os.Environ(), "HOME="+base, "XDG_CACHE_HOME="+base)
	}
	var se strings.Builder
	cmd.Stderr = &se
	err := cmd.Run()
	if code := exitCode(err); code != 2 {
		t.Fatalf("exit %d, want 2; stderr %s", code, se.String())
	}
	if !strings.Contains(se.String(), root+": unreadable") {
		t.Errorf("stderr does not name the root: %s", se.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a run directory was made for an unreadable root (%v)", err)
	}
}
