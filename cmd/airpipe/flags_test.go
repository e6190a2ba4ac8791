package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestChoiceFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string
		ok   bool
	}{
		{nil, "auto", true},
		{[]string{"--progress", "plain"}, "plain", true},
		{[]string{"--progress=none"}, "none", true},
		{[]string{"--progress", "fancy"}, "", false},
		{[]string{"--progress", ""}, "", false},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(&bytes.Buffer{})
		var p string
		choiceFlag(fs, &p, "progress", "auto", []string{"auto", "bar", "plain", "none"}, "")
		err := fs.Parse(tt.args)
		if (err == nil) != tt.ok || tt.ok && p != tt.want {
			t.Errorf("%q: value %q, err %v; want %q ok=%v", tt.args, p, err, tt.want, tt.ok)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "want auto, bar, plain, none")) {
			t.Errorf("%q: error %v does not list the choices", tt.args, err)
		}
	}
}

func TestJSONFormatFlag(t *testing.T) {
	tests := []struct {
		args []string
		want bool
		ok   bool
	}{
		{nil, false, true},
		{[]string{"--format", "json"}, true, true},
		{[]string{"-f", "text"}, false, true},
		{[]string{"--json"}, true, true},
		{[]string{"--format", "md"}, false, false},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(&bytes.Buffer{})
		var asJSON bool
		jsonFormatFlag(fs, &asJSON, "")
		err := fs.Parse(tt.args)
		if (err == nil) != tt.ok || asJSON != tt.want {
			t.Errorf("%q: json=%v err %v; want %v ok=%v", tt.args, asJSON, err, tt.want, tt.ok)
		}
		if f := fs.Lookup("json"); f == nil || !f.Hidden {
			t.Errorf("--json is not a hidden alias")
		}
	}
}

// TestFlagVocabulary: run and inspect take --format; --json still works but
// is not in --help; run refuses an unknown --progress with exit 2.
func TestFlagVocabulary(t *testing.T) {
	for _, cmd := range []string{"run", "inspect"} {
		code, stdout, _ := airpipe(t, run, cmd, "--help")
		if code != 0 || !strings.Contains(stdout, "--format") || strings.Contains(stdout, "--json") {
			t.Errorf("%s --help: exit %d; want --format listed and --json hidden:\n%s", cmd, code, stdout)
		}
	}
	sample := filepath.Join("..", "..", "testdata", "sample")
	code, _, stderr := airpipe(t, run, "run", "--out", t.TempDir(), "--progress", "fancy", sample)
	if code != 2 || !strings.Contains(stderr, `"fancy"`) || !strings.Contains(stderr, "want auto, bar, plain, none") {
		t.Errorf("--progress fancy: exit %d, want 2\n%s", code, stderr)
	}
	lib := filepath.Join(sample, "compute.metallib")
	_, viaFormat, _ := airpipe(t, run, "inspect", "--format", "json", lib)
	_, viaJSON, _ := airpipe(t, run, "inspect", "--json", lib)
	if !json.Valid([]byte(viaFormat)) || viaFormat != viaJSON {
		t.Errorf("inspect --format json and --json differ or are not JSON")
	}
	if code, _, _ := airpipe(t, run, "inspect", "--format", "html", lib); code != 2 {
		t.Errorf("inspect --format html: exit %d, want 2", code)
	}
}

// TestOldShorthandWarned: run's and repro's -o (their --out DIR) still
// works but says on stderr that it is deprecated; --out says nothing, and a
// -o after "--" is a path, not a flag.
func TestOldShorthandWarned(t *testing.T) {
	cases := []struct {
		args []string
		warn bool
	}{
		{[]string{"-o", "results", "x"}, true},
		{[]string{"-oresults", "x"}, true},
		{[]string{"--out", "results", "x"}, false},
		{[]string{"--output=x", "x"}, false},
		{[]string{"--", "-o"}, false},
	}
	for _, c := range cases {
		var b bytes.Buffer
		warnOldShorthand("run", c.args, &b)
		if got := strings.Contains(b.String(), "deprecated"); got != c.warn {
			t.Errorf("%q: warned %v, want %v (%s)", c.args, got, c.warn, b.String())
		}
	}
}
