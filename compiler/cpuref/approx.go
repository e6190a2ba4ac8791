package cpuref

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Approximate operations with the device's values (issue 17 item 3).
//
// Metal bounds the element-wise approximate operations (SubstitutableOps:
// sqrt, pow, exp, sin ... in their precise and fast_ forms) in ULP rather
// than defining them, so no reference can say which value a device
// computes. What can be judged is everything around them: the device
// records the operands and result of each such call (compiler/translate's
// instrumentation mode), the records are checked against the operation's
// MSL §8.4 bound (compiler/mathbound), and the reference then takes the
// device's results in place of its own, so every other operation of the
// kernel is compared exactly.
//
// The reference runs such a function (a kernel, a fragment or a vertex
// function) twice:
//
//   - provisional (Options.ApproximateProvisional): each substitutable call
//     is computed with the C library in double precision and rounded to the
//     operation's type. This run only chooses the input family and the grid
//     (the device must be given the same bytes); its outputs are never
//     compared (Result.Provisional).
//   - substituted (Options.Substitution): each call looks up, among the
//     records of the same invocation (a kernel's thread, a fragment
//     function's pixel, a vertex function's vertex: its linear position in
//     the reference's grid), the first one (after the last match)
//     of the same declaration whose operands are bit for bit the
//     reference's, and returns that record's result. A call whose operands
//     the device never recorded (the invocation overflowed its records, or
//     the device computed another operand: a fused multiply-add, an
//     order-only sum, or a fault) takes the provisional value and is
//     counted as unmatched (Result.Substituted): a pass is still a pass —
//     the output is one Metal permits — but a mismatch with unmatched calls
//     is not evidence of a fault.
//
// Only calls whose arguments and result share one float or half type of at
// most 4 lanes, with at most 3 arguments, are substitutable (the records'
// layout, compiler/translate/trace.go); any other approximate call keeps
// the function set aside (KindApproximate).

// SubstitutableOps are the approximate operations (names without air.,
// fast_/precise_ and the type) whose calls the reference can take from a
// device's records. compiler/translate's TracedFamilies must be the same
// list (checked in stages/approxtrace).
var SubstitutableOps = []string{
	"sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
	"asinh", "acosh", "atanh", "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "powr", "fmod",
	"sinpi", "cospi", "tanpi",
}

// Substitution is a device's record of a kernel's approximate calls, in
// compiler/translate's trace layout: Invocations regions of
// InvocationWords little-endian words, each a call count then Capacity+1
// records of 16 words (word 0 the index in Ops of the declaration called,
// then the arguments and the result in 16-byte slots).
type Substitution struct {
	Ops             []string
	Invocations     int
	InvocationWords int
	Capacity        int
	Words           []byte
	// Digest names the records (the reference cache keys a substituted
	// reference by it).
	Digest string
}

// Substituted says how a reference's approximate calls were computed.
type Substituted struct {
	// Calls is the number of substitutable calls the reference made (in its
	// first pass over the grid), Matched those answered with a device
	// record; Calls − Matched took the provisional value.
	Calls   int64
	Matched int64
}

// Unmatched is the calls that took the provisional value.
func (s *Substituted) Unmatched() int64 { return s.Calls - s.Matched }

// substitutableDecl reports whether d is an approximate operation whose
// calls can be computed provisionally or substituted.
func substitutableDecl(d declaration) bool {
	op := strings.TrimPrefix(d.Name, "air.")
	base, _, _ := strings.Cut(op, ".")
	plain := strings.TrimPrefix(strings.TrimPrefix(base, "fast_"), "precise_")
	known := false
	for _, s := range SubstitutableOps {
		known = known || s == plain
	}
	if !known || len(d.Params) < 1 || len(d.Params) > 3 || !allEqual(d.Ret, d.Params) {
		return false
	}
	e := elem(d.Ret)
	n, err := strconv.Atoi(vecLen(d.Ret))
	return err == nil && n >= 1 && n <= 4 && (e == "float" || e == "half")
}

// approxFamily is d's operation name without prefix, variant and type.
func approxFamily(d declaration) string {
	base, _, _ := strings.Cut(strings.TrimPrefix(d.Name, "air."), ".")
	return strings.TrimPrefix(strings.TrimPrefix(base, "fast_"), "precise_")
}

// approxOp defines substitutable declaration d as a call of the harness's
// airpipe_approx(name, family, arity, lanes, bits, slots): the arguments
// are stored in 16-byte slots, the harness writes the result in the slot
// after them.
func approxOp(d declaration) string {
	lanes, _ := strconv.Atoi(vecLen(d.Ret))
	bits := elemBits(d.Ret)
	fam := approxFamily(d)
	var b strings.Builder
	fmt.Fprintf(&b, "@%q = private unnamed_addr constant [%d x i8] c\"%s\\00\"\n", "airpipe.approx.name."+d.Name, len(d.Name)+1, d.Name)
	fmt.Fprintf(&b, "@%q = private unnamed_addr constant [%d x i8] c\"%s\\00\"\n", "airpipe.approx.family."+d.Name, len(fam)+1, fam)
	var ps []string
	for i, p := range d.Params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
	}
	fmt.Fprintf(&b, "define internal %s @%q(%s) {\n", d.Ret, d.Name, strings.Join(ps, ", "))
	fmt.Fprintf(&b, "  %%s = alloca [%d x i8], align 16\n", 16*(len(d.Params)+1))
	for i, p := range d.Params {
		fmt.Fprintf(&b, "  %%p%d = getelementptr i8, ptr %%s, i64 %d\n  store %s %%a%d, ptr %%p%d, align 4\n", i, 16*i, p, i, i)
	}
	fmt.Fprintf(&b, "  call void @airpipe_approx(ptr @%q, ptr @%q, i32 %d, i32 %d, i32 %d, ptr %%s)\n",
		"airpipe.approx.name."+d.Name, "airpipe.approx.family."+d.Name, len(d.Params), lanes, bits)
	fmt.Fprintf(&b, "  %%pr = getelementptr i8, ptr %%s, i64 %d\n  %%r = load %s, ptr %%pr, align 4\n  ret %s %%r\n}\n", 16*len(d.Params), d.Ret, d.Ret)
	return b.String()
}

// approxSpec is the spec's approx line: where the harness reads the records
// (none for a provisional run; writeApproxRecords writes them) and writes
// its counts.
func approxSpec(dir string, s *Substitution) (string, error) {
	stats := filepath.Join(dir, "approx.out")
	if s == nil {
		return fmt.Sprintf("approx 0 0 0 0 - %s\n", stats), nil
	}
	if s.Invocations < 0 || s.InvocationWords < 1 || s.Capacity < 1 || len(s.Words) != s.Invocations*s.InvocationWords*4 {
		return "", fmt.Errorf("cpuref: substitution of %d bytes for %d invocations of %d words", len(s.Words), s.Invocations, s.InvocationWords)
	}
	path := filepath.Join(dir, approxRecordsFile)
	var b strings.Builder
	fmt.Fprintf(&b, "approx %d %d %d %d %s %s\n", len(s.Ops), s.Invocations, s.InvocationWords, s.Capacity, path, stats)
	for _, op := range s.Ops {
		if op == "" || strings.ContainsAny(op, " \t\n") {
			return "", fmt.Errorf("cpuref: substitution operation %q", op)
		}
		b.WriteString(op + "\n")
	}
	return b.String(), nil
}

// approxRecordsFile is the file in a run's directory that holds the
// substitution's records.
const approxRecordsFile = "approx.bin"

// writeApproxRecords writes the substitution's records (nil: none, a
// provisional run) where approxSpec's line says they are.
func writeApproxRecords(dir string, s *Substitution) error {
	if s == nil {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, approxRecordsFile), s.Words, 0o644)
}

// readApproxStats reads the counts the harness wrote.
func readApproxStats(dir string) (*Substituted, error) {
	b, err := os.ReadFile(filepath.Join(dir, "approx.out"))
	if err != nil {
		return nil, fmt.Errorf("cpuref: the harness wrote no approximate-call counts: %w", err)
	}
	var s Substituted
	if _, err := fmt.Sscanf(string(b), "calls %d matched %d", &s.Calls, &s.Matched); err != nil || s.Matched > s.Calls || s.Matched < 0 {
		return nil, fmt.Errorf("cpuref: approximate-call counts %q", strings.TrimSpace(string(b)))
	}
	return &s, nil
}

// Substitute runs a provisional result's Program again on the same inputs
// and grid, its approximate calls answered from sub: the substituted
// reference of the same build, with no LLVM tool run. opts gives the
// timeout and memory limit.
func Substitute(ctx context.Context, prov *Result, sub *Substitution, opts Options) (*Result, error) {
	if prov == nil || !prov.Provisional || len(prov.Program) == 0 || sub == nil {
		return nil, fmt.Errorf("cpuref: no provisional program and records to substitute")
	}
	opts = opts.withDefaults()
	opts.Grid, opts.SIMDWidth, opts.threadgroups = prov.Grid, prov.SIMDWidth, prov.Schedule
	opts.approx, opts.ApproximateProvisional, opts.Substitution = true, false, sub
	dir, err := scratchDir() // scratch.go
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	prog, err := unbundle(dir, prov.Program)
	if err != nil {
		return nil, err
	}
	outs, err := execute(ctx, dir, prog, prov.Kernel, prov.Inputs, opts)
	if err != nil {
		return nil, err
	}
	stats, err := readApproxStats(dir)
	if err != nil {
		return nil, err
	}
	res := *prov
	res.Program, res.Provisional, res.Outputs, res.Substituted = nil, false, outs, stats
	res.DenormalsPreserved = opts.PreserveDenormals && prov.Kernel.DenormsDisabled
	return &res, nil
}
