package stages

import (
	"testing"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

// TestStagesKeyedByFunction: the stages whose outcome depends on the
// function (translate; an exec stage told {function}; an exec stage standing
// in for translate) narrow the key by the function's name; the reader and
// an exec stage told only the bitcode do not.
func TestStagesKeyedByFunction(t *testing.T) {
	needTool(t, "true")
	list := Default(Options{})
	cfg := writeConfig(t, `{"stages": [
	  {"name": "bytes", "after": "reader", "command": ["true", "{bitcode}"]},
	  {"name": "byname", "after": "bytes", "command": ["true", "{bitcode}"], "env": {"FN": "{function}"}},
	  {"name": "tr", "replace": "translate", "command": ["true", "{bitcode}"]}]}`)
	list, err := ApplyConfig(list, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"container": false, "reader": false, "bytes": false, "byname": true, "translate": true, "compile": false}
	for _, s := range list {
		w, ok := want[s.Name]
		if ok && (s.Refine != nil) != w {
			t.Errorf("stage %s: Refine set %v, want %v", s.Name, s.Refine != nil, w)
		}
	}
	m := &Module{SHA256: "ab", Function: &mtlb.Function{Name: "_max3x3"}}
	if got := Translate().Refine(m); got != "_max3x3" {
		t.Errorf("translate keys %q, want the function's name", got)
	}
	if got := FunctionKey(&Module{}); got != "" {
		t.Errorf("a module without a function keys %q", got)
	}
}
