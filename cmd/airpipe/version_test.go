package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
)

func TestWithVersion(t *testing.T) {
	tests := []struct{ module, linked, want string }{
		{"(devel)", "dev", "(devel)"},
		{"v1.2.3", "dev", "v1.2.3"},
		{"(devel)", "v2.0.0", "v2.0.0"},
		{"", "dev", "dev"},
	}
	for _, tt := range tests {
		if got := withVersion(analytics.Build{Version: tt.module}, tt.linked).Version; got != tt.want {
			t.Errorf("withVersion(%q, %q) = %q, want %q", tt.module, tt.linked, got, tt.want)
		}
	}
}

func TestVersionCmd(t *testing.T) {
	code, stdout, stderr := airpipe(t, run, "--version")
	if code != 0 || !strings.HasPrefix(stdout, "airpipe ") || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, runtime.Version()) {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = airpipe(t, versionCmd)
	if code != 0 || !strings.Contains(stdout, "  commit  ") || !strings.Contains(stdout, "  stage container") {
		t.Fatalf("version: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = airpipe(t, versionCmd, "--format", "json")
	var rep versionReport
	if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil || rep.Build.Go != runtime.Version() || rep.StageVersions["container"] == "" {
		t.Fatalf("version --format json: exit %d, %v\n%s", code, err, stdout)
	}
	if code, _, _ := airpipe(t, versionCmd, "--format", "xml"); code != 2 {
		t.Errorf("--format xml: exit %d, want 2", code)
	}
	if code, _, _ := airpipe(t, versionCmd, "extra"); code != 2 {
		t.Errorf("an argument: exit %d, want 2", code)
	}
	if code, stdout, _ := airpipe(t, versionCmd, "--help"); code != 0 || !strings.Contains(stdout, "Examples:") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
}

// TestRunRecordsBuild: run.json carries the build of the binary that
// wrote it.
func TestRunRecordsBuild(t *testing.T) {
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--stages", "container", "--progress", "none", "--no-cache", filepath.Join("..", "..", "testdata", "sample"))
	run, _, err := analytics.OpenRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if want := buildIdentity(); run.Meta.Build != want || run.Meta.Build.Go != runtime.Version() {
		t.Fatalf("run.json build %+v, want %+v", run.Meta.Build, want)
	}
}

// TestVersionFromCheckout builds airpipe the way 'make build' does, in
// this git checkout, and checks that --version names the checkout's commit
// (the build records VCS information even where GOFLAGS says
// -buildvcs=false).
func TestVersionFromCheckout(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	commit := strings.TrimSpace(string(head))
	// The Makefile's build command, with its output put elsewhere.
	root := filepath.Join("..", "..")
	recipe, err := exec.Command("make", "-s", "-n", "-C", root, "build").Output()
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	args := strings.Fields(strings.TrimSpace(string(recipe)))
	bin := filepath.Join(t.TempDir(), "airpipe")
	i := slices.Index(args, "-o")
	if len(args) < 3 || args[1] != "build" || i < 0 || i+1 >= len(args) {
		t.Fatalf("make build runs %q, not one go build -o", recipe)
	}
	args[i+1] = bin
	build := exec.Command(args[0], args[1:]...)
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", recipe, err, b)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "commit "+commit[:12]) {
		t.Fatalf("--version %q does not name HEAD %s", out, commit[:12])
	}
	// The dirty flag agrees with git's (untracked files count, as for go
	// build's vcs.modified).
	status, err := exec.Command("git", "status", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	if dirty := strings.Contains(string(out), "+dirty"); dirty != (len(status) > 0) {
		t.Errorf("--version says dirty=%v; git status says %q", dirty, status)
	}
	mod, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil || !strings.Contains(string(mod), "vcs.revision="+commit) {
		t.Fatalf("go version -m: %v\n%s", err, mod)
	}
	os.Remove(bin)
}
