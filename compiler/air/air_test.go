package air_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/corpus/corpustest"
)

func readFixture(t *testing.T, name string) *air.Module {
	b, err := os.ReadFile(filepath.Join("..", "bitcode", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := bitcode.ReadModule(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEntryPointsFixture(t *testing.T) {
	m := readFixture(t, "families.bc")
	eps, err := air.EntryPoints(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 1 {
		t.Fatalf("%d entry points, want 1", len(eps))
	}
	ep := eps[0]
	if ep.Stage != air.Kernel || ep.Function.Name != "memory" || len(ep.Outputs) != 0 || len(ep.Inputs) != 2 {
		t.Fatalf("entry point %+v", ep)
	}
	in0, in1 := ep.Inputs[0], ep.Inputs[1]
	want0 := air.Binding{Param: 0, Role: "air.buffer", Location: 0, LocationCount: 1, AddrSpace: 1, Access: "read_write",
		ArgTypeName: "float", ArgName: "out", ArgTypeSize: 4, ArgTypeAlign: 4, BufferSize: -1}
	in0.Keys, in0.Type = nil, nil
	if !reflect.DeepEqual(in0, want0) {
		t.Errorf("input 0:\n got  %+v\n want %+v", in0, want0)
	}
	if in1.Access != "read" || in1.AddrSpace != 2 || in1.Location != 1 || in1.ArgName != "in" {
		t.Errorf("input 1: %+v", in1)
	}
	if !reflect.DeepEqual(in1.Unknown, []string{"air.new_key"}) {
		t.Errorf("input 1 unknown keys %v, want [air.new_key]", in1.Unknown)
	}
	if p, ok := in1.Type.(*air.PointerType); !ok || p.AddrSpace != 2 {
		t.Errorf("input 1 type %v", in1.Type)
	}
}

// TestEntryPointsRejectsBadShape breaks an entry node on purpose.
func TestEntryPointsRejectsBadShape(t *testing.T) {
	m := readFixture(t, "families.bc")
	node := m.NamedMetadata("air.kernel").Nodes[0].(*air.MDNode)
	node.Ops[0] = &air.MDString{Value: "not a function"}
	if _, err := air.EntryPoints(m); err == nil {
		t.Fatal("an entry node without a function decoded without error")
	}
	m = readFixture(t, "families.bc")
	in := m.NamedMetadata("air.kernel").Nodes[0].(*air.MDNode).Ops[2].(*air.MDNode).Ops[0].(*air.MDNode)
	in.Ops[0] = &air.MDValue{Value: &air.ConstInt{Typ: &air.IntType{Bits: 32}, Bits: 99}}
	if _, err := air.EntryPoints(m); err == nil {
		t.Fatal("an input naming parameter 99 of 3 decoded without error")
	}
}

func TestFeaturesFixture(t *testing.T) {
	f := air.Features(readFixture(t, "families.bc"))
	if !sort.StringsAreSorted(f) {
		t.Errorf("features not sorted: %v", f)
	}
	for _, want := range []string{"call:air.fast_sqrt.f32", "call:llvm.fabs.f32", "md:air.buffer", "md:air.read_write",
		"op:fadd", "op:getelementptr", "op:shufflevector", "op:atomicrmw", "type:<4 x float>", "type:half",
		"stage:kernel", "md-unknown:air.new_key"} {
		if i := sort.SearchStrings(f, want); i == len(f) || f[i] != want {
			t.Errorf("feature %q missing from %v", want, f)
		}
	}
	for i := 1; i < len(f); i++ {
		if f[i] == f[i-1] {
			t.Errorf("feature %q listed twice", f[i])
		}
	}
}

// TestFeaturesCallsNotDeclarations removes every call of an air.* function
// and checks its feature goes although the declaration stays.
func TestFeaturesCallsNotDeclarations(t *testing.T) {
	m := readFixture(t, "families.bc")
	for _, fn := range m.Functions {
		for _, b := range fn.Blocks {
			for i, in := range b.Insts {
				if c, ok := in.(*air.Call); ok && strings.HasPrefix(c.Called().Name, "air.") {
					b.Insts[i] = &air.Unreachable{InstBase: air.InstBase{Typ: air.Void}}
				}
			}
		}
	}
	if m.Function("air.fast_sqrt.f32") == nil {
		t.Fatal("declaration vanished")
	}
	for _, f := range air.Features(m) {
		if f == "call:air.fast_sqrt.f32" {
			t.Fatal("a declared but uncalled function is listed as called")
		}
	}
}

// TestEntryPointsCorpus decodes the entry points of every distinct module
// of the real corpus (AIRPIPE_CORPUS), counts them by stage, and runs
// Verify on every module.
func TestEntryPointsCorpus(t *testing.T) {
	stages := map[air.Stage]int{}
	unknown := map[string]int{}
	mods, refused := 0, 0
	for _, f := range corpustest.Functions(t) {
		m, err := bitcode.ReadModule(f.Bitcode)
		if err != nil {
			// The reader's refusals are judged, by name and count, by
			// compiler/bitcode's TestReadCorpus; here they are only counted.
			refused++
			t.Logf("%s!%s: %v", f.Library, f.Name, err)
			continue
		}
		mods++
		if err := air.Verify(m); err != nil {
			t.Errorf("%s!%s: %v", f.Library, f.Name, err)
		}
		eps, err := air.EntryPoints(m)
		if err != nil {
			t.Errorf("%s!%s: %v", f.Library, f.Name, err)
			continue
		}
		for _, ep := range eps {
			stages[ep.Stage]++
			for _, in := range ep.Inputs {
				for _, u := range in.Unknown {
					unknown[u]++
				}
			}
		}
	}
	t.Logf("%d modules (%d refused by the reader); entry points by stage: %v; unknown input keys: %v", mods, refused, stages, unknown)
}

// TestVerifyFixtures checks the invariants on the fixtures, then breaks
// one on purpose and sees Verify report it.
func TestVerifyFixtures(t *testing.T) {
	for _, name := range []string{"families.bc", "metadata.bc", "debuginfo.bc"} {
		if err := air.Verify(readFixture(t, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	m := readFixture(t, "families.bc")
	f := m.Function("arith")
	add := f.Blocks[0].Insts[0].(*air.BinOp)
	add.Y = f.Args[2] // float + i32
	if err := air.Verify(m); err == nil {
		t.Fatal("Verify accepted fadd float, i32")
	}
	m = readFixture(t, "families.bc")
	b := m.Function("control").Blocks[0]
	b.Insts = b.Insts[:len(b.Insts)-1]
	b.Insts = append(b.Insts, &air.Unreachable{InstBase: air.InstBase{Typ: air.Void}})
	if err := air.Verify(m); err != nil {
		t.Fatalf("a block ending in unreachable is valid: %v", err)
	}
	b.Insts = append(b.Insts, b.Insts[0])
	if err := air.Verify(m); err == nil {
		t.Fatal("Verify accepted an instruction after a terminator")
	}
}
