package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/pipeline/execstage"
)

const execTestdata = "testdata/exec"

// placeStages is a stage list to place exec stages in: a per-occurrence
// first stage and shared built-in stages after it. Their Run is never
// called by these tests.
func placeStages(names ...string) []pipeline.Stage[*Module] {
	provides := map[string][]string{}
	for _, s := range Default(Options{}) {
		provides[s.Name] = s.Provides
	}
	out := []pipeline.Stage[*Module]{{Name: "container", PerOccurrence: true, Version: "1", Provides: provides["container"], Run: func(context.Context, *Module) pipeline.Result { return pipeline.Pass() }}}
	for _, n := range names {
		out = append(out, pipeline.Stage[*Module]{Name: n, Version: "1", Provides: provides[n], Run: func(context.Context, *Module) pipeline.Result { return pipeline.Pass() }})
	}
	return out
}

// testModule is a module as the container stage leaves it.
func testModule(bitcode []byte) *Module {
	sum := sha256.Sum256(bitcode)
	return &Module{Bitcode: bitcode, SHA256: hex.EncodeToString(sum[:]), Index: 0,
		Library:  &Library{Source: "x", Path: "/lib/x.metallib"},
		Function: &mtlb.Function{Name: "f"}}
}

// loadStages applies the configuration at path to list, with the work
// directories in a test directory, and returns the stages by name.
func loadStages(t *testing.T, path string, list []pipeline.Stage[*Module]) map[string]pipeline.Stage[*Module] {
	t.Helper()
	cfg, err := execstage.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.WorkDir = t.TempDir()
	out, err := execstage.Place(cfg, list, FunctionKey)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]pipeline.Stage[*Module]{}
	for _, s := range out {
		byName[s.Name] = s
	}
	return byName
}

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed: %v", name, err)
	}
}

func details(fs []pipeline.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Code)+" "+f.Detail)
	}
	return out
}

// execCase is one run of a script stage and what must come of it.
type execCase struct {
	stage         string
	setup         func(t *testing.T, m *Module)
	status        pipeline.Status
	code, detail  string
	message       []string // substrings of Message
	notInMessage  []string
	missing       []string
	features      []string
	data          map[string]string
	files         []string // artifacts recorded
	maxElapsed    time.Duration
	checkArtifact func(t *testing.T, m *Module)
}

func TestExecScripts(t *testing.T) {
	needTool(t, "sh")
	stages := loadStages(t, filepath.Join(execTestdata, "scripts.json"), placeStages("reader", "translate"))
	tests := []execCase{
		{stage: "hang", status: pipeline.Failed, code: "timeout", detail: "hang",
			message: []string{"hang.sh killed after its timeout"}, maxElapsed: 5 * time.Second},
		{stage: "segv", status: pipeline.Failed, code: "crash", detail: "segv.sh: segmentation fault",
			message: []string{"killed by signal segmentation fault", "about to crash"}, data: map[string]string{"signal": "segmentation fault"}},
		{stage: "json", status: pipeline.Failed, code: "translate/unhandled-intrinsic", detail: "air.foo",
			message:  []string{"2 intrinsics not handled"},
			missing:  []string{"translate/unhandled-intrinsic air.foo", "translate/unhandled-intrinsic air.bar"},
			features: []string{"air.foo", "air.bar", "air.fma.f32"}},
		{stage: "json-pass", status: pipeline.Passed, features: []string{"air.fma.f32"}, files: []string{"nir"},
			checkArtifact: func(t *testing.T, m *Module) {
				b, err := os.ReadFile(m.Files["nir"])
				if err != nil || string(b) != "nir for f\n" {
					t.Errorf("nir artifact = %q, %v", b, err)
				}
			}},
		{stage: "garbage", status: pipeline.Failed, code: "garbage/bad-protocol", detail: "not-an-object",
			message: []string{"broke the JSON protocol", "stdout begins: Segmentation fault? no: just words"}},
		{stage: "unhandled", status: pipeline.Failed, code: "translate/unhandled-intrinsic", detail: "air.foo",
			message:  []string{"unhandled air op: air.foo"},
			missing:  []string{"translate/unhandled-intrinsic air.foo", "translate/unhandled-intrinsic air.bar", "translate/unhandled-intrinsic air.baz"},
			features: []string{"air.fma.f32", "air.wg.barrier"}, data: map[string]string{"exit": "1", "tool": "unhandled"}},
		{stage: "unhandled-first", status: pipeline.Unjudged, message: []string{"warning: something harmless"},
			missing: []string{"translate/unhandled-intrinsic air.foo", "translate/unhandled-intrinsic air.bar", "translate/unhandled-intrinsic air.baz"}},
		{stage: "fail", status: pipeline.Failed, code: "fail/tool-failed", detail: "exit 3",
			message: []string{"fail.sh exit status 3", "line 11\nline 12\nfatal: the last word"}, notInMessage: []string{"line 10"},
			data: map[string]string{"exit": "3"}},
		{stage: "noartifact", status: pipeline.Failed, code: "noartifact/missing-artifact", detail: "nir",
			message: []string{`did not write its artifact "nir"`}},
		{stage: "needs-spirv", status: pipeline.Unavailable, message: []string{"{spirv}: no earlier stage produced it"}},
		{stage: "needs-spirv", setup: func(t *testing.T, m *Module) { m.SetFile("spirv", "/given/module.spv") }, status: pipeline.Passed},
		{stage: "echo", status: pipeline.Passed, files: []string{"echoed"},
			checkArtifact: func(t *testing.T, m *Module) {
				b, err := os.ReadFile(m.Files["echoed"])
				if err != nil {
					t.Fatal(err)
				}
				want := "arg: f\narg: /lib/x.metallib\narg: x{y}\narg: " + filepath.Dir(m.Files["echoed"]) + "\nenv: fn=f\n"
				if string(b) != want {
					t.Errorf("echoed:\n%s\nwant:\n%s", b, want)
				}
			}},
	}
	if _, err := exec.LookPath("python3"); err == nil {
		tests = append(tests, execCase{stage: "oom", status: pipeline.Failed, code: "oom", detail: "oom.sh", message: []string{"MemoryError"}})
	}
	for _, tc := range tests {
		t.Run(tc.stage, func(t *testing.T) {
			st, ok := stages[tc.stage]
			if !ok {
				t.Fatalf("no stage %q", tc.stage)
			}
			m := testModule([]byte("BC\xc0\xde not really"))
			if tc.setup != nil {
				tc.setup(t, m)
			}
			start := time.Now()
			res := st.Run(context.Background(), m)
			elapsed := time.Since(start)
			if res.Status != tc.status || string(res.Code) != tc.code || res.Detail != tc.detail {
				t.Errorf("got %s %q %q, want %s %q %q\nmessage: %s", res.Status, res.Code, res.Detail, tc.status, tc.code, tc.detail, res.Message)
			}
			for _, s := range tc.message {
				if !strings.Contains(res.Message, s) {
					t.Errorf("message %q lacks %q", res.Message, s)
				}
			}
			for _, s := range tc.notInMessage {
				if strings.Contains(res.Message, s) {
					t.Errorf("message %q has %q", res.Message, s)
				}
			}
			if got := details(res.Missing); !slices.Equal(got, tc.missing) {
				t.Errorf("missing = %q, want %q", got, tc.missing)
			}
			if !slices.Equal(res.Features, tc.features) {
				t.Errorf("features = %q, want %q", res.Features, tc.features)
			}
			for k, v := range tc.data {
				if res.Data[k] != v {
					t.Errorf("data[%s] = %q, want %q", k, res.Data[k], v)
				}
			}
			for _, f := range tc.files {
				if _, ok := m.Files[f]; !ok {
					t.Errorf("artifact %q not recorded: %v", f, m.Files)
				}
			}
			if tc.status != pipeline.Passed && len(m.Files) > 1 {
				t.Errorf("artifacts recorded for a stage that did not pass: %v", m.Files)
			}
			if tc.maxElapsed > 0 {
				t.Logf("%s: %s", tc.stage, elapsed)
				if elapsed > tc.maxElapsed {
					t.Errorf("took %s, more than %s", elapsed, tc.maxElapsed)
				}
			}
			if tc.checkArtifact != nil {
				tc.checkArtifact(t, m)
			}
		})
	}
}

// llvmAs assembles a .ll from testdata with llvm-as-19.
func llvmAs(t *testing.T, name string) []byte {
	t.Helper()
	needTool(t, "llvm-as-19")
	out := filepath.Join(t.TempDir(), name+".bc")
	if b, err := exec.Command("llvm-as-19", filepath.Join(execTestdata, name+".ll"), "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// spirvAs assembles a .spvasm from testdata with spirv-as.
func spirvAs(t *testing.T, name string) string {
	t.Helper()
	needTool(t, "spirv-as")
	out := filepath.Join(t.TempDir(), name+".spv")
	if b, err := exec.Command("spirv-as", "--target-env", "vulkan1.2", filepath.Join(execTestdata, name+".spvasm"), "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, b)
	}
	return out
}

func TestExecLLVMDisExample(t *testing.T) {
	needTool(t, "llvm-dis-19")
	bc := llvmAs(t, "plain")
	st := loadStages(t, "../docs/examples/llvm-dis.json", placeStages("reader"))["llvm-dis"]
	if !strings.HasPrefix(st.Version, "exec1-") {
		t.Errorf("version %q", st.Version)
	}
	tests := []struct {
		name         string
		bitcode      []byte
		status       pipeline.Status
		code, detail string
	}{
		{"valid", bc, pipeline.Passed, "", ""},
		{"truncated", bc[:24], pipeline.Failed, "llvm-dis/rejected", "can't skip to bit"},
		{"not bitcode", []byte("not bitcode at all"), pipeline.Failed, "llvm-dis/rejected", "Invalid bitcode signature"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := testModule(tc.bitcode)
			res := st.Run(context.Background(), m)
			if res.Status != tc.status || string(res.Code) != tc.code || res.Detail != tc.detail {
				t.Fatalf("got %s %q %q, want %s %q %q\n%s", res.Status, res.Code, res.Detail, tc.status, tc.code, tc.detail, res.Message)
			}
			if !strings.HasPrefix(res.Data["tool_version"], "Debian LLVM version 19") && !strings.Contains(res.Data["tool_version"], "LLVM") {
				t.Errorf("tool_version %q", res.Data["tool_version"])
			}
			if tc.status != pipeline.Passed {
				return
			}
			ll, err := os.ReadFile(m.Files["ll"])
			if err != nil || !strings.Contains(string(ll), "define i32 @f(i32 %x)") {
				t.Errorf("ll artifact: %v\n%s", err, ll)
			}
		})
	}
}

func TestExecSpirvValExample(t *testing.T) {
	needTool(t, "spirv-val")
	valid, broken := spirvAs(t, "valid"), spirvAs(t, "broken")
	st := loadStages(t, "../docs/examples/spirv-val.json", placeStages("reader", "translate"))["spirv-val"]
	tests := []struct {
		name         string
		spirv        string
		status       pipeline.Status
		code, detail string
		message      string
	}{
		{"valid", valid, pipeline.Passed, "", "", ""},
		{"broken", broken, pipeline.Failed, "spirv-val/invalid", "Expected arithmetic operands to be of Result Type", "error: line 12: Expected arithmetic operands to be of Result Type: FAdd operand index 2"},
		{"no spirv", "", pipeline.Unavailable, "", "", "{spirv}: no earlier stage produced it"},
		// Translate leaves its SPIR-V in memory; {spirv} writes it out.
		{"translation in memory", "memory:" + valid, pipeline.Passed, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := testModule([]byte("BC\xc0\xde"))
			if p, ok := strings.CutPrefix(tc.spirv, "memory:"); ok {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				m.Translation = &translate.Output{SPIRV: b}
			} else if tc.spirv != "" {
				m.SetFile("spirv", tc.spirv)
			}
			res := st.Run(context.Background(), m)
			if res.Status != tc.status || string(res.Code) != tc.code || res.Detail != tc.detail || !strings.Contains(res.Message, tc.message) {
				t.Fatalf("got %s %q %q %q, want %s %q %q %q", res.Status, res.Code, res.Detail, res.Message, tc.status, tc.code, tc.detail, tc.message)
			}
		})
	}
}

// TestExecMesaExample checks that the untested Mesa example parses and
// places, and that its tools, absent here, make unavailable stages.
func TestExecMesaExample(t *testing.T) {
	list, err := ApplyConfig(placeStages("reader", "translate", "compile", "emulator"), "../docs/examples/mesa-air2nir.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"container", "reader", "translate", "air2nir-eval", "compile", "emulator"}
	if got := Names(list); !slices.Equal(got, want) {
		t.Fatalf("stages %v, want %v", got, want)
	}
	if _, err := exec.LookPath("/opt/mesa-host/build/src/compiler/air/air2nir"); err == nil {
		t.Skip("air2nir is installed here")
	}
	res := list[2].Run(context.Background(), testModule([]byte("BC\xc0\xde")))
	if res.Status != pipeline.Unavailable || !strings.Contains(res.Message, "/opt/mesa-host/build/src/compiler/air/air2nir: not installed here") {
		t.Errorf("got %s %q", res.Status, res.Message)
	}
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stages.json")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestApplyConfig(t *testing.T) {
	needTool(t, "true")
	base := placeStages("reader", "translate", "compile")
	tests := []struct {
		name   string
		config string
		names  []string // the resulting stage list
		err    []string // substrings of the error
		// unavailable: stage whose Run must be unavailable with this text
		unavailable, reason string
	}{
		{name: "replace", config: `{"stages": [{"name": "mytool", "replace": "translate", "command": ["true"]}]}`,
			names: []string{"container", "reader", "translate", "compile"}},
		{name: "after", config: `{"stages": [{"name": "mytool", "after": "reader", "command": ["true"]}]}`,
			names: []string{"container", "reader", "mytool", "translate", "compile"}},
		{name: "after twice keeps file order", config: `{"stages": [
			{"name": "one", "after": "reader", "command": ["true"]},
			{"name": "two", "after": "reader", "command": ["true"]},
			{"name": "three", "after": "one", "command": ["true"]},
			{"name": "last", "after": "compile", "command": ["true"]}]}`,
			names: []string{"container", "reader", "one", "three", "two", "translate", "compile", "last"}},
		{name: "unknown key in stage", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "colour": "red"}]}`,
			err: []string{"stages.json: ", `stages[0] ("x") at byte 12`, `unknown field "colour"`}},
		{name: "unknown key at top", config: `{"stage": []}`, err: []string{`byte 1: unknown key "stage"`}},
		{name: "unknown key in rule", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "rules": [{"patern": "a"}]}]}`,
			err: []string{`stages[0] ("x")`, `rules[0]: unknown field "patern"`}},
		{name: "wrong type", config: `{"stages": [{"name": "x", "after": "reader", "command": "true"}]}`,
			err: []string{`field "command": string is not a []string`}},
		{name: "syntax error", config: `{"stages": [{"name": "x",}]}`, err: []string{"stages.json: byte 25: invalid character '}'"}},
		{name: "unknown stage in after", config: `{"stages": [{"name": "x", "after": "nosuch", "command": ["true"]}]}`,
			err: []string{`stages[0] ("x")`, `field "after": no stage "nosuch" (stages: container, reader, translate, compile)`}},
		{name: "unknown stage in replace", config: `{"stages": [{"name": "x", "replace": "nosuch", "command": ["true"]}]}`,
			err: []string{`field "replace": no stage "nosuch"`}},
		{name: "replace per-occurrence", config: `{"stages": [{"name": "x", "replace": "container", "command": ["true"]}]}`,
			err: []string{`field "replace": "container" runs for every occurrence`}},
		{name: "replace twice", config: `{"stages": [{"name": "x", "replace": "reader", "command": ["true"]}, {"name": "y", "replace": "reader", "command": ["true"]}]}`,
			err: []string{`stages[1] ("y")`, `already replaced by "x"`}},
		{name: "name taken", config: `{"stages": [{"name": "reader", "after": "container", "command": ["true"]}]}`,
			err: []string{`field "name": "reader" is already a stage`}},
		{name: "duplicate name", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"]}, {"name": "x", "after": "reader", "command": ["true"]}]}`,
			err: []string{`stages[1] ("x")`, `names two stages`}},
		{name: "no position", config: `{"stages": [{"name": "x", "command": ["true"]}]}`, err: []string{`no position`}},
		{name: "both positions", config: `{"stages": [{"name": "x", "after": "reader", "replace": "translate", "command": ["true"]}]}`,
			err: []string{`both given`}},
		{name: "bad timeout", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "timeout": "5 minutes"}]}`,
			err: []string{`field "timeout": "5 minutes"`}},
		{name: "bad memory", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "memory_limit": "2TB"}]}`,
			err: []string{`field "memory_limit": "2TB"`}},
		{name: "bad placeholder", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true", "{Bitcode}"]}]}`,
			err: []string{`field "command"[1]: "{Bitcode}" byte 0: {Bitcode} is not a placeholder`}},
		{name: "lone brace", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true", "a}b"]}]}`,
			err: []string{`"a}b" byte 1: lone }`}},
		{name: "templated program", config: `{"stages": [{"name": "x", "after": "reader", "command": ["{bitcode}"]}]}`,
			err: []string{`field "command"[0]: the program "{bitcode}" must be literal`}},
		{name: "artifact outside workdir", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "artifacts": {"ll": "/tmp/x.ll"}}]}`,
			err: []string{`field "artifacts"["ll"]: "/tmp/x.ll" must start with {workdir}/`}},
		{name: "artifact escaping workdir", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "artifacts": {"ll": "{workdir}/../x.ll"}}]}`,
			err: []string{`segment ".."`}},
		{name: "reserved artifact", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "artifacts": {"bitcode": "{workdir}/x.bc"}}]}`,
			err: []string{`"bitcode" is not an artifact name`}},
		{name: "rules under json", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "protocol": "json", "rules": [{"pattern": "a", "code": "x/y"}]}]}`,
			err: []string{`field "rules": not used with protocol "json"`}},
		{name: "bad regexp", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "rules": [{"pattern": "(", "code": "x/y"}]}]}`,
			err: []string{`rules[0]: field "pattern": error parsing regexp`}},
		{name: "failed rule without code", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "rules": [{"pattern": "a"}]}]}`,
			err: []string{`rules[0]: field "code"`}},
		{name: "missing tool", config: `{"stages": [{"name": "x", "replace": "translate", "command": ["no-such-tool-xyz", "{bitcode}"]}]}`,
			names: []string{"container", "reader", "translate", "compile"}, unavailable: "translate", reason: "no-such-tool-xyz: not installed here"},
		{name: "missing tool by path", config: `{"stages": [{"name": "x", "after": "reader", "command": ["./bin/none"]}]}`,
			names: []string{"container", "reader", "x", "translate", "compile"}, unavailable: "x", reason: "bin/none: not installed here"},
		{name: "failing version command", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true"], "version": ["false"]}]}`,
			names: []string{"container", "reader", "x", "translate", "compile"}, unavailable: "x", reason: `version command "false": exit status 1`},
		{name: "spirv after translate", config: `{"stages": [{"name": "x", "after": "translate", "command": ["true", "{spirv}"]}]}`,
			names: []string{"container", "reader", "translate", "x", "compile"}},
		{name: "spirv before translate", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true", "{spirv}"]}]}`,
			err: []string{`stages[0] ("x"): placeholder {spirv}: no stage before "x" provides it`}},
		{name: "artifact of a later stage", config: `{"stages": [{"name": "x", "after": "reader", "command": ["true", "{ll}"]},
			{"name": "y", "after": "x", "command": ["true"], "artifacts": {"ll": "{workdir}/m.ll"}}]}`,
			err: []string{`stages[0] ("x"): placeholder {ll}: no stage before "x" provides it`}},
		{name: "artifact of an earlier stage", config: `{"stages": [{"name": "y", "after": "reader", "command": ["true"], "stdout_artifact": "ll"},
			{"name": "x", "after": "y", "command": ["true", "{ll}"], "env": {"B": "{bitcode}"}}]}`,
			names: []string{"container", "reader", "y", "x", "translate", "compile"}},
		{name: "replaced maker", config: `{"stages": [{"name": "mytool", "replace": "translate", "command": ["true"]}, {"name": "x", "after": "translate", "command": ["true", "{spirv}"]}]}`,
			err: []string{`stages[1] ("x"): placeholder {spirv}: no stage before "x" provides it`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.config)
			list, err := ApplyConfig(base, path)
			if tc.err != nil {
				if err == nil {
					t.Fatalf("no error; stages %v", Names(list))
				}
				for _, s := range tc.err {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q lacks %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := Names(list); !slices.Equal(got, tc.names) {
				t.Errorf("stages %v, want %v", got, tc.names)
			}
			if !slices.Equal(Names(base), []string{"container", "reader", "translate", "compile"}) {
				t.Errorf("the input list changed: %v", Names(base))
			}
			if tc.unavailable != "" {
				res := list[slices.IndexFunc(list, func(s pipeline.Stage[*Module]) bool { return s.Name == tc.unavailable })].Run(context.Background(), testModule([]byte("BC")))
				if res.Status != pipeline.Unavailable || !strings.Contains(res.Message, tc.reason) {
					t.Errorf("got %s %q, want unavailable with %q", res.Status, res.Message, tc.reason)
				}
			}
		})
	}
}

// TestSelectRefusesUnmetNeeds: a built-in stage whose input an exec stage
// no longer makes is refused by name before the run, not failed per module
// (translate/no-ir); --stages can leave it out.
func TestSelectRefusesUnmetNeeds(t *testing.T) {
	needTool(t, "true")
	tests := []struct {
		config, stages, err string
	}{
		{`{"stages": [{"name": "myreader", "replace": "reader", "command": ["true", "{bitcode}"]}]}`, "all",
			`stage "translate" needs the reader's in-memory module, which no stage before it provides`},
		{`{"stages": [{"name": "myreader", "replace": "reader", "command": ["true", "{bitcode}"]}]}`, "container,reader", ""},
		{`{"stages": [{"name": "mytr", "replace": "translate", "command": ["true", "{bitcode}"]}]}`, "container,reader,translate,compile",
			`stage "compile" needs translate's in-memory SPIR-V, which no stage before it provides`},
		{`{"stages": [{"name": "mytr", "replace": "translate", "command": ["true", "{bitcode}"]}]}`, "container,reader,translate", ""},
		{`{"stages": [{"name": "x", "after": "translate", "command": ["true", "{spirv}"]}]}`, "all", ""},
	}
	for _, tc := range tests {
		list, err := ApplyConfig(Default(Options{}), writeConfig(t, tc.config))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Select(list, tc.stages)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s --stages %s: err %v, want %q", tc.config, tc.stages, err, tc.err)
		}
	}
	// The built-in list as it is needs nothing it lacks.
	if _, err := Select(Default(Options{}), "all"); err != nil {
		t.Errorf("the default stages: %v", err)
	}
}

// TestExecVersion checks that the tool fingerprint is part of the stage
// version: the same tool gives the same version, a different version
// output or configuration a different one.
func TestExecVersion(t *testing.T) {
	needTool(t, "echo")
	version := func(cfg string) string {
		list, err := ApplyConfig(placeStages("reader"), writeConfig(t, cfg))
		if err != nil {
			t.Fatal(err)
		}
		return list[2].Version
	}
	a := version(`{"stages": [{"name": "x", "after": "reader", "command": ["echo"], "version": ["echo", "tool 1.0"]}]}`)
	b := version(`{"stages": [{"name": "x", "after": "reader", "command": ["echo"], "version": ["echo", "tool 1.0"]}]}`)
	c := version(`{"stages": [{"name": "x", "after": "reader", "command": ["echo"], "version": ["echo", "tool 1.1"]}]}`)
	d := version(`{"stages": [{"name": "x", "after": "reader", "command": ["echo", "-n"], "version": ["echo", "tool 1.0"]}]}`)
	e := version(`{"stages": [{"name": "x", "after": "reader", "command": ["echo"]}]}`)
	if a != b || a == c || a == d || a == e || c == d {
		t.Errorf("versions: same %q %q, new tool %q, new command %q, binary hash %q", a, b, c, d, e)
	}
}

// TestExecEngine runs the engine over a library built here, with two exec
// stages: llvm-dis-19 as the reader (writing the .ll artifact) and a toy
// JSON-protocol translator reading that artifact, and checks the rows.
func TestExecEngine(t *testing.T) {
	needTool(t, "llvm-dis-19")
	plain, air := llvmAs(t, "plain"), llvmAs(t, "air")
	spec := &mtlb.Spec{Platform: mtlb.PlatformMacOS, FormatMajor: 2, FormatMinor: 7, Functions: []mtlb.SpecFunction{
		{Name: "plain", Type: mtlb.FunctionKernel, Bitcode: plain},
		{Name: "plain_copy", Type: mtlb.FunctionKernel, Bitcode: plain},
		{Name: "air", Type: mtlb.FunctionKernel, Bitcode: air},
		{Name: "broken", Type: mtlb.FunctionKernel, Bitcode: plain[:40]},
	}}
	data, err := mtlb.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib.metallib")
	if err := os.WriteFile(lib, data, 0o644); err != nil {
		t.Fatal(err)
	}
	translate, err := filepath.Abs(filepath.Join(execTestdata, "translate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := `{"workdir": "work", "stages": [
	  {"name": "reader", "after": "container", "command": ["llvm-dis-19", "{bitcode}", "-o", "{workdir}/module.ll"],
	   "version": ["llvm-dis-19", "--version"], "artifacts": {"ll": "{workdir}/module.ll"},
	   "rules": [{"pattern": "error: ([^0-9\\n]*)", "code": "reader/llvm-dis-rejected"}]},
	  {"name": "translate", "after": "reader", "command": ["` + translate + `", "{ll}"], "protocol": "json"}]}`
	list, err := ApplyConfig([]pipeline.Stage[*Module]{Container()}, writeConfig(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	rows := map[string]analytics.Row{}
	shared := map[string]bool{}
	run := RunInfo{ID: "test", Started: time.Now(), Stages: Names(list)}
	e := &pipeline.Engine[corpus.Entry, *Module]{
		Expand: func(ctx context.Context, en corpus.Entry) pipeline.Expansion[*Module] {
			return LoadSource(ctx, en, LoadOptions{MaxFileSize: DefaultMaxFileSize})
		},
		Key: Key, Stages: list, Jobs: 2,
		Sink: func(d pipeline.Done[*Module]) error {
			mu.Lock()
			defer mu.Unlock()
			rows[d.Item.Function.Name] = Record(run, d)
			shared[d.Item.Function.Name] = d.Shared
			return nil
		},
	}
	src := make(chan corpus.Entry, 1)
	src <- corpus.Entry{Path: lib, Provenance: "lib.metallib"}
	close(src)
	start := time.Now()
	if err := e.Run(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	t.Logf("engine: 4 modules, 3 distinct, in %s", time.Since(start))
	tests := []struct {
		fn                            string
		reached, failed, code, detail string
		missing, features             []string
		readerStatus, translateStatus string
	}{
		{fn: "plain", reached: "translate", features: []string{"toy.no-air-calls"}, readerStatus: "passed", translateStatus: "passed"},
		{fn: "plain_copy", reached: "translate", features: []string{"toy.no-air-calls"}, readerStatus: "passed", translateStatus: "passed"},
		{fn: "air", reached: "reader", failed: "translate", code: "translate/unhandled-intrinsic", detail: "air.fast_sqrt.f32",
			missing:  []string{"translate/unhandled-intrinsic air.fast_sqrt.f32", "translate/unhandled-intrinsic air.fma.f32"},
			features: []string{"air.fast_sqrt.f32", "air.fma.f32"}, readerStatus: "passed", translateStatus: "failed"},
		{fn: "broken", reached: "container", failed: "reader", code: "reader/llvm-dis-rejected", detail: "can't skip block: already at end of stream",
			// A failure naming no missing feature is its own one blocker.
			missing:      []string{"reader/llvm-dis-rejected can't skip block: already at end of stream"},
			readerStatus: "failed", translateStatus: "not-run"},
	}
	for _, tc := range tests {
		t.Run(tc.fn, func(t *testing.T) {
			r, ok := rows[tc.fn]
			if !ok {
				t.Fatalf("no row for %s", tc.fn)
			}
			if r.StageReached != tc.reached || r.FailedStage != tc.failed || r.FailureCode != tc.code || r.FailureDetail != tc.detail {
				t.Errorf("reached %q failed %q %q %q, want %q %q %q %q\n%s", r.StageReached, r.FailedStage, r.FailureCode, r.FailureDetail,
					tc.reached, tc.failed, tc.code, tc.detail, r.FailureMessage)
			}
			var missing []string
			for _, f := range r.Missing {
				missing = append(missing, f.Code+" "+f.Detail)
			}
			if !slices.Equal(missing, tc.missing) || !slices.Equal(r.Features, tc.features) {
				t.Errorf("missing %q features %q, want %q %q", missing, r.Features, tc.missing, tc.features)
			}
			if r.ReaderStatus != tc.readerStatus || r.TranslateStatus != tc.translateStatus {
				t.Errorf("reader %q translate %q, want %q %q", r.ReaderStatus, r.TranslateStatus, tc.readerStatus, tc.translateStatus)
			}
			if !slices.Contains(r.Data, "reader.tool=reader") {
				t.Errorf("data %q lacks reader.tool=reader", r.Data)
			}
		})
	}
	if !shared["plain_copy"] && !shared["plain"] {
		t.Errorf("identical modules did not share their exec stages' work")
	}
}

// TestExecCorpus runs the shipped llvm-dis-19 example as an exec stage over
// the real corpus ($AIRPIPE_CORPUS) through the engine: nearly every module
// must pass, and every failure must be classified by a rule, not left to
// the default code.
func TestExecCorpus(t *testing.T) {
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS is not set: the real metallib corpus is not available")
	}
	if testing.Short() {
		t.Skip("runs llvm-dis-19 once per distinct corpus module; not in -short")
	}
	needTool(t, "llvm-dis-19")
	cfg, err := execstage.Load("../docs/examples/llvm-dis.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg.WorkDir = t.TempDir()
	list, err := execstage.Place(cfg, []pipeline.Stage[*Module]{Container()}, FunctionKey)
	if err != nil {
		t.Fatal(err)
	}
	var entries []corpus.Entry
	err = corpus.Walk(context.Background(), []string{root}, func(en corpus.Entry) error {
		if ok, _ := LibraryMagic(en.Path); ok && en.Refused == "" {
			entries = append(entries, en)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	var modules, ran int
	e := &pipeline.Engine[corpus.Entry, *Module]{
		Expand: func(ctx context.Context, en corpus.Entry) pipeline.Expansion[*Module] {
			return LoadSource(ctx, en, LoadOptions{MaxFileSize: DefaultMaxFileSize})
		},
		Key: Key, Stages: list, Jobs: 2,
		Sink: func(d pipeline.Done[*Module]) error {
			modules++
			res := d.Results[1]
			if res.Status == pipeline.NotRun {
				return nil
			}
			if !d.Shared {
				ran++
			}
			counts[string(res.Status)+" "+string(res.Code)+" "+res.Detail]++
			return nil
		},
	}
	src := make(chan corpus.Entry, len(entries))
	for _, en := range entries {
		src <- en
	}
	close(src)
	start := time.Now()
	if err := e.Run(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	t.Logf("%d libraries, %d modules, llvm-dis-19 ran %d times in %s (%.1f ms per run, 2 workers)",
		len(entries), modules, ran, elapsed.Round(time.Millisecond), float64(elapsed.Milliseconds())/float64(max(ran, 1)))
	passed, total := 0, 0
	for k, n := range counts {
		t.Logf("%5d  %s", n, k)
		total += n
		if strings.HasPrefix(k, "passed") {
			passed += n
		}
		if strings.Contains(k, "/"+string(codes.ToolFailed)) {
			t.Errorf("unclassified llvm-dis failure: %d × %s", n, k)
		}
	}
	if total == 0 || passed*100 < total*95 {
		t.Errorf("llvm-dis passed %d of %d modules that reached it", passed, total)
	}
}

// BenchmarkExecStage measures an exec stage's own cost per module: a work
// directory, the bitcode written, /bin/true spawned in its process group,
// its outcome judged.
func BenchmarkExecStage(b *testing.B) {
	p := filepath.Join(b.TempDir(), "stages.json")
	cfg := `{"workdir": "work", "stages": [{"name": "x", "after": "reader", "command": ["true", "{bitcode}"]}]}`
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	list, err := ApplyConfig(placeStages("reader"), p)
	if err != nil {
		b.Fatal(err)
	}
	st := list[2]
	for i := 0; b.Loop(); i++ {
		m := testModule([]byte("BC\xc0\xde" + strconv.Itoa(i)))
		if res := st.Run(context.Background(), m); res.Status != pipeline.Passed {
			b.Fatal(res.Message)
		}
	}
}
