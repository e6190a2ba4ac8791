package codes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// entry is one declared code (or exec-stage suffix) as codes.go spells it.
type entry struct {
	name, value string
	suffix      bool // a Suffix, documented as "<stage>/value"
	example     bool // the doc comment has an "Example detail:" line
	doc         bool
}

// readRegistry parses a registry source file: every constant of type Code
// or Suffix, with what its doc comment says.
func readRegistry(t *testing.T, src string) []entry {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []entry
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			typ, _ := vs.Type.(*ast.Ident)
			if typ == nil || (typ.Name != "Code" && typ.Name != "Suffix") {
				continue
			}
			for i, n := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: not a string literal", n.Name)
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				e := entry{name: n.Name, value: v, suffix: typ.Name == "Suffix", doc: vs.Doc != nil}
				if vs.Doc != nil {
					for _, line := range strings.Split(vs.Doc.Text(), "\n") {
						if ex, ok := strings.CutPrefix(line, "Example detail: "); ok && strings.TrimSpace(ex) != "" {
							e.example = true
						}
					}
				}
				out = append(out, e)
			}
		}
	}
	return out
}

var (
	stageCode  = regexp.MustCompile(`^[a-z][a-z0-9]*/[a-z0-9]+(-[a-z0-9]+)*$`)
	engineCode = regexp.MustCompile(`^[a-z]+$`)
	suffixCode = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	docRow     = regexp.MustCompile("^\\| `([^`]+)` \\|")
)

// checkRegistry lists what is wrong with the declarations themselves.
func checkRegistry(reg []entry) []string {
	var bad []string
	names, values := map[string]bool{}, map[string]bool{}
	for _, e := range reg {
		switch {
		case !e.doc:
			bad = append(bad, e.name+": no doc comment")
		case !e.example:
			bad = append(bad, e.name+": its doc comment has no \"Example detail: ...\" line")
		}
		if names[e.name] || values[e.value] {
			bad = append(bad, e.name+": declared twice")
		}
		names[e.name], values[e.value] = true, true
		switch {
		case e.suffix && !suffixCode.MatchString(e.value),
			!e.suffix && !stageCode.MatchString(e.value) && !engineCode.MatchString(e.value):
			bad = append(bad, e.name+": "+strconv.Quote(e.value)+" is not stage/kebab-name or an engine word")
		}
	}
	return bad
}

// documented is every code docs/codes.md lists in the first cell of a
// table row ("| `code` |").
func documented(md string) []string {
	var out []string
	for _, line := range strings.Split(md, "\n") {
		if m := docRow.FindStringSubmatch(line); m != nil {
			out = append(out, strings.Split(m[1], "`, `")...)
		}
	}
	return out
}

// checkDocs compares the registry with the codes a documentation page
// lists: every code documented, nothing documented that is not declared.
// "device/*" documents the device twin (OnDevice) of every emulator code;
// "<stage>/suffix" documents a Suffix.
func checkDocs(reg []entry, twins map[Code]Code, md string) []string {
	want := map[string]string{} // documented form → constant
	for _, e := range reg {
		if e.suffix {
			want["<stage>/"+e.value] = e.name
		} else {
			want[e.value] = e.name
		}
	}
	seen := map[string]bool{}
	var bad []string
	for _, d := range documented(md) {
		if d == "device/*" {
			for _, dev := range twins {
				seen[string(dev)] = true
			}
			continue
		}
		if _, ok := want[d]; !ok {
			bad = append(bad, "docs/codes.md documents "+strconv.Quote(d)+", which the registry does not declare")
		}
		seen[d] = true
	}
	for form, name := range want {
		if !seen[form] {
			bad = append(bad, name+" ("+form+") is not documented in docs/codes.md")
		}
	}
	slices.Sort(bad)
	return bad
}

// scanSource lists the code-shaped string literals of one Go file: a
// stage's prefix, a slash and a kebab-case name. Every one is refused —
// an unknown one is an undeclared code, a known one a literal that should
// be the registry's constant.
func scanSource(name, src string, reg []entry, stages map[string]bool) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return []string{name + ": " + err.Error()}
	}
	known := map[string]string{}
	for _, e := range reg {
		known[e.value] = e.name
	}
	var bad []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil || !stageCode.MatchString(v) || !stages[Code(v).Stage()] {
			return true
		}
		if c, ok := known[v]; ok {
			bad = append(bad, name+": literal "+lit.Value+": use codes."+c)
		} else {
			bad = append(bad, name+": literal "+lit.Value+" is a code the registry does not declare (add it to internal/codes/codes.go and docs/codes.md)")
		}
		return true
	})
	return bad
}

// stagesOf is the set of stage prefixes the registry's codes use.
func stagesOf(reg []entry) map[string]bool {
	out := map[string]bool{}
	for _, e := range reg {
		if s := Code(e.value).Stage(); s != "" && !e.suffix {
			out[s] = true
		}
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCodesDocumented checks the registry against docs/codes.md and the
// module's Go sources against the registry (issue 14): every code declared
// once with a doc comment and an example, documented, and never spelt as a
// literal elsewhere.
func TestCodesDocumented(t *testing.T) {
	reg := readRegistry(t, readFile(t, "codes.go"))
	if len(reg) < 60 {
		t.Fatalf("read only %d codes from codes.go", len(reg))
	}
	for _, b := range checkRegistry(reg) {
		t.Error(b)
	}
	for _, b := range checkDocs(reg, onDevice, readFile(t, "../../docs/codes.md")) {
		t.Error(b)
	}
	stages := stagesOf(reg)
	scanned := 0
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || p == filepath.Join(root, "internal", "codes", "codes.go") {
			return nil
		}
		scanned++
		for _, b := range scanSource(p, readFile(t, p), reg, stages) {
			t.Error(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("scanned only %d Go files", scanned)
	}
}

// TestOnDeviceCoversEmulator checks that every emulator code has a device
// twin that the registry declares.
func TestOnDeviceCoversEmulator(t *testing.T) {
	reg := readRegistry(t, readFile(t, "codes.go"))
	declared := map[string]bool{}
	for _, e := range reg {
		declared[e.value] = true
	}
	for _, e := range reg {
		c := Code(e.value)
		if e.suffix || c.Stage() != "emulator" {
			continue
		}
		d := OnDevice(c)
		if d == c || d.Stage() != "device" || !declared[string(d)] || strings.TrimPrefix(string(d), "device/") != strings.TrimPrefix(string(c), "emulator/") {
			t.Errorf("%s: device twin %q", c, d)
		}
	}
	if OnDevice(Timeout) != Timeout || OnDevice(TranslateNoIR) != TranslateNoIR {
		t.Error("OnDevice changed a code that is not the emulator's")
	}
	if ToolFailed.For("translate") != "translate/tool-failed" || TranslateNoIR.Stage() != "translate" || Crash.Stage() != "" {
		t.Error("For or Stage")
	}
}

// TestCodesCheckCatches breaks each rule on purpose: the checks above must
// be able to fail.
func TestCodesCheckCatches(t *testing.T) {
	const registry = `package codes
const (
	// A is documented.
	//
	// Example detail: x
	A Code = "translate/a"

	// B has no example.
	B Code = "translate/b"

	C Code = "translate/c"

	// D is misspelt.
	//
	// Example detail: x
	D Code = "translate/Not_Kebab"

	// E repeats A's value.
	//
	// Example detail: x
	E Code = "translate/a"

	// S is a suffix.
	//
	// Example detail: exit 1
	S Suffix = "tool-failed"
)
`
	reg := readRegistry(t, registry)
	if len(reg) != 6 {
		t.Fatalf("read %d entries, want 6", len(reg))
	}
	got := strings.Join(checkRegistry(reg), "\n")
	for _, want := range []string{"B: its doc comment has no", "C: no doc comment", "D: \"translate/Not_Kebab\" is not", "E: declared twice"} {
		if !strings.Contains(got, want) {
			t.Errorf("checkRegistry missed %q; said:\n%s", want, got)
		}
	}
	if strings.Contains(got, "A:") || strings.Contains(got, "S:") {
		t.Errorf("checkRegistry refused a good entry:\n%s", got)
	}

	good := []entry{{name: "A", value: "translate/a", doc: true, example: true}, {name: "M", value: "emulator/m", doc: true, example: true},
		{name: "DM", value: "device/m", doc: true, example: true}, {name: "S", value: "tool-failed", suffix: true, doc: true, example: true}}
	twins := map[Code]Code{"emulator/m": "device/m"}
	md := "| code | x |\n|---|---|\n| `translate/a` | t |\n| `emulator/m` | e |\n| `device/*` | d |\n| `<stage>/tool-failed` | s |\n"
	if b := checkDocs(good, twins, md); len(b) != 0 {
		t.Errorf("complete docs refused: %v", b)
	}
	// A code added to the registry without documentation.
	planted := append(slices.Clone(good), entry{name: "New", value: "translate/new-thing", doc: true, example: true})
	if b := checkDocs(planted, twins, md); len(b) != 1 || !strings.Contains(b[0], "New (translate/new-thing) is not documented") {
		t.Errorf("undocumented code not caught: %v", b)
	}
	// A documented code the registry does not declare.
	if b := checkDocs(good, twins, md+"| `translate/gone` | g |\n"); len(b) != 1 || !strings.Contains(b[0], `"translate/gone", which the registry does not declare`) {
		t.Errorf("stale documentation not caught: %v", b)
	}
	// A device twin without device/* or its own row.
	if b := checkDocs(good, twins, strings.Replace(md, "| `device/*` | d |\n", "", 1)); len(b) != 1 || !strings.Contains(b[0], "DM (device/m)") {
		t.Errorf("undocumented device code not caught: %v", b)
	}

	stages := stagesOf(good)
	src := `package x
import "encoding/json"
var _ = json.Marshal
const ok = "not/a code"
func f() string { return "translate/new-thing" }
func g() string { return "translate/a" }
func h() string { return "linker/unknown-stage" }
`
	b := scanSource("x.go", src, good, stages)
	if len(b) != 2 || !strings.Contains(b[0], `"translate/new-thing" is a code the registry does not declare`) || !strings.Contains(b[1], "use codes.A") {
		t.Errorf("scanSource: %v", b)
	}
}
