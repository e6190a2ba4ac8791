package cpuref

import (
	"errors"
	"testing"
)

// TestSIMDGridOneDimensional: the default grid of a SIMD-group kernel has
// one-dimensional threadgroups whatever its position's components, and a
// multi-dimensional threadgroup is set aside by name (lavapipe lays lanes
// out over one otherwise than by linear id).
func TestSIMDGridOneDimensional(t *testing.T) {
	for dims := 1; dims <= 3; dims++ {
		g := simdGrid(dims, 8)
		if g.Threads[1] != 1 || g.Threads[2] != 1 || g.Threads[0] < 16 {
			t.Errorf("dims %d: threadgroup %v is not a line of two simdgroups or more", dims, g.Threads)
		}
		if err := simdThreadgroupShape(g); err != nil {
			t.Errorf("dims %d: %v", dims, err)
		}
	}
	err := simdThreadgroupShape(Grid{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{4, 4, 2}})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindSIMDGroup || nj.Detail != "multi-dimensional threadgroup" {
		t.Fatalf("a 4x4x2 threadgroup: %v, want set aside", err)
	}
}
