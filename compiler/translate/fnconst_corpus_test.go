package translate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/corpus/corpustest"
)

// TestCorpusFunctionConstants translates every entry point of the corpus
// modules that list function constants: each translates, validates, and
// declares a spec constant for every listed global its body loads directly —
// or is refused by named findings, those about function constants counted
// against knownFnConstRefusals.
func TestCorpusFunctionConstants(t *testing.T) {
	needValidator(t)
	var mods, eps, ok, refused, invalid, withSpecs, specs int
	fcRefused := map[string]int{}
	for _, bc := range corpusModules(t) {
		m, err := bitcode.ReadModule(bc)
		if err != nil || m.NamedMetadata("air.function_constants") == nil {
			continue
		}
		list, err := air.EntryPoints(m)
		if err != nil {
			t.Errorf("EntryPoints: %v", err)
			continue
		}
		mods++
		fcs, _ := functionConstants(m)
		for _, ep := range list {
			eps++
			out, err := Translate(m, ep)
			var me *MissingError
			if errors.As(err, &me) && !mentionsFunctionConstant(me) {
				// Refused for something else (ray tracing, intersection stage).
				refused++
				t.Logf("%s: %v", ep.Function.Name, err)
				continue
			}
			if errors.As(err, &me) {
				// Refused for a function-constant form: counted by
				// finding, and only the known forms are allowed.
				for _, f := range me.Missing {
					if mentionsFunctionConstant(&MissingError{Missing: []Finding{f}}) {
						fcRefused[f.String()]++
					}
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", ep.Function.Name, err)
				continue
			}
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				var ve *spirv.ValidationError
				if errors.As(err, &ve) {
					// Invalid SPIR-V is counted and ratcheted by TestCorpus;
					// here only a defect it does not know fails.
					line := validatorLine(ve.Output)
					if _, known := knownInvalid[line]; !known {
						t.Errorf("%s: spirv-val rejects: %s", ep.Function.Name, line)
					}
					invalid++
					continue
				}
				t.Fatal(err)
			}
			declared := map[string]bool{}
			for _, sc := range out.Reflection.SpecConstants {
				declared[sc.Name] = true
				base := fnConstSpecBase
				if sc.Defined {
					base = fnConstDefinedBase // is_function_constant_defined's flag
				}
				if sc.ID != uint32(base+sc.Index) {
					t.Errorf("%s: spec constant %+v", ep.Function.Name, sc)
				}
			}
			for _, bl := range ep.Function.Blocks {
				for _, in := range bl.Insts {
					if ld, ok := in.(*air.Load); ok {
						if g, ok := ld.Ptr.(*air.GlobalVariable); ok && fcs[g] != nil && !declared[fcs[g].name] {
							t.Errorf("%s: loads function constant %q but declares no spec constant for it", ep.Function.Name, fcs[g].name)
						}
					}
				}
			}
			ok++
			if len(out.Reflection.SpecConstants) == 0 {
				t.Logf("%s: no spec constant", ep.Function.Name)
			}
			if len(out.Reflection.SpecConstants) > 0 {
				withSpecs++
				specs += len(out.Reflection.SpecConstants)
			}
		}
	}
	t.Logf("modules with function constants %d, entry points %d: %d translate and validate (%d declare %d spec constants), %d invalid (known defects), %d refused for other features",
		mods, eps, ok, withSpecs, specs, invalid, refused)
	corpustest.Ratchet(t, "function-constant refusal", fcRefused, knownFnConstRefusals)
}

// knownFnConstRefusals counts the function-constant forms the translator
// still refuses on ../shared/corpus, by finding; a ratchet like
// knownInvalid. Empty since 2026-12-02 (air.is_function_constant_defined
// is carried; measured over all 3,407 modules: 1,133 with function
// constants, 1,110 translate and validate, 23 refused for other features).
var knownFnConstRefusals = map[string]int{}

func mentionsFunctionConstant(me *MissingError) bool {
	for _, f := range me.Missing {
		if strings.Contains(f.Detail, "function constant") || strings.Contains(f.Detail, "global_ctors") || strings.Contains(f.Detail, "function_constant") {
			return true
		}
	}
	return false
}
