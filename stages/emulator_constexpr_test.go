package stages

import (
	"context"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorConstexprSampler judges constexpr_sampler.ll (samples through
// two constexpr samplers, a global and an inttoptr word, and a sampler
// argument) on lavapipe: the reference decodes both words, the device binds
// a VkSampler of each decoded state at the translation's bindings, and it
// passes.
func TestEmulatorConstexprSampler(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/constexpr_sampler.ll")
	var words []string
	for _, b := range m.Translation.Reflection.Bindings {
		if b.SamplerState != "" {
			words = append(words, b.SamplerState)
		}
	}
	if len(words) != 2 {
		t.Fatalf("reflection constexpr samplers %v, want two", words)
	}
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed {
		t.Fatalf("constexpr_sampler.ll: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesSamplerWordSwap plants a translation whose reflection
// hands the device another state word than the AIR's (the linear sampler's
// word moved to the nearest one's binding): the pairing by word catches it.
func TestEmulatorCatchesSamplerWordSwap(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/constexpr_sampler.ll")
	bs := m.Translation.Reflection.Bindings
	var idx []int
	for i, b := range bs {
		if b.SamplerState != "" {
			idx = append(idx, i)
		}
	}
	if len(idx) != 2 {
		t.Fatalf("reflection constexpr samplers at %v", idx)
	}
	bs[idx[1]].SamplerState = bs[idx[0]].SamplerState
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorInterfaceMismatch || !strings.Contains(r.Message, "constexpr sampler") {
		t.Fatalf("swapped sampler word: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}
