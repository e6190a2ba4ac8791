package bitcode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/compiler/air"
)

// bigModule assembles, with llvm-as-19, a module of n small functions: far
// more entries than the cursor reads between looks at its context.
func bigModule(t testing.TB, n int) []byte {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip("llvm-as-19 not installed (make deps)")
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "define i32 @f%d(i32 %%x) {\n  %%a = add i32 %%x, %d\n  %%m = mul i32 %%a, %%x\n  ret i32 %%m\n}\n", i, i)
	}
	dir := t.TempDir()
	ll, bc := filepath.Join(dir, "big.ll"), filepath.Join(dir, "big.bc")
	if err := os.WriteFile(ll, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("llvm-as-19", "-o", bc, ll).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestReadModuleContext: a live context reads the module as ReadModule
// does; an ended one (cancelled, or past its deadline) stops the read with
// the context's error and no module, whatever point it had reached.
func TestReadModuleContext(t *testing.T) {
	data := bigModule(t, 3000)
	m, err := ReadModuleContext(context.Background(), data)
	if err != nil || len(m.Functions) != 3000 {
		t.Fatalf("live context: %v, %d functions", err, len(m.Functions))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"cancelled", cancelled, context.Canceled},
		{"deadline", expired, context.DeadlineExceeded},
	} {
		m, err := ReadModuleContext(c.ctx, data)
		if m != nil || !errors.Is(err, c.want) {
			t.Errorf("%s: module %v, error %v; want none and %v", c.name, m != nil, err, c.want)
		}
	}
}

// BenchmarkReaderMemory reads a large generated module (30,000 functions)
// and reports the reader's memory per input byte: everything allocated
// (alloc-B/in-B, which the fuzz target bounds by AllocationBound) and what
// the finished module keeps live (live-B/in-B). The reader stage refuses a
// module whose AllocationBound exceeds its budget before reading it.
func BenchmarkReaderMemory(b *testing.B) {
	data := bigModule(b, 30000)
	var before, after runtime.MemStats
	var kept *air.Module
	b.ResetTimer()
	for range b.N {
		runtime.GC()
		runtime.ReadMemStats(&before)
		m, err := ReadModule(data)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = m
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(len(data)), "alloc-B/in-B")
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(len(data)), "live-B/in-B")
	}
	b.ReportMetric(float64(len(data)), "in-B")
	runtime.KeepAlive(kept)
	if bound := AllocationBound(len(data)); after.TotalAlloc-before.TotalAlloc > bound {
		b.Errorf("allocated %d bytes, more than AllocationBound %d", after.TotalAlloc-before.TotalAlloc, bound)
	}
}
