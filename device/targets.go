package device

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultTargets are the compile stage's default targets: RADV's null device imitating an
// RDNA2 GPU (real AMD ISA through ACO) and lavapipe.
var DefaultTargets = []string{"radv-" + DefaultRADVFamily, "lavapipe"}

// ParseTargets splits a --compile-targets value such as "radv:navi21,lavapipe" into target
// names OpenCompiler accepts, normalized ("radv:navi21" → "radv-navi21") and without
// duplicates. An empty value gives DefaultTargets.
func ParseTargets(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return append([]string(nil), DefaultTargets...), nil
	}
	var out []string
	seen := map[string]bool{}
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("compile targets %q: target %d is empty", s, i+1)
		}
		if fam, ok := parseRADV(f); ok {
			if fam == "" || strings.ContainsAny(fam, ":- ") {
				return nil, fmt.Errorf("compile targets %q: %q names no RADV family (e.g. radv:navi21)", s, f)
			}
			f = "radv-" + fam
		} else if strings.EqualFold(f, "llvmpipe") {
			f = "lavapipe"
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// Int is the statistic name as an integer, when the driver reported one.
func (s Stats) Int(name string) (int64, bool) {
	v, err := strconv.ParseInt(s[name], 10, 64)
	return v, err == nil
}
