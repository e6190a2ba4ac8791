package cpuref

import (
	"errors"
	"os"
	"testing"
)

// FuzzInspect feeds hostile llvm-dis-like text to the reference's text
// reader and interface decoder: they must not panic, and what they accept
// must rewrite without panicking.
func FuzzInspect(f *testing.F) {
	for file, entry := range map[string]string{"affine.ll": "affine", "fragment.ll": "frag", "vertex.ll": "vert", "texture_fragment.ll": "frag", "texture_read.ll": "readtex", "orderonly_fragment.ll": "frag", "function_constants.ll": "fc"} {
		if b, err := os.ReadFile("testdata/" + file); err == nil {
			f.Add(string(b), entry)
		}
	}
	f.Add(variant("kernel", "", "", "", ""), "k")
	f.Add(searchModule(fcsAngleLike), "k") // fcsearch.go's function-constant search
	f.Add("!air.kernel = !{!0}\n!0 = !{ptr @k, !1, !2}\n!2 = !{!3}\n!3 = !{i32 9, !\"air.buffer\"}\ndefine void @k(ptr addrspace(1) %0) {\n", "k")
	f.Fuzz(func(t *testing.T, ll, entry string) {
		tm := parseText(ll)
		k, err := inspect(tm, entry)
		if err != nil {
			var nj *NotJudgeableError
			if errors.As(err, &nj) && nj.Kind == "" {
				t.Fatal("a NotJudgeableError without a kind")
			}
			return
		}
		_, _ = rewrite(tm, k, false)
	})
}
