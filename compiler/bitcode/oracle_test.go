package bitcode

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/oracle"
)

// corpusAgreeFloor is the oracle agreement measured over the real corpus:
// all 3,407 distinct modules of the 616-library share (2026-12-01).
const corpusAgreeFloor = 3407

func needTools(t *testing.T, tools ...string) {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: %v", tool, err)
		}
	}
}

// assemble runs llvm-as-19 on a fixture.
func assemble(t *testing.T, ll string) []byte {
	out := filepath.Join(t.TempDir(), filepath.Base(ll)+".bc")
	if msg, err := exec.Command("llvm-as-19", ll, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19 %s: %v\n%s", ll, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func printLL(t *testing.T, data []byte, hook func(block, code uint64, ops []uint64)) (string, error) {
	r := &reader{breakHook: hook, budget: len(data)/2 + 4096}
	bc, err := stripWrapper(data)
	if err != nil {
		return "", err
	}
	m, rerr := r.read(bc)
	if rerr != nil {
		return "", rerr
	}
	var buf bytes.Buffer
	if err := WriteLL(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.String(), nil
}

// TestOracleFixtures assembles the project's .ll fixtures — this package's,
// compiler/libwrap's (the Apple-shaped library forms included) and
// compiler/translate's apple_*.ll — and requires the oracle to agree on
// every one the reader accepts.
func TestOracleFixtures(t *testing.T) {
	needTools(t, "llvm-as-19", oracle.Tool)
	var lls []string
	for _, pattern := range []string{"testdata/*.ll", "../libwrap/testdata/*.ll", "../translate/testdata/apple_*.ll"} {
		m, _ := filepath.Glob(pattern)
		if len(m) == 0 {
			t.Fatalf("no fixtures match %s", pattern)
		}
		lls = append(lls, m...)
	}
	agree, total := 0, 0
	for _, ll := range lls {
		if strings.HasPrefix(filepath.Base(ll), "refuse_") {
			continue
		}
		total++
		data := assemble(t, ll)
		ours, err := printLL(t, data, nil)
		if err != nil {
			t.Errorf("%s: %v", ll, err)
			continue
		}
		v, err := oracle.LLVMDis(context.Background(), data, ours)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Agrees {
			t.Errorf("%s: oracle disagrees at line %d:\n ours:   %s\n theirs: %s", ll, v.Line, v.Ours, v.Theirs)
			continue
		}
		agree++
	}
	t.Logf("oracle agrees on %d of %d fixtures", agree, total)
}

// TestRefusesByName checks that a construct outside the reader's subset
// fails with reader/unknown-record naming the record.
func TestRefusesByName(t *testing.T) {
	needTools(t, "llvm-as-19")
	_, err := ReadModule(assemble(t, "testdata/refuse_invoke.ll"))
	e, ok := err.(*Error)
	if !ok || e.Code != CodeUnknownRecord || e.Detail != "FUNCTION_BLOCK/INST_INVOKE(code 13)" {
		t.Fatalf("got %v, want %s FUNCTION_BLOCK/INST_INVOKE(code 13)", err, CodeUnknownRecord)
	}
}

// TestOracleCatchesBrokenReader swaps the two operands of every binary
// operator record on purpose and requires the oracle to see it.
func TestOracleCatchesBrokenReader(t *testing.T) {
	needTools(t, "llvm-as-19", oracle.Tool)
	data := assemble(t, "testdata/families.ll")
	swaps := 0
	swap := func(block, code uint64, ops []uint64) {
		if block == functionID && code == funcCodeInstBinop && len(ops) >= 3 {
			ops[0], ops[1] = ops[1], ops[0]
			swaps++
		}
	}
	ours, err := printLL(t, data, swap)
	if err != nil {
		t.Fatalf("broken reader failed outright (want a wrong module): %v", err)
	}
	if swaps == 0 {
		t.Fatal("the hook found no binary operator to break")
	}
	v, err := oracle.LLVMDis(context.Background(), data, ours)
	if err != nil {
		t.Fatal(err)
	}
	if v.Agrees {
		t.Fatalf("oracle agreed with a reader that swapped %d operand pairs", swaps)
	}
	t.Logf("oracle caught the swap at line %d:\n ours:   %s\n theirs: %s", v.Line, v.Ours, v.Theirs)
}

// TestOracleCorpus runs the oracle over every distinct corpus module and
// reports "agrees on N of M", requiring the measured floor.
func TestOracleCorpus(t *testing.T) {
	needTools(t, oracle.Tool)
	mods := corpusModules(t)
	if testing.Short() {
		t.Skip("-short: the corpus oracle runs llvm-dis-19 once per module")
	}
	agree, failed, oracleFailed := 0, 0, 0
	firstLines := map[string]int{}
	for _, m := range mods {
		ours, err := printLL(t, m.data, nil)
		if err != nil {
			failed++
			t.Logf("%s: %v", m.name, err)
			continue
		}
		v, err := oracle.LLVMDis(context.Background(), m.data, ours)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case v.OracleFailed:
			oracleFailed++
		case v.Agrees:
			agree++
		default:
			key := v.Theirs
			if len(key) > 60 {
				key = key[:60]
			}
			firstLines[key]++
			t.Logf("%s: disagrees at line %d:\n ours:   %s\n theirs: %s", m.name, v.Line, v.Ours, v.Theirs)
		}
	}
	keys := make([]string, 0, len(firstLines))
	for k := range firstLines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%3d disagreements at: %s", firstLines[k], k)
	}
	t.Logf("oracle agrees on %d of %d distinct modules (reader refused %d, llvm-dis failed on %d)", agree, len(mods), failed, oracleFailed)
	if agree < corpusAgreeFloor {
		t.Errorf("oracle agrees on %d, below the measured %d", agree, corpusAgreeFloor)
	}
}
