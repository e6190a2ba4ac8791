package cpuref

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/airpipe/airpipe/compiler/libllvm"
	"github.com/airpipe/airpipe/internal/proc"
)

// MaxBufferSize bounds one buffer of a reference run, MaxTotalBufferSize
// all of them (the harness keeps about six bytes per buffer byte).
const (
	MaxBufferSize      = 64 << 20
	MaxTotalBufferSize = 128 << 20
)

// Grid is how a kernel is dispatched: threadgroups per grid and threads per
// threadgroup, each dimension at least 1.
type Grid struct {
	Groups  [3]uint32
	Threads [3]uint32
}

// DefaultGrid is 4×4 threads: 2×2 threadgroups of 2×2 threads, so that the
// threadgroup built-ins are not all zero.
func DefaultGrid() Grid {
	return Grid{Groups: [3]uint32{2, 2, 1}, Threads: [3]uint32{2, 2, 1}}
}

// GridFor is the grid a kernel whose position built-ins have dims
// components is dispatched over when Options.Grid is zero, as a Metal
// application would dispatch it: 16 threads in a line (2 threadgroups of 8)
// for a kernel that takes a scalar position, DefaultGrid for two
// components, 4×4×2 (2×2×2 threadgroups of 2×2×1) for three. Over a 4×4 grid
// a kernel written for a line would have its rows of threads race on the
// same words.
func GridFor(dims int) Grid {
	switch dims {
	case 2:
		return DefaultGrid()
	case 3:
		return Grid{Groups: [3]uint32{2, 2, 2}, Threads: [3]uint32{2, 2, 1}}
	}
	return Grid{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{8, 1, 1}}
}

// Size is the grid's total thread count per dimension.
func (g Grid) Size() [3]uint32 {
	return [3]uint32{g.Groups[0] * g.Threads[0], g.Groups[1] * g.Threads[1], g.Groups[2] * g.Threads[2]}
}

// Options configure a reference run.
type Options struct {
	// Grid is the dispatch (zero: GridFor the kernel's dimensions).
	Grid Grid
	// BufferSize is the size of a buffer whose size AIR does not state
	// (0: DefaultBufferSize).
	BufferSize int64
	// Timeout bounds each tool and the run itself (0: 60 s).
	Timeout time.Duration
	// MemoryLimit caps the reference process's data (0: 1 GiB).
	MemoryLimit uint64
	// WorkDir holds the files of the run ("": a temporary directory,
	// removed afterwards); with it every run runs, none is answered from
	// the process's kept results (runmemo.go), so that its files are there.
	WorkDir string
	// FuseMulAdd builds the reference with multiply-adds fused into FMA
	// instructions (llc -fp-contract=fast on an FMA-capable host): the
	// other execution that fast-math AIR permits. Run it only when
	// Result.ContractAllowed says the module allows contraction.
	FuseMulAdd bool
	// PreserveDenormals runs a module that disables denormals
	// (air.compile.denorms_disable, which the reference otherwise honours
	// by flushing: MXCSR FTZ+DAZ) with them kept: MSL §8.5 lets a GPU flush
	// a float denormal argument or result or keep it, so this is the other
	// answer such a module permits (lavapipe keeps them; its float
	// controls offer no flushing). Result.DenormalsPreserved says it
	// applied.
	PreserveDenormals bool
	// SIMDWidth is the SIMD-group width of the device the reference is
	// compared with (its Vulkan subgroupSize), 1 to MaxSIMDWidth; 0 when
	// unknown, which sets aside a kernel using SIMD-group values or
	// operations (simd.go).
	SIMDWidth int
	// ApproximateProvisional computes a function's substitutable approximate
	// calls (SubstitutableOps, approx.go) with the C library instead of
	// setting the function aside: the run chooses the inputs and the grid a
	// device trace is taken on; its outputs are not a reference
	// (Result.Provisional).
	ApproximateProvisional bool
	// Substitution, when set, answers those calls with a device's records
	// (approx.go); the result says how many it answered (Result.Substituted).
	Substitution *Substitution
	// InputFamily, when set, names the only input family tried (a
	// substituted run takes the family its provisional run chose, the
	// inputs the device was traced on).
	InputFamily string

	// threadgroups is what the module asks of the harness's threadgroups
	// (threadgroup.go), set by RunText.
	threadgroups threadgroupUse
	// approx says the host module calls airpipe_approx (set by RunText).
	approx bool
	// fcWords replaces the contract's words of the function constants it
	// lists, by index (the integer search's candidate, fcintsearch.go).
	fcWords map[int]uint32
}

// DefaultBufferSize is the size given to a buffer whose size AIR does not state:
// 128 KiB, so that a 16-bit offset read from pattern-filled data stays inside.
const DefaultBufferSize = 1 << 17

func (o Options) withDefaults() Options {
	if o.BufferSize <= 0 {
		o.BufferSize = DefaultBufferSize
	}
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	if o.MemoryLimit == 0 {
		o.MemoryLimit = 1 << 30
	}
	return o
}

// Data is one buffer's bytes, by Metal buffer index.
type Data struct {
	Index int
	Bytes []byte
}

// Result is a reference run: the kernel's interface, the bytes each buffer
// started with and the bytes it ended with.
type Result struct {
	Kernel  *Kernel
	Grid    Grid
	Inputs  []Data
	Outputs []Data
	// LL is the host module that ran (for reproducing by hand).
	LL string
	// ContractAllowed reports that the AIR lets multiply-adds be fused (a
	// fadd, fsub or fmul carries the fast or contract flag): a GPU that
	// fuses them computes another permitted answer.
	ContractAllowed bool
	// Fused reports that this reference was built with fused multiply-adds.
	Fused bool
	// DenormalsPreserved reports that the module disables denormals and
	// this reference kept them (Options.PreserveDenormals).
	DenormalsPreserved bool `json:",omitempty"`
	// Approximate names, sorted and as declared ("air.dot.v3f32"), the
	// order-only operations (OrderOnlyOps) the module declares: the
	// reference computes them in one canonical order, a GPU may sum or fuse
	// otherwise, so float outputs are fixed only within a ULP bound (empty:
	// every output is fixed to the bit).
	Approximate []string `json:",omitempty"`
	// InputFamily names the InputFamilies entry whose bytes fill the
	// air.buffer arguments (Inputs): the first on which the reference stays
	// in bounds and changes an output, chosen before any device runs.
	InputFamily string `json:",omitempty"`
	// Derivatives says which screen-space derivatives the entry point takes
	// and how the reference computed them ("dfdy, fwidth of pixel-independent
	// values: v − v"; derivative.go); empty when it takes none.
	Derivatives string `json:",omitempty"`
	// SIMDWidth is the SIMD-group width the kernel ran at, 0 when it uses no
	// SIMD-group value or operation.
	SIMDWidth int `json:",omitempty"`
	// Substitutable names, sorted, the approximate operations the kernel
	// calls whose values came from the C library (Provisional) or from a
	// device's records (Substituted); empty otherwise.
	Substitutable []string `json:",omitempty"`
	// Divisions names, sorted, the module's approximate divisions
	// ("fdiv.v2f32": an fdiv with fast, arcp or afn; approxdiv.go). The
	// reference divides exactly; an output that differs is judged again
	// with a device's quotients substituted (stages/approxtrace).
	Divisions []string `json:",omitempty"`
	// Provisional marks a run whose approximate calls took the C library's
	// values: it chose the inputs and grid, and is never compared.
	Provisional bool `json:",omitempty"`
	// Substituted counts the calls a device's records answered.
	Substituted *Substituted `json:",omitempty"`
	// Program is a provisional run's harness executable and the kernel's
	// object it loads (x86-64 Linux; program.bundle) and Schedule
	// how it ran the threads, so that the same build runs
	// again on a device's records (Substitute) — here, or on a GPU host
	// without LLVM that has the result from the reference cache. Empty
	// for any other run.
	Program  []byte         `json:",omitempty"`
	Schedule threadgroupUse `json:",omitempty"`
}

// Pattern is the initial content of the buffer with Metal index index:
// byte i is ((i + 1031·index)·7 + 13) & 0xff. Seed 003's (i·7+13)&0xff,
// shifted per buffer so that no two buffers start alike (a lowering that
// swapped two buffers would otherwise read the right bytes for the wrong
// reason). Untouched words show as this pattern in the output.
func Pattern(index int, size int64) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte((int64(i)+1031*int64(index))*7 + 13)
	}
	return b
}

// ClearTarget is a w×h render target holding Clear in every pixel.
func ClearTarget(w, h int) []byte {
	b := make([]byte, w*h*TexelSize)
	for i := 0; i < len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], Clear[i/4%4])
	}
	return b
}

// ClearDepthBuffer is a w×h DepthBuffer holding ClearDepth in every pixel.
func ClearDepthBuffer(w, h int) []byte {
	b := make([]byte, w*h*4)
	for i := 0; i < len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], ClearDepth)
	}
	return b
}

// ClearStencilBuffer is a w×h StencilBuffer holding ClearStencil in every pixel.
func ClearStencilBuffer(w, h int) []byte {
	b := make([]byte, w*h*4)
	for i := 0; i < len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], ClearStencil)
	}
	return b
}

// Disassemble returns llvm-dis-19's text of bitcode.
func Disassemble(ctx context.Context, bitcode []byte, timeout time.Duration) (string, error) {
	if text, ok := disassembleInChild(ctx, bitcode, timeout); ok { // llvmchild.go
		return text, nil
	}
	out, err := proc.Run(ctx, proc.Spec{Path: "llvm-dis-19", Args: []string{"-o", "-", "-"}, Stdin: bitcode, Timeout: timeout, MaxOutput: maxText})
	if errors.Is(err, proc.ErrNotFound) {
		return "", fmt.Errorf("%w: llvm-dis-19 is not installed", ErrUnavailable)
	}
	if err != nil {
		return "", err
	}
	if out.ExitCode != 0 || out.Truncated {
		return "", notJudgeable(KindDisassemble, "llvm-dis-19", "llvm-dis-19 cannot read the module (%s): %s", out.Describe(), out.Tail(3))
	}
	return string(out.Stdout), nil
}

// Run executes entry point entry of the AIR module bitcode on the CPU: LLVM
// compiles the retargeted module, the harness runs it over the grid with
// pattern-filled buffers, and the buffers come back. A shader the reference
// cannot run is a *NotJudgeableError; a missing tool wraps ErrUnavailable.
func Run(ctx context.Context, bitcode []byte, entry string, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	ll, err := disassembled(ctx, bitcode, opts.Timeout) // distext.go
	if err != nil {
		return nil, err
	}
	return RunText(ctx, ll, entry, opts)
}

// RunText is Run on llvm-dis text.
func RunText(ctx context.Context, ll, entry string, opts Options) (*Result, error) {
	simd := false
	res, err := runText(ctx, ll, entry, opts, &simd)
	if undefinedOutputs(err) {
		res, err = searchIntConstants(ctx, ll, entry, opts, err, &simd) // fcintsearch.go
	}
	var nj *NotJudgeableError
	if simd && errors.As(err, &nj) {
		nj.SIMD = true
	}
	return res, err
}

// runText is RunText; it sets *simd once it knows the kernel uses
// SIMD-group values or operations.
func runText(ctx context.Context, ll, entry string, opts Options, usesSIMD *bool) (*Result, error) {
	opts = opts.withDefaults()
	t := parseText(ll)
	t.fcWords = opts.fcWords
	k, err := inspect(t, entry)
	if err != nil {
		var nj *NotJudgeableError
		if !errors.As(err, &nj) {
			err = notJudgeable(KindMalformed, "entry point metadata", "%v", err)
		}
		return nil, err
	}
	derivatives, err := checkDerivatives(t, k)
	if err != nil {
		return nil, err
	}
	uses, err := threadgroupUses(t)
	if err != nil {
		return nil, err
	}
	simd := uses.SIMD || k.usesSIMD()
	*usesSIMD = simd
	if simd {
		switch {
		case k.Stage != "":
			return nil, notJudgeable(KindSIMDGroup, "simdgroup in a "+string(k.Stage)+" function", "SIMD-group operations in a %s function: the reference runs them in compute kernels only", k.Stage)
		case opts.SIMDWidth == 0:
			return nil, notJudgeable(KindSIMDGroup, "SIMD width unknown", "the kernel uses SIMD-group values or operations and the device's SIMD-group width was not given")
		case opts.SIMDWidth < 0 || opts.SIMDWidth > MaxSIMDWidth:
			return nil, fmt.Errorf("cpuref: SIMD-group width %d: want 1 to %d", opts.SIMDWidth, MaxSIMDWidth)
		}
	}
	if opts.Grid == (Grid{}) {
		opts.Grid = GridFor(k.Dimensions())
		if k.Stage == "" && declaresBarrier(t) {
			opts.Grid = CooperativeGridFor(k.Dimensions())
		}
		if simd {
			opts.Grid = simdGrid(k.Dimensions(), uint32(opts.SIMDWidth))
		}
		switch k.Stage {
		case air.Fragment:
			opts.Grid = DefaultGrid()
		case air.Vertex:
			opts.Grid = Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{Vertices, 1, 1}}
		}
	}
	for k := range 3 {
		if opts.Grid.Groups[k] < 1 || opts.Grid.Threads[k] < 1 {
			return nil, fmt.Errorf("cpuref: grid %+v: every dimension must be at least 1", opts.Grid)
		}
	}
	if simd && k.Stage == "" {
		if err := simdThreadgroupShape(opts.Grid); err != nil {
			return nil, err
		}
	}
	decls, err := declarations(t)
	if err != nil {
		return nil, err
	}
	var substitutable []string
	if opts.ApproximateProvisional || opts.Substitution != nil {
		for _, d := range decls {
			if substitutableDecl(d) {
				substitutable = append(substitutable, d.Name)
			}
		}
		substitutable = append(substitutable, approximateDivisions(t)...)
		sort.Strings(substitutable)
	}
	opts.approx = len(substitutable) > 0
	host, err := rewrite(t, k, opts.approx)
	if err != nil {
		return nil, err
	}
	opts.threadgroups = uses
	n := opts.Grid.Threads[0] * opts.Grid.Threads[1] * opts.Grid.Threads[2]
	if (uses.Barrier || uses.SIMD) && n > MaxThreadgroupThreads {
		return nil, fmt.Errorf("cpuref: grid %+v: more than %d threads in a threadgroup", opts.Grid, MaxThreadgroupThreads)
	}
	if !simd {
		opts.SIMDWidth = 0
	} else if n%uint32(opts.SIMDWidth) != 0 {
		return nil, notJudgeable(KindSIMDGroup, "partial simdgroup", "threadgroups of %d threads are not whole SIMD-groups of %d lanes: which lanes a partial one has is the device's", n, opts.SIMDWidth)
	}
	res := &Result{Kernel: k, Grid: opts.Grid, LL: host, ContractAllowed: contractAllowed(t), Fused: opts.FuseMulAdd, DenormalsPreserved: opts.PreserveDenormals && k.DenormsDisabled, Approximate: orderOnlyNames(decls), Derivatives: derivatives, SIMDWidth: opts.SIMDWidth,
		Substitutable: substitutable, Provisional: opts.approx && opts.Substitution == nil, Divisions: approximateDivisions(t)}
	var total int64
	for _, b := range k.Buffers {
		size := b.StaticSize
		if size == 0 {
			size = opts.BufferSize
		}
		if total += size; total > MaxTotalBufferSize {
			return nil, notJudgeable(KindArgument, "buffer sizes", "the buffers come to more than %d bytes", MaxTotalBufferSize)
		}
		res.Inputs = append(res.Inputs, Data{Index: b.Index, Bytes: InputFamilies[0].Fill(b.Index, size)})
	}
	res.InputFamily = InputFamilies[0].Name
	size := opts.Grid.Size()
	if k.Stage == air.Fragment && size[2] != 1 {
		return nil, fmt.Errorf("cpuref: grid %+v: a fragment function is drawn over a flat grid", opts.Grid)
	}
	for _, rt := range k.Targets {
		res.Inputs = append(res.Inputs, Data{Index: RenderTargetBase + rt.Index, Bytes: k.targetBytes(rt.Index, int(size[0]), int(size[1]))})
	}
	if k.Stage == air.Fragment && k.WritesDepth {
		res.Inputs = append(res.Inputs, Data{Index: DepthBuffer, Bytes: ClearDepthBuffer(int(size[0]), int(size[1]))})
	}
	if k.Stage == air.Fragment && k.WritesStencil {
		res.Inputs = append(res.Inputs, Data{Index: StencilBuffer, Bytes: ClearStencilBuffer(int(size[0]), int(size[1]))})
	}
	res.Inputs = append(res.Inputs, storageInputs(k)...)
	if k.Stage == air.Vertex {
		if size != [3]uint32{Vertices, 1, 1} {
			return nil, fmt.Errorf("cpuref: grid %+v: a vertex function runs over %d vertices in a line", opts.Grid, Vertices)
		}
		if len(k.Outputs) > 0 {
			res.Inputs = append(res.Inputs, Data{Index: OutputBuffer, Bytes: ClearTarget(Vertices*len(k.Outputs), 1)})
		}
	}
	dir := opts.WorkDir
	if dir == "" {
		dir, err = scratchDir() // scratch.go
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	// A host whose undefs may reach a value runs as its first undef
	// variant (undef.go): a build fewer than running the host as it is and
	// both variants besides, and an undef is then one fixed value rather
	// than whatever a register held.
	variants, undef := undefVariants(host)
	if undef {
		host = variants[0]
	}
	prog, err := build(ctx, dir, host, opts.Timeout, opts.FuseMulAdd)
	if err != nil {
		return nil, err
	}
	if res.Provisional {
		if res.Program, err = prog.bundle(); err != nil {
			return nil, err
		}
		res.Schedule = uses
	}
	res.Outputs, err = executeFamilies(ctx, dir, prog, k, res, opts)
	if err == nil && opts.approx && opts.Substitution != nil {
		res.Substituted, err = readApproxStats(dir)
	}
	if err == nil && undef {
		err = checkUndefined(ctx, dir, variants[1], k, res.Inputs, res.Outputs, opts) // undef.go
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// InputFamily is one way of filling the air.buffer arguments.
type InputFamily struct {
	// Name is the family's name in a row's data ("pattern", "small-integers" ...).
	Name string
	// Fill returns the initial bytes of the buffer with Metal index index.
	Fill func(index int, size int64) []byte
	// Typed, when set, fills each air.buffer by its element type instead
	// of Fill (families.go).
	Typed func(b Buffer, size int64) []byte
}

// InputFamilies are tried in order on the reference alone: the first on
// which the reference stays inside every buffer and texture and changes an
// output gives the inputs both the reference and the device run on (seed
// 003's pattern first; kernels that read their inputs as indices or sizes
// run out of bounds on it):
//
//	pattern         Pattern: bytes ((i + 1031·index)·7 + 13) & 0xff
//	small-integers  32-bit words (w + 3·index) mod 8: indices and counts stay small
//	unit-floats     32-bit floats ((w·7 + 13 + 31·index) mod 64) / 64 in [0, 1), exact in half
//	typed-small     each element by its Metal type (TypedFill, families.go): integers of any
//	                width (e + 3·index) mod 8, floats, halves and bfloats the unit floats, bools 0/1
//	typed-medium    typed-small with every integer 8 + (e + 3·index) mod 8: no zero size or divisor, none below 8
//	zeros           every byte 0
//
// Every family differs per buffer index except zeros, so a swapped buffer
// still shows on the first five.
var InputFamilies = []InputFamily{
	{Name: "pattern", Fill: Pattern},
	{Name: "small-integers", Fill: func(index int, size int64) []byte {
		return words32(size, func(w int64) uint32 { return uint32((w + 3*int64(index)) % 8) })
	}},
	{Name: "unit-floats", Fill: func(index int, size int64) []byte {
		return words32(size, func(w int64) uint32 {
			return math.Float32bits(float32((w*7+13+31*int64(index))%64) / 64)
		})
	}},
	{Name: "typed-small", Fill: func(index int, size int64) []byte { return TypedFill(Buffer{Index: index}, size) }, Typed: TypedFill},
	{Name: "typed-medium", Fill: func(index int, size int64) []byte { return TypedMediumFill(Buffer{Index: index}, size) }, Typed: TypedMediumFill},
	{Name: "zeros", Fill: func(_ int, size int64) []byte { return make([]byte, size) }},
}

// words32 fills size bytes with little-endian words f(0), f(1), ...; a
// trailing partial word takes f's low bytes.
func words32(size int64, f func(w int64) uint32) []byte {
	b := make([]byte, size)
	var word [4]byte
	for i := int64(0); i < size; i += 4 {
		binary.LittleEndian.PutUint32(word[:], f(i/4))
		copy(b[i:], word[:])
	}
	return b
}

// executeFamilies runs the harness on the input families in order and keeps
// the first whose run stays in bounds, does not trap, and changes an output;
// res's Inputs and InputFamily become that family's. A run that fails
// otherwise ends the search: a write conflict shows the kernel races (other
// inputs could only hide it), a timeout would cost as much again, and the
// other failures (a texture it cannot give) do not depend on the inputs.
// When no family is kept, the first family's verdict stands, saying that
// every family was tried.
func executeFamilies(ctx context.Context, dir string, prog program, k *Kernel, res *Result, opts Options) ([]Data, error) {
	base := res.Inputs
	var firstOut, firstIn []Data
	var firstErr error
	firstFamily := ""
	tried := 0
	for i, fam := range InputFamilies {
		if opts.InputFamily != "" && fam.Name != opts.InputFamily {
			continue
		}
		inputs := base
		if i > 0 {
			if len(k.Buffers) == 0 {
				break // no buffer to fill otherwise
			}
			inputs = refill(k, base, i)
		}
		tried++
		outs, err := execute(ctx, dir, prog, k, inputs, opts)
		var nj *NotJudgeableError
		inputBound := errors.As(err, &nj) && (nj.Kind == KindOutOfBounds || nj.Kind == KindTrap)
		silent := err == nil && !anyChanged(inputs, outs)
		if !inputBound && !silent {
			res.Inputs, res.InputFamily = inputs, fam.Name
			return outs, err
		}
		if tried == 1 {
			firstOut, firstIn, firstErr, firstFamily = outs, inputs, err, fam.Name
		}
	}
	if tried == 0 {
		return nil, fmt.Errorf("cpuref: no input family %q", opts.InputFamily)
	}
	res.Inputs, res.InputFamily = firstIn, firstFamily
	var nj *NotJudgeableError
	if tried > 1 && errors.As(firstErr, &nj) {
		return nil, &NotJudgeableError{Kind: nj.Kind, Detail: nj.Detail, Reason: nj.Reason + " (no other input family ran clean either: " + familyNames() + ")"}
	}
	return firstOut, firstErr
}

// refill gives the air.buffer inputs the bytes of family InputFamilies[fam];
// render targets, depth, vertex outputs and writable textures keep their
// contents.
func refill(k *Kernel, inputs []Data, fam int) []Data {
	buffer := map[int]Buffer{}
	for _, b := range k.Buffers {
		buffer[b.Index] = b
	}
	out := make([]Data, len(inputs))
	for i, in := range inputs {
		out[i] = in
		b, isBuffer := buffer[in.Index]
		if isBuffer && in.Index < RenderTargetBase {
			out[i] = Data{Index: in.Index, Bytes: familyBytes(fam, b, int64(len(in.Bytes)))}
		}
	}
	return out
}

// anyChanged reports whether an output differs from its input.
func anyChanged(inputs, outputs []Data) bool {
	for i, in := range inputs {
		if i < len(outputs) && !bytes.Equal(in.Bytes, outputs[i].Bytes) {
			return true
		}
	}
	return false
}

// familyNames lists the input families after the first.
func familyNames() string {
	var names []string
	for _, f := range InputFamilies[1:] {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// build compiles the host module with llc-19 into the kernel's object,
// which the harness loads (harness.go).
func build(ctx context.Context, dir, host string, timeout time.Duration, fuse bool) (program, error) {
	h, err := compiledHarness()
	if err != nil {
		return program{}, err
	}
	ll := filepath.Join(dir, "kernel.ll")
	host = withInitArrays(host) // ctors.go
	debug := strings.Contains(host, "\n!llvm.dbg.cu = ")
	if debug {
		// Apple's debug info (DWARF language 61) crashes llc-19's DWARF
		// writer; it carries no meaning the reference needs. Marked as of
		// an old version, llc-19 drops it itself (debuginfo.go); a module
		// that states no version to mark opt-19 strips (checkBounds).
		if text, ok := withoutDebugInfo(host); ok {
			host, debug = text, false
		}
	}
	host = ownTraps(host)
	host = renameInternal(host) // symbols.go
	key := buildKey(host, fuse) // buildcache.go
	if obj, ok := builtKernels.get(key); ok {
		p := program{runner: h.runner, kernel: filepath.Join(dir, "kernel.o"), object: obj}
		return p, os.WriteFile(p.kernel, obj, 0o600)
	}
	prog, err := buildText(ctx, dir, ll, host, debug, timeout, fuse, h)
	if err == nil {
		if obj, rerr := os.ReadFile(prog.kernel); rerr == nil {
			builtKernels.put(key, obj)
			prog.object = obj
		}
	}
	return prog, err
}

// kernelBuilds counts buildText's compiles (the tests see the kernel cache
// spare them).
var kernelBuilds atomic.Int64

// buildText is build's compile of the final host text into dir/kernel.o.
func buildText(ctx context.Context, dir, ll, host string, debug bool, timeout time.Duration, fuse bool, h harness) (program, error) {
	kernelBuilds.Add(1)
	if err := os.WriteFile(ll, []byte(host), 0o644); err != nil {
		return program{}, err
	}
	obj := filepath.Join(dir, "kernel.o")
	prog := program{runner: h.runner, kernel: obj}
	// The LLVM children check and compile the unfused build in one request
	// (llvmchild.go); what they decline the tools do.
	if !fuse && buildInChild(ctx, ll, obj, host, debug, timeout) {
		return prog, nil
	}
	ll, err := checkBounds(ctx, dir, ll, host, debug, timeout)
	if err != nil {
		return program{}, err
	}
	args := []string{"-mcpu=x86-64", "-relocation-model=pic", "-filetype=obj", "-o", obj, ll}
	if fuse {
		// Fusing is the DAG combiner's, which -O0 does not run; -O2
		// selects with SelectionDAG.
		args = append(args, "-O2", "-mattr=+fma", "-fp-contract=fast")
	} else {
		// FastISel miscompiles some calls (libllvm.NoFastISel).
		args = append(args, "-O0", libllvm.NoFastISel)
	}
	spec := proc.Spec{Path: "llc-19", Args: args, Timeout: timeout, MemoryLimit: 4 << 30}
	if err := buildStep(ctx, spec, "llc-19 is not installed", "llc-19", "llc-19 refused the retargeted module"); err != nil {
		return program{}, err
	}
	return prog, nil
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "error") {
			return strings.TrimSpace(l)
		}
	}
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// execute runs the program over the inputs and reads the outputs back.
func execute(ctx context.Context, dir string, prog program, k *Kernel, inputs []Data, opts Options) ([]Data, error) {
	g := opts.Grid
	ftz := 0
	if k.DenormsDisabled && !opts.PreserveDenormals {
		ftz = 1
	}
	var spec strings.Builder
	coop, passes := 0, 1
	if opts.threadgroups.Barrier || opts.threadgroups.SIMD {
		coop = 1
	}
	if coop == 1 || opts.threadgroups.Memory || opts.threadgroups.Atomic {
		passes = 5
	}
	simd := max(opts.SIMDWidth, 1)
	fmt.Fprintf(&spec, "groups %d %d %d threads %d %d %d ftz %d memory %d cooperative %d passes %d simd %d buffers %d\n",
		g.Groups[0], g.Groups[1], g.Groups[2], g.Threads[0], g.Threads[1], g.Threads[2], ftz, opts.MemoryLimit, coop, passes, simd, len(inputs))
	// Every buffer's bytes in one file each way (harness_c.txt).
	inPath, outPath := filepath.Join(dir, "inputs.bin"), filepath.Join(dir, "outputs.bin")
	fmt.Fprintf(&spec, "input %s output %s\n", inPath, outPath)
	for _, in := range inputs {
		fmt.Fprintf(&spec, "%d %d\n", in.Index, len(in.Bytes))
	}
	if opts.approx {
		line, err := approxSpec(dir, opts.Substitution)
		if err != nil {
			return nil, err
		}
		spec.WriteString(line)
	}
	// A run of this build's harness that repeats one before it reads that
	// one's outputs (runmemo.go).
	var key string
	if harnessServers(prog.runner) != nil && opts.WorkDir == "" {
		var sub *Substitution
		if opts.approx {
			sub = opts.Substitution
		}
		if rk, ok := runKey(dir, prog, spec.String(), inputs, sub, opts.Timeout); ok {
			key = rk
			outs, ok, err := keptRun(key, dir, inputs, opts.approx)
			if err != nil {
				return nil, err
			}
			if ok {
				runsReused.Add(1)
				return outs, nil
			}
		}
	}
	if err := writeInputs(inPath, inputs); err != nil {
		return nil, err
	}
	if opts.approx {
		if err := writeApproxRecords(dir, opts.Substitution); err != nil {
			return nil, err
		}
	}
	var out proc.Outcome
	var err error
	for attempt := 0; ; attempt++ {
		out, err = runHarness(ctx, dir, prog, spec.String(), opts.Timeout) // harnessserver.go
		// A harness written just now (a stored program, unbundle) can be
		// busy for a moment: a child another goroutine forked meanwhile
		// holds it open for writing until it execs (go.dev/issue/22315).
		if !errors.Is(err, syscall.ETXTBSY) || attempt == 50 || ctx.Err() != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case out.TimedOut:
		return nil, notJudgeable(KindTimeout, "", "the reference did not finish within %s (a loop bounded by pattern-filled data?)", opts.Timeout)
	case out.Cancelled:
		return nil, ctx.Err()
	case out.ExitCode == 3 && strings.Contains(out.Tail(3), "texture read"):
		return nil, notJudgeable(KindOutOfBounds, "texture read", "on the pattern-filled inputs the shader reads a texture outside its %d-texel extent, layer, face or mip level, which a GPU leaves undefined", TextureExtent)
	case out.ExitCode == 3 && strings.Contains(out.Tail(3), "texture write"):
		return nil, notJudgeable(KindOutOfBounds, "texture write", "on the pattern-filled inputs the shader writes a texture outside its %d×%d texels or mip level, which a GPU leaves undefined", TextureExtent, TextureExtent)
	case out.ExitCode == 3 && strings.Contains(out.Tail(3), "array access"):
		return nil, notJudgeable(KindOutOfBounds, "private or threadgroup array", "on the pattern-filled inputs the kernel loads or stores outside a private or threadgroup array, which LLVM and Metal leave undefined (a GPU lays those arrays out otherwise)")
	case out.ExitCode == 3:
		return nil, notJudgeable(KindOutOfBounds, "", "on the pattern-filled inputs the kernel touches memory outside its buffers, which a GPU leaves undefined")
	case out.ExitCode == 6 && strings.Contains(out.Tail(3), "sampler"):
		return nil, notJudgeable(KindTexture, "constexpr sampler", "a sample takes a sampler that is neither a sampler argument nor a constexpr sampler the module defines as an addrspace(2) i64 word")
	case out.ExitCode == 6:
		return nil, notJudgeable(KindTexture, "texture operand", "%s", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 4:
		return nil, notJudgeable(KindTrap, "", "the CPU trapped (integer division by zero or an illegal instruction), which a GPU leaves undefined")
	case out.ExitCode == 5:
		return nil, notJudgeable(KindRace, "", "two threads write the same bytes (%s): on a GPU the result depends on timing", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 7 && strings.Contains(out.Tail(3), "no thread wrote"):
		return nil, notJudgeable(KindOrderDependent, "unwritten threadgroup memory", "%s: threadgroup memory starts undefined on a GPU", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 7:
		return nil, notJudgeable(KindOrderDependent, "thread order", "%s: on a GPU the result depends on timing", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 8:
		return nil, notJudgeable(KindBarrierDivergence, "air.wg.barrier", "%s, which Metal leaves undefined", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 9:
		return nil, notJudgeable(KindSIMDDivergence, "", "%s: the operation's active lanes would be a subset, which the reference does not imitate", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 12:
		return nil, notJudgeable(KindCompile, "link", "linking the reference failed (%s): %s", out.Describe(), strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode == 10:
		return nil, notJudgeable(KindSIMDGroup, "shuffle lane out of range", "%s, whose value Metal leaves undefined", strings.TrimPrefix(firstLine(out.Tail(3)), "airpipe-cpuref: "))
	case out.ExitCode != 0:
		return nil, fmt.Errorf("cpuref: reference run failed (%s): %s", out.Describe(), out.Tail(5))
	}
	outs, err := readOutputs(outPath, inputs)
	if err != nil {
		return nil, err
	}
	if key != "" {
		keepRun(key, dir, outs, opts.approx)
	}
	return outs, nil
}

// writeInputs writes every input's bytes, one after the other, to the file
// at path (the harness's INPUT).
func writeInputs(path string, inputs []Data) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for _, in := range inputs {
		if _, err := f.Write(in.Bytes); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// readOutputs reads the harness's OUTPUT at path back into one output per
// input, each as long as its input; a file of any other length is an error.
func readOutputs(path string, inputs []Data) ([]Data, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, in := range inputs {
		total += len(in.Bytes)
	}
	if len(b) != total {
		return nil, fmt.Errorf("cpuref: the buffers came back with %d bytes, not %d", len(b), total)
	}
	outs := make([]Data, len(inputs))
	for i, in := range inputs {
		outs[i] = Data{Index: in.Index, Bytes: b[:len(in.Bytes):len(in.Bytes)]}
		b = b[len(in.Bytes):]
	}
	return outs, nil
}

// runsReused counts the runs execute answered from runResults (the tests
// see a repeated run spared).
var runsReused atomic.Int64
