package execstage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/proc"
	"github.com/airpipe/airpipe/pipeline"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"", 0, true}, {"512", 512, true}, {"512B", 512, true}, {"4K", 4 << 10, true}, {"64MiB", 64 << 20, true},
		{"2GiB", 2 << 30, true}, {"2G", 2 << 30, true}, {"0", 0, false}, {"2TB", 0, false}, {"-1", 0, false},
		{"MiB", 0, false}, {"1.5GiB", 0, false}, {"99999999999999999999G", 0, false},
	}
	for _, tc := range tests {
		got, err := parseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v", tc.in, got, err)
		}
	}
}

// TestParseReply breaks the JSON protocol in each way it checks.
func TestParseReply(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.nir"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, stdout string
		exit         int
		truncated    bool
		status       pipeline.Status
		problem      string
	}{
		{"pass", `{"status": "passed"}`, 0, false, pipeline.Passed, ""},
		{"fail", `{"status": "failed", "code": "t/x", "detail": "d", "missing": [{"code": "t/x", "detail": "d"}]}`, 1, false, pipeline.Failed, ""},
		{"unjudged", `{"status": "unjudged", "message": "no reference"}`, 0, false, pipeline.Unjudged, ""},
		{"artifact", `{"status": "passed", "artifacts": {"nir": "a.nir"}}`, 0, false, pipeline.Passed, ""},
		{"empty", "  \n", 0, false, "", "no-json"},
		{"array", `[1]`, 0, false, "", "not-an-object"},
		{"syntax", `{"status": "passed"`, 0, false, "", "syntax"},
		{"unknown field", `{"status": "passed", "colour": 1}`, 0, false, "", "unknown-field:colour"},
		{"wrong type", `{"status": "passed", "features": "a"}`, 0, false, "", "type:features"},
		{"two objects", `{"status": "passed"} {"status": "passed"}`, 0, false, "", "trailing-data"},
		{"bad status", `{"status": "ok"}`, 0, false, "", "status:ok"},
		{"failed without code", `{"status": "failed"}`, 1, false, "", "bad-code"},
		{"code on pass", `{"status": "passed", "code": "t/x"}`, 0, false, "", "code-without-failure"},
		{"pass with exit", `{"status": "passed"}`, 2, false, "", "passed-with-exit-2"},
		{"bad missing", `{"status": "failed", "code": "t/x", "missing": [{"code": "", "detail": "d"}]}`, 1, false, "", "bad-code"},
		{"empty feature", `{"status": "passed", "features": [""]}`, 0, false, "", "empty-feature"},
		{"artifact outside", `{"status": "passed", "artifacts": {"nir": "/etc/passwd"}}`, 0, false, "", "artifact:nir"},
		{"artifact escaping", `{"status": "passed", "artifacts": {"nir": "../a.nir"}}`, 0, false, "", "artifact:nir"},
		{"artifact absent", `{"status": "passed", "artifacts": {"nir": "b.nir"}}`, 0, false, "", "artifact:nir"},
		{"artifact reserved", `{"status": "passed", "artifacts": {"bitcode": "a.nir"}}`, 0, false, "", "artifact:bitcode"},
		{"truncated", `{"status": "passed"}`, 0, true, "", "truncated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _, perr := parseReply(proc.Outcome{Stdout: []byte(tc.stdout), ExitCode: tc.exit, Truncated: tc.truncated}, dir)
			switch {
			case tc.problem == "" && perr != nil:
				t.Fatalf("unexpected protocol error %s: %s", perr.detail, perr.message)
			case tc.problem != "" && (perr == nil || perr.detail != tc.problem):
				t.Fatalf("got %v, want problem %q", perr, tc.problem)
			case tc.problem == "" && res.Status != tc.status:
				t.Fatalf("status %s, want %s", res.Status, tc.status)
			}
		})
	}
}

func TestParseTemplate(t *testing.T) {
	lookup := func(n string) (string, error) { return "<" + n + ">", nil }
	tests := []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"{bitcode}", "<bitcode>", ""},
		{"--out={workdir}/x.{function}.nir", "--out=<workdir>/x.<function>.nir", ""},
		{"{{literal}}", "{literal}", ""},
		{"{my-artifact_2}", "<my-artifact_2>", ""},
		{"{", "", "{ without }"},
		{"a}", "", "lone }"},
		{"{}", "", "{} is not a placeholder"},
		{"{A}", "", "{A} is not a placeholder"},
		{"{a b}", "", "{a b} is not a placeholder"},
	}
	for _, tc := range tests {
		tmpl, err := parseTemplate(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseTemplate(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseTemplate(%q): %v", tc.in, err)
			continue
		}
		if got, _ := tmpl.expand(lookup); got != tc.want {
			t.Errorf("expand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, p := range []string{"../../stages/testdata/exec/scripts.json", "../../docs/examples/llvm-dis.json",
		"../../docs/examples/spirv-val.json", "../../docs/examples/mesa-air2nir.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"stages": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "/nonexistent")
		if err != nil {
			return
		}
		for _, s := range cfg.Stages {
			if len(s.Command) == 0 || (s.Replace == "") == (s.After == "") {
				t.Fatalf("accepted a stage without a command or with two positions: %+v", s)
			}
		}
	})
}

func FuzzParseReply(f *testing.F) {
	f.Add([]byte(`{"status": "failed", "code": "t/x", "detail": "d", "missing": [{"code": "t/x", "detail": "d"}], "features": ["a"], "artifacts": {"nir": "a.nir"}}`), 1)
	f.Add([]byte(`{"status": "passed"}`), 0)
	f.Add([]byte("garbage"), 0)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, stdout []byte, exit int) {
		res, files, perr := parseReply(proc.Outcome{Stdout: stdout, ExitCode: exit}, dir)
		if perr != nil {
			return
		}
		if res.Status == pipeline.Failed && res.Code == "" {
			t.Fatal("failed without a code")
		}
		for name, p := range files {
			if rel, err := filepath.Rel(dir, p); err != nil || strings.HasPrefix(rel, "..") {
				t.Fatalf("artifact %s at %s outside %s", name, p, dir)
			}
		}
	})
}

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{"{bitcode}", "--out={workdir}/x", "{{a}}", "{", "}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tmpl, err := parseTemplate(s)
		if err != nil {
			return
		}
		// Parsing loses nothing: writing the template back gives s.
		var b strings.Builder
		for _, seg := range tmpl {
			if seg.name != "" {
				b.WriteString("{" + seg.name + "}")
			} else {
				b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(seg.lit))
			}
		}
		if b.String() != s {
			t.Fatalf("parseTemplate(%q) wrote back as %q", s, b.String())
		}
	})
}
