package cpuref

import (
	"reflect"
	"testing"
)

// TestParseMembers: air.struct_type_info's groups of five become members;
// a list of another shape, or a member outside the element, is no list
// (the words are then compared bit for bit).
func TestParseMembers(t *testing.T) {
	atomic := []string{`i32 0`, `i32 4`, `i32 0`, `!"float"`, `!"__s"`}
	pair := []string{`i32 0`, `i32 4`, `i32 0`, `!"int"`, `!"a"`, `i32 4`, `i32 8`, `i32 0`, `!"float2"`, `!"b"`}
	cases := []struct {
		name string
		info []string
		size int
		want []Member
		ok   bool
	}{
		{"metal::_atomic<float>", atomic, 4, []Member{{0, 4, "float"}}, true},
		{"two members", pair, 12, []Member{{0, 4, "int"}, {4, 8, "float2"}}, true},
		{"member past the element", pair, 8, nil, false},
		{"not groups of five", atomic[:4], 4, nil, false},
		{"no element size", atomic, 0, nil, false},
		{"type name not a string", []string{`i32 0`, `i32 4`, `i32 0`, `!7`, `!"__s"`}, 4, nil, false},
	}
	for _, c := range cases {
		got, ok := parseMembers(c.info, c.size)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v %v, want %v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
