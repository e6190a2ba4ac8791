package device

import (
	"fmt"
	"strings"
)

// DefaultRADVFamily is the GPU family RADV's null device imitates unless a target names one.
const DefaultRADVFamily = "navi21"

// Devices lists the physical devices this machine offers: those the system loader enumerates,
// then RADV's null device (family DefaultRADVFamily) when Mesa's RADV driver is installed.
// The error wraps ErrNoVulkan when there is no loader at all.
func Devices() ([]Facts, error) {
	in, err := getInstance("")
	if err != nil {
		return nil, err
	}
	var out []Facts
	for _, p := range in.physical {
		out = append(out, p.facts)
	}
	if rin, err := getInstance(DefaultRADVFamily); err == nil {
		for _, p := range rin.physical {
			if p.facts.Driver == "radv" {
				out = append(out, p.facts)
			}
		}
	}
	return out, nil
}

// FactsOf describes the physical device spec names (as Open chooses it),
// without opening it.
func FactsOf(spec string) (Facts, error) {
	p, err := choose(spec)
	if err != nil {
		return Facts{}, err
	}
	return p.facts, nil
}

// radvFamilies are the families RADV_FORCE_FAMILY accepts in Mesa 22.3 (ac_get_family_name,
// compared ignoring case). RADV aborts the process on any other name, so airpipe refuses it
// first.
var radvFamilies = []string{
	"tahiti", "pitcairn", "verde", "oland", "hainan", "bonaire", "kaveri", "kabini", "hawaii",
	"iceland", "tonga", "carrizo", "fiji", "stoney", "polaris10", "polaris11", "polaris12", "vegam",
	"vega10", "raven", "vega12", "vega20", "raven2", "renoir", "arcturus", "aldebaran",
	"navi10", "navi12", "navi14", "navi21", "navi22", "navi23", "navi24", "vangogh", "rembrandt",
	"gfx1036", "gfx1100", "gfx1101", "gfx1102", "gfx1103_r1", "gfx1103_r2",
}

// knownRADVFamily reports whether RADV accepts family.
func knownRADVFamily(family string) bool {
	for _, f := range radvFamilies {
		if strings.EqualFold(f, family) {
			return true
		}
	}
	return false
}

// parseRADV reports whether spec names RADV's null device and which family: "radv-null",
// "radv", "radv-navi21", "radv:navi21".
func parseRADV(spec string) (family string, ok bool) {
	s := strings.ToLower(spec)
	switch {
	case s == "radv" || s == "radv-null" || s == "radv:null":
		return DefaultRADVFamily, true
	case strings.HasPrefix(s, "radv-") || strings.HasPrefix(s, "radv:"):
		return s[len("radv-"):], true
	}
	return "", false
}

// choose finds the physical device that spec names:
//   - "auto": the best real GPU (discrete, integrated, virtual, other), else a CPU device;
//   - "lavapipe" (or "llvmpipe"): Mesa's CPU driver;
//   - "radv-null", "radv-<family>", "radv:<family>": RADV's null device for that family;
//   - anything else: the first device whose name contains spec, ignoring case.
func choose(spec string) (*physical, error) {
	if fam, ok := parseRADV(spec); ok {
		if !knownRADVFamily(fam) {
			return nil, fmt.Errorf("%w: RADV has no family %q (Mesa 22.3 knows %s)", ErrUnavailable, fam, strings.Join(radvFamilies, ", "))
		}
		in, err := getInstance(fam)
		if err != nil {
			return nil, err
		}
		for _, p := range in.physical {
			if p.facts.Driver == "radv" {
				return p, nil
			}
		}
		return nil, fmt.Errorf("%w: no RADV null device for family %q (RADV_FORCE_FAMILY=%s enumerated %d devices)", ErrUnavailable, fam, fam, len(in.physical))
	}
	in, err := getInstance("")
	if err != nil {
		return nil, err
	}
	s := strings.ToLower(spec)
	switch s {
	case "auto", "":
		rank := map[string]int{"discrete-gpu": 0, "integrated-gpu": 1, "virtual-gpu": 2, "other": 3, "cpu": 4}
		var best *physical
		for _, p := range in.physical {
			if best == nil || rank[p.facts.Kind] < rank[best.facts.Kind] {
				best = p
			}
		}
		if best != nil {
			return best, nil
		}
	case "lavapipe", "llvmpipe":
		for _, p := range in.physical {
			if p.facts.Driver == "llvmpipe" || strings.Contains(strings.ToLower(p.facts.Name), "llvmpipe") {
				return p, nil
			}
		}
	default:
		for _, p := range in.physical {
			if strings.Contains(strings.ToLower(p.facts.Name), s) {
				return p, nil
			}
		}
	}
	var names []string
	for _, p := range in.physical {
		names = append(names, p.facts.Name)
	}
	return nil, fmt.Errorf("%w: no Vulkan device matches %q (devices: %q)", ErrUnavailable, spec, names)
}
