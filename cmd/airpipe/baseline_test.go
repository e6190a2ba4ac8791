package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
)

// hashed gives each row's library a content hash, as a real run has.
func hashed(rows []analytics.Row) []analytics.Row {
	for i := range rows {
		s := sha256.Sum256([]byte(rows[i].Source))
		rows[i].LibrarySHA256 = hex.EncodeToString(s[:])
	}
	return rows
}

func TestReportJUnit(t *testing.T) {
	rows := hashed(oldRows())
	dir := writeTestRun(t, t.TempDir(), "r1", 0, rows)
	code, stdout, stderr := airpipe(t, reportCmd, "--format", "junit", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Classname string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, stdout)
	}
	n := 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			n++
			if c.Classname != "lib.metallib" {
				t.Errorf("%s: classname %q", c.Name, c.Classname)
			}
			if c.Name == "c" && (c.Failure == nil || c.Failure.Message != "translate/unhandled-intrinsic" || c.Failure.Type != "translate") {
				t.Errorf("c: failure %+v", c.Failure)
			}
		}
	}
	if n != len(rows) || doc.Failures != 2 {
		t.Fatalf("%d testcases for %d rows, %d failures (want 2)", n, len(rows), doc.Failures)
	}
	file := filepath.Join(t.TempDir(), "junit.xml")
	if code, _, stderr := airpipe(t, reportCmd, "--format", "junit", "-o", file, dir); code != 0 {
		t.Fatalf("-o: %d %s", code, stderr)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != stdout {
		t.Errorf("-o file differs from standard output (%v)", err)
	}
}

func TestBaselineGate(t *testing.T) {
	out := t.TempDir()
	base := writeTestRun(t, out, "r1", 0, hashed(oldRows()))
	code, csv, stderr := airpipe(t, baselineCmd, base)
	if code != 0 || !strings.HasPrefix(csv, "library_sha256,function,stage,code,source\n") || strings.Count(csv, "\n") != 3 {
		t.Fatalf("baseline: exit %d, stderr %s\n%s", code, stderr, csv)
	}
	expected := filepath.Join(t.TempDir(), "expected.csv")
	if err := os.WriteFile(expected, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	// The baseline's own run passes the gate.
	code, _, stderr = airpipe(t, reportCmd, "--baseline", expected, "--fail-on-new", base)
	if code != 0 || !strings.Contains(stderr, "0 new failures, 2 known") {
		t.Fatalf("own run: exit %d\n%s", code, stderr)
	}
	// A second run where a passing module now fails: exit 3, named.
	planted := hashed(oldRows())
	planted[0] = hashed([]analytics.Row{row("a", "s1", "fragment", "reader", "translate", "translate/unhandled-type", "x86_fp80")})[0]
	next := writeTestRun(t, out, "r2", 1, planted)
	code, _, stderr = airpipe(t, reportCmd, "--baseline", expected, "--fail-on-new", next)
	if code != 3 || !strings.Contains(stderr, "1 new failures") || !strings.Contains(stderr, " a  translate translate/unhandled-type") {
		t.Fatalf("planted failure: exit %d, want 3\n%s", code, stderr)
	}
	// Without --fail-on-new the gate reports and exits 0.
	if code, _, stderr := airpipe(t, reportCmd, "--baseline", expected, next); code != 0 || !strings.Contains(stderr, "1 new failures") {
		t.Errorf("report only: exit %d\n%s", code, stderr)
	}
	// JUnit under the gate: only the new failure is a <failure>.
	code, stdout, _ := airpipe(t, reportCmd, "--format", "junit", "--baseline", expected, "--fail-on-new", next)
	if code != 3 || strings.Count(stdout, "<failure ") != 1 || !strings.Contains(stdout, "known failure (baseline)") {
		t.Errorf("junit under the gate: exit %d\n%s", code, stdout)
	}
	// The module on a flakes file: reported, not failed.
	flakes := filepath.Join(t.TempDir(), "flakes.csv")
	if err := os.WriteFile(flakes, []byte("library_sha256,function\n"+planted[0].LibrarySHA256+",a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = airpipe(t, reportCmd, "--baseline", expected, "--flakes", flakes, "--fail-on-new", next)
	if code != 0 || !strings.Contains(stderr, "1 flaky") || !strings.Contains(stderr, "  flaky ") {
		t.Errorf("with flakes: exit %d\n%s", code, stderr)
	}
	// Usage errors and bad files.
	if code, _, _ := airpipe(t, reportCmd, "--fail-on-new", base); code != 2 {
		t.Errorf("--fail-on-new without --baseline: exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("library_sha256,function\nnot-a-hash,a\n"), 0o644)
	if code, _, stderr := airpipe(t, reportCmd, "--baseline", bad, base); code != 2 || !strings.Contains(stderr, "line 2") {
		t.Errorf("malformed baseline: exit %d %s", code, stderr)
	}
	if code, _, _ := airpipe(t, baselineCmd); code != 2 {
		t.Errorf("baseline without RUN: exit %d", code)
	}
	if code, stdout, _ := airpipe(t, baselineCmd, "--help"); code != 0 || !strings.Contains(stdout, "Examples:") {
		t.Errorf("baseline --help: %d", code)
	}
}
