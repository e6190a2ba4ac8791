package cpuref

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
)

// TestDiscard discards the pixels of odd x in the fragment fixture: their
// render targets keep Clear, the others hold the fixture's values.
func TestDiscard(t *testing.T) {
	needTools(t)
	b, err := os.ReadFile("testdata/fragment.ll")
	if err != nil {
		t.Fatal(err)
	}
	ll := strings.Replace(string(b), "define <{", "declare void @air.discard_fragment()\ndefine <{", 1)
	ll = strings.Replace(ll, "  %h0 = extractelement", `  %xi = fptoui float %x to i32
  %odd = and i32 %xi, 1
  %isodd = icmp eq i32 %odd, 1
  br i1 %isodd, label %drop, label %keep
drop:
  call void @air.discard_fragment()
  br label %keep
keep:
  %h0 = extractelement`, 1)
	res, err := Run(context.Background(), assemble(t, ll), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	outs := map[int][]byte{}
	for _, o := range res.Outputs {
		outs[o.Index] = o.Bytes
	}
	for y := range 4 {
		for x := range 4 {
			if x%2 == 1 {
				checkTargetPixel(t, outs, 0, x, y, Clear[:])
				checkTargetPixel(t, outs, 2, x, y, Clear[:])
				continue
			}
			checkTargetPixel(t, outs, 0, x, y, []uint32{math.Float32bits(0.25 + float32(x) + 0.5), math.Float32bits(float32(y) + 0.5), 0, math.Float32bits(1)})
		}
	}
}
