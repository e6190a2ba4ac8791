package translate

import (
	"encoding/binary"
	"os/exec"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
)

var fixtureNames = []string{"kernel_add.ll", "kernel_loop.ll", "kernel_threadgroup.ll", "kernel_math.ll", "kernel_nested.ll", "kernel_shortcircuit.ll", "kernel_exact.ll", "kernel_vocab.ll", "kernel_container.ll",
	"fragment_texture.ll", "fragment_depth.ll", "vertex_basic.ll", "missing_features.ll", "visible.ll", "texture_object.ll", "texture_slots.ll"}

// FuzzTranslate reads arbitrary bitcode and translates every entry point it
// declares: whatever the input, Translate must not panic, and what it
// returns must be a SPIR-V word stream.
func FuzzTranslate(f *testing.F) {
	if _, err := exec.LookPath("llvm-as-19"); err == nil {
		for _, name := range fixtureNames {
			f.Add(assemble(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := bitcode.ReadModule(data)
		if err != nil {
			return
		}
		eps, err := air.EntryPoints(m)
		if err != nil {
			return
		}
		for _, ep := range eps {
			out, err := Translate(m, ep)
			if err != nil {
				continue
			}
			if len(out.SPIRV) < 20 || len(out.SPIRV)%4 != 0 || binary.LittleEndian.Uint32(out.SPIRV) != spirv.MagicNumber {
				t.Fatalf("%s: output is not a SPIR-V module (%d bytes)", ep.Function.Name, len(out.SPIRV))
			}
		}
	})
}

// BenchmarkTranslateFixtures measures translation (not validation) of the fixtures.
func BenchmarkTranslateFixtures(b *testing.B) {
	type unit struct {
		m  *air.Module
		ep air.EntryPoint
	}
	var units []unit
	for _, name := range fixtureNames[:12] {
		m, ep := fixtureEntry(b, name)
		units = append(units, unit{m, ep})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, u := range units {
			if _, err := Translate(u.m, u.ep); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(units))/b.Elapsed().Seconds(), "modules/s")
}

// BenchmarkTranslateCorpus measures translation of every corpus entry point
// (bitcode already read; validation not included).
func BenchmarkTranslateCorpus(b *testing.B) {
	type unit struct {
		m  *air.Module
		ep air.EntryPoint
	}
	var units []unit
	for _, bc := range corpusModules(b) {
		m, err := bitcode.ReadModule(bc)
		if err != nil {
			continue
		}
		eps, err := air.EntryPoints(m)
		if err != nil {
			continue
		}
		for _, ep := range eps {
			units = append(units, unit{m, ep})
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, u := range units {
			_, _ = Translate(u.m, u.ep)
		}
	}
	b.ReportMetric(float64(b.N*len(units))/b.Elapsed().Seconds(), "modules/s")
}
