package bitcode

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/oracle"
)

// TestUseListBlocks reads a module whose use-list order llvm-as-19 kept
// (USELIST_BLOCK in the module and in both functions, DEFAULT and BB
// records) and requires the oracle to agree. The same module assembled
// without use-list order must print the same text but for the "; preds ="
// comments: the order changes no meaning, only the order in which LLVM
// lists a block's predecessors.
func TestUseListBlocks(t *testing.T) {
	needTools(t, "llvm-as-19", "llvm-bcanalyzer-19", oracle.Tool)
	const ll = "testdata/uselist.ll"
	with := assembleUseList(t, ll, true, 3)
	without := assembleUseList(t, ll, false, 0)
	ours, err := printLL(t, with, nil)
	if err != nil {
		t.Fatalf("use-list order refused: %v", err)
	}
	v, err := oracle.LLVMDis(context.Background(), with, ours)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Agrees {
		t.Fatalf("oracle disagrees at line %d:\n ours:   %s\n theirs: %s", v.Line, v.Ours, v.Theirs)
	}
	plain, err := printLL(t, without, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := oracle.LLVMDis(context.Background(), without, plain); err != nil || !v.Agrees {
		t.Fatalf("oracle on the module without use-list order: %v %+v", err, v)
	}
	if plain == ours {
		t.Error("use-list order of %left changed nothing: the fixture no longer reorders a block's uses")
	}
	if a, b := dropPredsComments(plain), dropPredsComments(ours); a != b {
		t.Errorf("use-list order changed more than the preds comments:\n%s\nwithout it:\n%s", b, a)
	}
}

// assembleUseList runs llvm-as-19 with or without use-list order and
// checks the number of USELIST_BLOCKs the bitcode holds.
func assembleUseList(t *testing.T, ll string, keep bool, blocks int) []byte {
	out := filepath.Join(t.TempDir(), "uselist.bc")
	flag := "--preserve-bc-uselistorder=" + strconv.FormatBool(keep)
	if msg, err := exec.Command("llvm-as-19", flag, ll, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19 %s: %v\n%s", flag, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	dump, err := exec.Command("llvm-bcanalyzer-19", "-dump", out).CombinedOutput()
	if err != nil {
		t.Fatalf("llvm-bcanalyzer-19: %v\n%s", err, dump)
	}
	if n := strings.Count(string(dump), "<USELIST_BLOCK_ID"); n != blocks {
		t.Fatalf("%s: %d USELIST_BLOCKs, want %d", flag, n, blocks)
	}
	if blocks > 0 && !strings.Contains(string(dump), "<USELIST_CODE_BB") {
		t.Fatalf("%s: no USELIST_CODE_BB record", flag)
	}
	return data
}

func dropPredsComments(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if k := strings.Index(l, "; preds = "); k >= 0 {
			lines[i] = l[:k]
		}
	}
	return strings.Join(lines, "\n")
}
