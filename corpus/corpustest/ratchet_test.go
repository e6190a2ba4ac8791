package corpustest

import "testing"

// errCounter counts Ratchet's errors.
type errCounter struct{ errors int }

func (*errCounter) Helper()                 {}
func (c *errCounter) Errorf(string, ...any) { c.errors++ }
func (*errCounter) Logf(string, ...any)     {}

// TestRatchet shows the ratchet able to fail: a new key, more of a known
// one, and fewer of a known one each fail; the measured table passes.
func TestRatchet(t *testing.T) {
	known := map[string]int{"a": 2}
	for _, tc := range []struct {
		name   string
		got    map[string]int
		errors int
	}{
		{"as measured", map[string]int{"a": 2}, 0},
		{"new key", map[string]int{"a": 2, "b": 1}, 1},
		{"more of a known key", map[string]int{"a": 3}, 1},
		{"fewer of a known key", map[string]int{"a": 1}, 1},
		{"none", map[string]int{}, 1},
	} {
		var c errCounter
		Ratchet(&c, "refused", tc.got, known)
		if c.errors != tc.errors {
			t.Errorf("%s: %d errors, want %d", tc.name, c.errors, tc.errors)
		}
	}
}
