package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestInspect(t *testing.T) {
	lib := filepath.Join("..", "..", "testdata", "sample", "compute.metallib")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect", lib}, 0, "sum_sqrt"},
		{[]string{"inspect", lib, "scale"}, 0, "scale"},
		{[]string{"inspect", lib, "1"}, 0, "sum_sqrt"},
		{[]string{"inspect", "--ll", lib, "sum_sqrt"}, 0, "call float @air.fast_sqrt.f32"},
		{[]string{"inspect", "--ll", lib}, 2, "need FUNCTION"},
		{[]string{"inspect", "--spirv", lib, "scale"}, 0, "OpEntryPoint GLCompute"},
		{[]string{"inspect", lib, "nope"}, 1, `no function "nope"`},
		{[]string{"inspect", "inspect_test.go"}, 1, "MTLB"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", tc.args, code, tc.code, tc.want, out.String(), errb.String())
		}
	}
	var out bytes.Buffer
	if code := run([]string{"inspect", "--json", lib}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatal("inspect --json failed")
	}
	var v struct {
		Functions []struct {
			Name        string `json:"name"`
			HashMatches bool   `json:"hash_matches"`
		} `json:"functions"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v.Functions) != 2 || !v.Functions[0].HashMatches {
		t.Errorf("json: %v %+v", err, v)
	}
}

// TestInspectTextHasNoGoSyntax: decoded metadata tags (function constants,
// vertex attributes, dependency paths) print as words, not Go structs.
func TestInspectTextHasNoGoSyntax(t *testing.T) {
	for _, name := range []string{"modern_style", "old_style"} {
		code, out, stderr := airpipe(t, inspectCmd, filepath.Join("..", "..", "corpus", "mtlb", "testdata", name+".metallib"))
		if code != 0 {
			t.Fatalf("%s: exit %d %s", name, code, stderr)
		}
		if m := regexp.MustCompile(`\{[A-Z][A-Za-z]*:|\[\{|&\{|map\[`).FindString(out); m != "" {
			t.Errorf("%s: Go syntax %q in:\n%s", name, m, out)
		}
	}
	_, out, _ := airpipe(t, inspectCmd, filepath.Join("..", "..", "corpus", "mtlb", "testdata", "modern_style.metallib"))
	if !strings.Contains(out, "CNST     8  k Float index 2 required") {
		t.Errorf("function constant not in words:\n%s", out)
	}
}
