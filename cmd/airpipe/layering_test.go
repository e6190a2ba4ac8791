package main

import (
	"os/exec"
	"strings"
	"testing"
)

const modulePath = "github.com/airpipe/airpipe/"

// layerRules says, per package prefix, which of the project's packages and
// which third-party modules it may import (ARCHITECTURE.md §2: cmd →
// stages → {corpus, compiler, device}; pipeline and analytics know no
// compiler internals; device/harness runs compiler output on a device, knowing
// no engine). The first matching prefix applies.
var layerRules = []struct {
	prefix  string
	project []string // allowed project package prefixes
	third   []string // allowed third-party module prefixes
}{
	{"internal", []string{"internal"}, nil},
	{"pipeline", []string{"pipeline", "internal"}, []string{"github.com/sourcegraph/conc"}},
	{"analytics", []string{"analytics"}, []string{"github.com/parquet-go/", "gonum.org/v1/plot"}},
	{"compiler/libllvm", []string{"internal/proc"}, []string{"github.com/ebitengine/purego"}},
	{"compiler", []string{"compiler", "internal/proc", "internal/codes", "internal/sealed", "internal/memo"}, nil},
	{"corpus", []string{"corpus", "internal"}, nil},
	{"device/opcheck", []string{"device", "compiler", "corpus", "internal"}, []string{"github.com/parquet-go/"}},
	{"device/harness", []string{"device", "compiler", "internal"}, nil},
	{"device", []string{"device", "internal/proc"}, []string{"github.com/ebitengine/purego"}},
	{"stages/approxtrace", []string{"stages", "compiler", "device", "pipeline", "internal"}, nil},
	{"stages", []string{"stages", "corpus", "compiler", "device", "pipeline", "analytics", "internal"}, nil},
	{"cmd", []string{"stages", "corpus", "compiler", "device", "pipeline", "analytics", "internal"}, []string{"github.com/spf13/pflag", "github.com/cheggaaa/pb", "github.com/mattn/go-isatty"}},
}

// layerViolations lists the imports that break layerRules.
func layerViolations(imports map[string][]string) []string {
	var bad []string
	for pkg, imps := range imports {
		rel := strings.TrimPrefix(pkg, modulePath)
		for _, rule := range layerRules {
			if !strings.HasPrefix(rel, rule.prefix) {
				continue
			}
			for _, imp := range imps {
				if !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
					continue // standard library
				}
				ok := false
				if p, in := strings.CutPrefix(imp, modulePath); in {
					for _, a := range rule.project {
						ok = ok || p == a || strings.HasPrefix(p, a+"/")
					}
				} else {
					for _, a := range rule.third {
						ok = ok || strings.HasPrefix(imp, a)
					}
				}
				if !ok {
					bad = append(bad, rel+" imports "+imp)
				}
			}
			break
		}
	}
	return bad
}

// TestLayering checks the import direction of every package of the module
// (non-test imports), with go list.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, modulePath+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v (the layering cannot be checked without it)", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	if len(imports) < 10 {
		t.Fatalf("go list found only %d packages", len(imports))
	}
	for _, v := range layerViolations(imports) {
		t.Error(v)
	}
}

// TestLayeringCatchesViolations breaks the rules on purpose.
func TestLayeringCatchesViolations(t *testing.T) {
	tests := []map[string][]string{
		{modulePath + "pipeline": {modulePath + "compiler/air"}},
		{modulePath + "analytics": {modulePath + "stages"}},
		{modulePath + "compiler/translate": {modulePath + "device"}},
		{modulePath + "corpus/mtlb": {"github.com/spf13/pflag"}},
		{modulePath + "device": {modulePath + "stages"}},
		{modulePath + "device": {modulePath + "compiler/cpuref"}},
		{modulePath + "device/harness": {modulePath + "pipeline"}},
		{modulePath + "stages": {modulePath + "cmd/airpipe"}},
	}
	for _, imports := range tests {
		if len(layerViolations(imports)) != 1 {
			t.Errorf("%v: violation not caught", imports)
		}
	}
	if v := layerViolations(map[string][]string{modulePath + "stages": {"fmt", modulePath + "compiler/air"}}); len(v) != 0 {
		t.Errorf("allowed imports refused: %v", v)
	}
}

// TestCompilerKnowsNoEngine checks that nothing the compiler packages depend
// on, directly or not, is the engine, a stage or the analytics (issue 14).
func TestCompilerKnowsNoEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", modulePath+"compiler/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		rel, ours := strings.CutPrefix(dep, modulePath)
		if !ours {
			continue
		}
		for _, banned := range []string{"pipeline", "stages", "analytics"} {
			if rel == banned || strings.HasPrefix(rel, banned+"/") {
				t.Errorf("compiler depends on %s", rel)
			}
		}
	}
}
