package translate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
)

// longKernel is kernel_add.ll with n chained float additions in its body:
// more instructions than the translator emits between looks at its context.
func longKernel(t *testing.T, n int) (*air.Module, air.EntryPoint) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "kernel_add.ll"))
	if err != nil {
		t.Fatal(err)
	}
	var chain strings.Builder
	prev := "%r"
	for i := range n {
		fmt.Fprintf(&chain, "  %%c%d = fadd fast float %s, %%y\n", i, prev)
		prev = fmt.Sprintf("%%c%d", i)
	}
	text := strings.Replace(string(src), "  store float %r, ptr addrspace(1) %po, align 4\n",
		chain.String()+"  store float "+prev+", ptr addrspace(1) %po, align 4\n", 1)
	out, err := translateText(t, text)
	if err != nil || out == nil {
		t.Fatalf("the long kernel does not translate: %v", err)
	}
	m, err := bitcode.ReadModule(assembleText(t, text))
	if err != nil {
		t.Fatal(err)
	}
	eps, err := air.EntryPoints(m)
	if err != nil || len(eps) != 1 {
		t.Fatalf("EntryPoints: %v", err)
	}
	return m, eps[0]
}

// TestTranslateContext: a live context translates as Translate does; an
// ended one returns its error and no module, and the emission itself stops
// early (the instruction loop's finding), not after the whole function.
func TestTranslateContext(t *testing.T) {
	m, ep := longKernel(t, 2000)
	if out, err := TranslateContext(context.Background(), m, ep); err != nil || len(out.SPIRV) == 0 {
		t.Fatalf("live context: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := TranslateContext(ctx, m, ep); out != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: output %v, error %v; want none and context.Canceled", out != nil, err)
	}
	_, err := translate(m, ep, options{ctx: ctx})
	var me *MissingError
	if !errors.As(err, &me) || !strings.Contains(fmt.Sprint(me.Missing), "stopped: the context ended") {
		t.Errorf("the emission did not stop early: %v", err)
	}
}
