package cpuref

import (
	"bytes"
	"context"
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Undefined values. LLVM's undef is any value, and llc picks one (whatever a register held):
// a function that returns or stores a value reaching it — e.g. a switch's default arm
// feeding a phi's undef, as in a texture-type dispatch where no case holds — computes
// nothing Metal defines, and the device's value would be compared with an arbitrary one.
// So when the host module's function bodies use undef scalars or vectors, the reference is
// built a second time with each of them replaced by a fixed, unlikely constant
// (undefConstant) and run on the same inputs; outputs that differ are set aside as
// KindUndefined. An undef that reaches no output (an insertelement base every lane of
// which is overwritten, an unselected shufflevector operand) changes nothing. Shufflevector
// lines are left alone (a mask element must stay a constant index or undef), and so are
// aggregates, poison and undef in globals: an output reaching only those is not detected.

// KindUndefined sets aside a function whose outputs depend on an undef value.
const KindUndefined = "undefined-value"

// undefOperand matches an undef operand after its scalar or vector type.
var undefOperand = regexp.MustCompile(`(<(\d+) x (i\d+|half|bfloat|float|double)>|\b(i\d+|half|bfloat|float|double)) undef\b`)

// phiType matches a phi's result type, whose incoming values carry no type of their own.
var phiType = regexp.MustCompile(`= phi (?:[a-z]+ )*(<\d+ x (?:i\d+|half|bfloat|float|double)>|i\d+|half|bfloat|float|double) \[`)

// undefConstant is the constant that stands for undef of scalar type s: -136 (exact in
// half and bfloat) for floats, -91 for integers (truncated to the width), true for i1.
func undefConstant(s string) string {
	switch s {
	case "half", "bfloat", "float", "double":
		return "-1.360000e+02"
	case "i1":
		return "true"
	}
	return "-91"
}

// typedUndef is the constant of type ty (a scalar or vector type as the regexps match it)
// that stands for undef.
func typedUndef(ty string) string {
	if !strings.HasPrefix(ty, "<") {
		return undefConstant(ty)
	}
	n, s := vecLen(ty), elem(ty)
	var lanes []string
	for range atoiDefault(n) {
		lanes = append(lanes, s+" "+undefConstant(s))
	}
	return "<" + strings.Join(lanes, ", ") + ">"
}

// atoiDefault is a decimal lane count (0 when it is none).
func atoiDefault(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// undefVariant is host with every undef scalar and vector operand in a function body
// replaced by its undefConstant; changed reports whether there was one.
func undefVariant(host string) (variant string, changed bool) {
	lines := strings.Split(host, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "  ") || !strings.Contains(l, "undef") || strings.Contains(l, "shufflevector") {
			continue
		}
		n := undefOperand.ReplaceAllStringFunc(l, func(m string) string {
			ty := strings.TrimSuffix(m, " undef")
			return ty + " " + typedUndef(ty)
		})
		if p := phiType.FindStringSubmatch(n); p != nil && strings.Contains(n, "[ undef,") {
			n = strings.ReplaceAll(n, "[ undef,", "[ "+typedUndef(p[1])+",")
		}
		if n != l {
			lines[i], changed = n, true
		}
	}
	return strings.Join(lines, "\n"), changed
}

// checkUndefined builds the undef variant of host, when it has one, and runs it on inputs
// (the inputs the reference's outputs outs came from): an output that differs is
// KindUndefined, naming the buffer.
func checkUndefined(ctx context.Context, dir, host string, k *Kernel, inputs, outs []Data, opts Options) error {
	variant, changed := undefVariant(host)
	if !changed {
		return nil
	}
	vdir := filepath.Join(dir, "undef")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	prog, err := build(ctx, vdir, variant, opts.Timeout, opts.FuseMulAdd)
	if err != nil {
		return err
	}
	vouts, err := execute(ctx, vdir, prog, k, inputs, opts)
	if err != nil {
		// The variant failing where the reference ran (an undef index out of bounds,
		// an undef divisor) is the same dependence.
		return notJudgeable(KindUndefined, "undef", "with its undef values fixed to another constant the function does not run as it did (%v): it depends on a value LLVM and Metal leave undefined", err)
	}
	for i, o := range outs {
		if i < len(vouts) && !bytes.Equal(o.Bytes, vouts[i].Bytes) {
			return notJudgeable(KindUndefined, "undef", "%s depends on an undef value (with undef fixed to another constant it changes), which LLVM and Metal leave undefined", bufferName(k, o.Index))
		}
	}
	return nil
}

// bufferName names a harness buffer for a message.
func bufferName(k *Kernel, index int) string {
	switch {
	case k.Stage == air.Vertex && index == OutputBuffer:
		return "the vertex outputs"
	case index == DepthBuffer:
		return "the depth output"
	case index == StencilBuffer:
		return "the stencil output"
	case index >= StorageTextureBase && index < StorageTextureBase+MaxStorageTextures:
		return fmt.Sprintf("writable texture %d", index-StorageTextureBase)
	case index >= RenderTargetBase && index < StorageTextureBase:
		return fmt.Sprintf("render target %d", index-RenderTargetBase)
	}
	return fmt.Sprintf("buffer %d", index)
}
