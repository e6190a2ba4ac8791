package device

import (
	"reflect"
	"testing"
)

func TestParseTargets(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{"", []string{"radv-navi21", "lavapipe"}, false},
		{"radv:navi21,lavapipe", []string{"radv-navi21", "lavapipe"}, false},
		{"radv-gfx1100, llvmpipe, lavapipe", []string{"radv-gfx1100", "lavapipe"}, false},
		{"radv", []string{"radv-navi21"}, false},
		{"NVIDIA", []string{"NVIDIA"}, false},
		{"lavapipe,,radv", nil, true},
		{"radv:", nil, true},
		{"radv:a:b", nil, true},
	} {
		got, err := ParseTargets(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: err %v, bad %v", c.in, err, c.bad)
			continue
		}
		if !c.bad && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStatsInt(t *testing.T) {
	s := Stats{"VGPRs": "24", "Hash": "x"}
	if v, ok := s.Int("VGPRs"); !ok || v != 24 {
		t.Errorf("VGPRs: %d %v", v, ok)
	}
	if _, ok := s.Int("Hash"); ok {
		t.Error("a non-number parsed")
	}
	if _, ok := s.Int("SGPRs"); ok {
		t.Error("a missing statistic parsed")
	}
}
