package cpuref

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// TestDisassembledRecently: Run's second disassembly of the same bitcode
// starts no llvm-dis-19 and gives the same text; another module's does,
// and once recentTextEntries others came after it, the first one's again.
func TestDisassembledRecently(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile("testdata/affine.ll")
	if err != nil {
		t.Fatal(err)
	}
	bc := assemble(t, string(ll))
	runs := func() int { return proc.Tally()["llvm-dis-19"].Runs }
	dis := func(b []byte) string {
		t.Helper()
		text, err := disassembled(context.Background(), b, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	before := runs()
	first := dis(bc)
	if again := dis(bc); again != first {
		t.Error("the remembered text differs")
	}
	if got := runs() - before; got != 1 {
		t.Errorf("two disassemblies of one module started llvm-dis-19 %d times, want 1", got)
	}
	for i := range recentTextEntries {
		// The same module with one more global: other bitcode.
		other := assemble(t, string(ll)+fmt.Sprintf("\n@distext_%d = global i32 %d\n", i, i))
		dis(other)
	}
	before = runs()
	if dis(bc) != first {
		t.Error("the text differs after eviction")
	}
	if got := runs() - before; got != 1 {
		t.Errorf("after %d other modules llvm-dis-19 ran %d times for the first again, want 1", recentTextEntries, got)
	}
}
