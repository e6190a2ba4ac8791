package opcheck

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/mathbound"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/proc"
)

// Verdicts of a row.
const (
	// VerdictPass: every defined case is within the bound.
	VerdictPass = "pass"
	// VerdictFail: some defined case is beyond the bound.
	VerdictFail = "fail"
	// VerdictUnbounded: the specification states no bound; the worst
	// distance is recorded and judges nothing.
	VerdictUnbounded = "unbounded"
	// VerdictRefused: the translator refused the kernel (the detail names
	// its finding).
	VerdictRefused = "refused"
	// VerdictError: assembling, reading or running the kernel failed.
	VerdictError = "error"
)

// Result is one operation on one device.
type Result struct {
	Op     *Op
	Device string
	Bound  Bound
	// Cases counts the judged elements (each lane of each invocation);
	// Undefined those where Metal defines no result (fast math NaN or
	// infinity, an argument outside the domain), Flushed those accepted
	// because a denormal argument or result was flushed to zero, Beyond
	// those past the bound.
	Cases, Undefined, Flushed, Beyond int
	// WorstULP is the largest distance of a defined case from its
	// reference, in ulps of the reference (Inf for a wrong NaN, infinity
	// or sign of zero); WorstAbs the largest absolute error.
	WorstULP, WorstAbs float64
	Verdict            string
	// Detail is the worst case (arguments, result, reference), or the
	// refusal or error.
	Detail string
}

// Runner evaluates operations on one device.
type Runner struct {
	Dev *device.Device
	// Name is the device's name in the table.
	Name string
	// Random is how many random tuples each operation gets besides its
	// edge cases; Seed seeds them.
	Random int
	Seed   uint64
	// Break, when set, changes each result word before it is judged (a
	// planted fault for tests).
	Break func(op *Op, buffer int, words []uint64)
	// BoundFor, when set, replaces BoundOf (a planted wrong bound, for
	// tests).
	BoundFor func(op *Op) Bound
	// Cases, when set, are the argument tuples evaluated in place of the
	// edge cases and random ones (a sweep, in tests).
	Cases [][]uint64
}

// Check evaluates op on the runner's device and judges every result.
func (r *Runner) Check(ctx context.Context, op *Op) *Result {
	b := BoundOf(op)
	if r.BoundFor != nil {
		b = r.BoundFor(op)
	}
	res := &Result{Op: op, Device: r.Name, Bound: b}
	cases := r.Cases
	if cases == nil {
		cases = Cases(op, r.Random, r.Seed)
	}
	for len(cases)%max(1, op.Args[0].Lanes) != 0 {
		cases = append(cases, cases[len(cases)-1]) // whole invocations only
	}
	out, err := r.dispatch(ctx, op, cases)
	if err != nil {
		var ref *refusal
		res.Verdict, res.Detail = VerdictError, err.Error()
		if errors.As(err, &ref) {
			res.Verdict = VerdictRefused
		}
		return res
	}
	judge(op, cases, out, res)
	return res
}

type refusal struct{ msg string }

func (e *refusal) Error() string { return e.msg }

// dispatch runs op's kernel over the cases and returns each result
// buffer's elements (lanes per invocation, in invocation order).
func (r *Runner) dispatch(ctx context.Context, op *Op, cases [][]uint64) ([][]uint64, error) {
	ll := KernelLL(op)
	o, err := proc.Run(ctx, proc.Spec{Path: "llvm-as-19", Args: []string{"--preserve-bc-uselistorder=false", "-", "-o", "-"}, Stdin: []byte(ll), Timeout: time.Minute})
	if err != nil {
		return nil, fmt.Errorf("llvm-as-19: %v", err)
	}
	if o.ExitCode != 0 {
		return nil, fmt.Errorf("llvm-as-19: %s", o.Tail(400))
	}
	m, err := bitcode.ReadModule(o.Stdout)
	if err != nil {
		return nil, fmt.Errorf("read: %v", err)
	}
	eps, err := air.EntryPoints(m)
	if err != nil || len(eps) != 1 {
		return nil, fmt.Errorf("entry points: %d, %v", len(eps), err)
	}
	tr, err := translate.Translate(m, eps[0])
	if err != nil {
		return nil, &refusal{"translate: " + err.Error()}
	}
	p, err := r.Dev.LoadPipeline(tr.SPIRV, tr.Entry)
	if err != nil {
		return nil, fmt.Errorf("load pipeline: %v", err)
	}
	lanes := max(1, op.Args[0].Lanes)
	inv := (len(cases) + lanes - 1) / lanes
	groups := (inv + Threads - 1) / Threads
	padded := groups * Threads
	bufs := buffers(op)
	var devBufs []*device.Buffer
	defer func() {
		for _, b := range devBufs {
			b.Free()
		}
	}()
	binds := make([]device.Binding, len(bufs))
	for k, t := range bufs {
		wb := wordBits(t.Elem()) / 8
		b, err := r.Dev.NewBuffer(int64(padded * t.Lanes * wb))
		if err != nil {
			return nil, fmt.Errorf("buffer: %v", err)
		}
		devBufs = append(devBufs, b)
		mem := b.Bytes()
		for i := range mem {
			mem[i] = 0
		}
		if k < len(op.Args) {
			for i := range padded * t.Lanes {
				c := i
				if c >= inv*t.Lanes {
					c = 0
				}
				v := uint64(0)
				if c < len(cases) {
					v = cases[c][k]
				}
				if wb == 8 {
					binary.LittleEndian.PutUint64(mem[i*8:], v)
				} else {
					binary.LittleEndian.PutUint32(mem[i*4:], uint32(v))
				}
			}
		}
		found := false
		for _, rb := range tr.Reflection.Bindings {
			if rb.Metal == fmt.Sprintf("air.buffer %d", k) {
				binds[k] = device.Binding{Set: uint32(rb.Set), Binding: uint32(rb.Binding), Buffer: b}
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("the SPIR-V has no binding for air.buffer %d", k)
		}
	}
	err = r.Dev.Run(ctx, p, device.DispatchArgs{Groups: [3]uint32{uint32(groups), 1, 1}, Threads: [3]uint32{Threads, 1, 1}, Bindings: binds})
	if err != nil {
		return nil, fmt.Errorf("run: %v", err)
	}
	var out [][]uint64
	for k := len(op.Args); k < len(bufs); k++ {
		t := bufs[k]
		wb := wordBits(t.Elem()) / 8
		mem := devBufs[k].Bytes()
		words := make([]uint64, inv*t.Lanes)
		for i := range words {
			if wb == 8 {
				words[i] = binary.LittleEndian.Uint64(mem[i*8:])
			} else {
				words[i] = uint64(binary.LittleEndian.Uint32(mem[i*4:])) & t.mask()
			}
		}
		if r.Break != nil {
			r.Break(op, k-len(op.Args), words)
		}
		out = append(out, words)
	}
	return out, nil
}

// judge compares every result element with its reference.
func judge(op *Op, cases [][]uint64, out [][]uint64, res *Result) {
	lanes := max(1, op.Args[0].Lanes)
	inv := (len(cases) + lanes - 1) / lanes
	worst := -1.0
	var worstDetail, firstBeyond string
	for i := range inv {
		in := make([][]uint64, len(op.Args)) // per argument, per lane
		for k := range op.Args {
			for c := range op.Args[k].Lanes {
				idx := i*op.Args[k].Lanes + c
				if idx >= len(cases) {
					idx = len(cases) - 1
				}
				in[k] = append(in[k], cases[idx][k])
			}
		}
		for o, rt := range append([]Type{op.Ret}, op.Outs...) {
			for c := range rt.Lanes {
				got := out[o][i*rt.Lanes+c]
				v := judgeOne(op, res.Bound, o, c, in, got)
				if v.undefined {
					res.Undefined++
					continue
				}
				res.Cases++
				if v.flushed {
					res.Flushed++
				}
				if v.beyond {
					res.Beyond++
				}
				if v.ulp > worst || v.beyond && res.Beyond == 1 {
					d := fmt.Sprintf("args %s lane %d: got %s, want %s", showArgs(op, in), c, show(rt.Elem(), got), v.want)
					if v.beyond && res.Beyond == 1 {
						firstBeyond = d
					}
					if v.ulp > worst {
						worst, worstDetail = v.ulp, d
					}
				}
				res.WorstAbs = max(res.WorstAbs, v.abs)
			}
		}
	}
	res.WorstULP = max(worst, 0)
	res.Detail = worstDetail
	if res.Beyond > 0 {
		res.Detail = firstBeyond
	}
	switch {
	case res.Bound.Kind == BoundNone || res.Bound.Kind == BoundUndefined:
		res.Verdict = VerdictUnbounded
	case res.Beyond > 0:
		res.Verdict = VerdictFail
	default:
		res.Verdict = VerdictPass
	}
}

type verdict struct {
	undefined, flushed, beyond bool
	ulp, abs                   float64
	want                       string
}

// slack absorbs the reference's own float64 rounding (at most 2^-29 of a
// float ulp) so that a correctly rounded result next to a tie passes.
const slack = 1e-6

// judgeOne judges one element under bound b: output o (0 the return
// value), lane c.
func judgeOne(op *Op, b Bound, o, c int, in [][]uint64, got uint64) verdict {
	rt := op.Ret
	if o > 0 {
		rt = op.Outs[o-1]
	}
	e := rt.Elem()
	var w want
	var flushAlt *want
	argFloats := func(flush bool) []float64 {
		var x []float64
		for k := range op.Args {
			v := decodeFloat(op.Args[k].Elem(), in[k][c])
			if flush && fmtOf(op.Args[k].Elem()).isDenormal(v) {
				v = math.Copysign(0, v)
			}
			x = append(x, v)
		}
		return x
	}
	switch {
	case op.Family == "convert":
		w = convertRef(op, in[0][c])
		if op.Src == 'f' {
			x := decodeFloat(op.Args[0].Elem(), in[0][c])
			if fmtOf(op.Args[0].Elem()).isDenormal(x) {
				a := convertRef(op, encodeFloat(op.Args[0].Elem(), math.Copysign(0, x)))
				flushAlt = &a
			}
		}
	case op.Family[0] == 'p' && op.Family[1] == 'a' || op.Family[0] == 'u' && op.Family[1] == 'n':
		var lanesIn []uint64
		lanesIn = append(lanesIn, in[0]...)
		w = normRef(op, lanesIn)[c]
	case op.Ret.Kind == 'i':
		var a []uint64
		for k := range op.Args {
			a = append(a, in[k][c])
		}
		w = want{bits: intRef(op.Family, e, a)}
	case op.Family == "dot":
		var x, y []float64
		for l := range op.Args[0].Lanes {
			x = append(x, decodeFloat(op.Args[0].Elem(), in[0][l]))
			y = append(y, decodeFloat(op.Args[1].Elem(), in[1][l]))
		}
		w = want{cands: []float64{exactDot(x, y)}}
	default:
		fam := op.Family
		if fam == "sincos" {
			fam = []string{"sin", "cos"}[o]
		}
		f := fmtOf(e)
		x := argFloats(false)
		w = floatRef(fam, x, f)
		for k := range x {
			if f.isDenormal(x[k]) {
				a := floatRef(fam, argFloats(true), f)
				for _, v := range a.cands {
					if op.Fast && (math.IsNaN(v) || math.IsInf(v, 0)) {
						// Flushed (§8.5), the argument gives a NaN or an
						// infinity, which fast math leaves undefined.
						return verdict{undefined: true}
					}
				}
				flushAlt = &a
				break
			}
		}
		if op.Fast && w.undefined == "" {
			for _, v := range x {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					w.undefined = "fast math: NaN or infinite argument"
				}
			}
			for _, v := range w.cands {
				if math.IsNaN(v) || math.IsInf(f.round(v), 0) {
					w.undefined = "fast math: NaN or infinite result"
				}
			}
		}
		whole := b.Kind
		b = b.At(x) // a row's domain, pieces or formula at these arguments
		switch {
		case b.Kind == BoundUndefined && whole == BoundUndefined:
			b = Bound{Kind: BoundNone} // the row is "Undefined": distances recorded, nothing judged
		case b.Kind == BoundUndefined && w.undefined == "":
			w.undefined = b.Source + ": undefined at these arguments"
		case b.Kind == BoundComposed && w.undefined == "":
			// A composition's admitted interval, flushing included, is
			// compiler/mathbound's to compute.
			mv := mathbound.Judge(fam, op.table(), x, decodeFloat(e, got))
			switch {
			case mv.Undefined != "":
				return verdict{undefined: true}
			case mv.Unbounded != "":
				b = Bound{Kind: BoundNone}
			default:
				v := verdict{ulp: mv.ULP, abs: math.Abs(decodeFloat(e, got) - mv.Exact), beyond: !mv.Within, flushed: mv.Flushed,
					want: fmt.Sprintf("%.9g in [%.9g, %.9g]", mv.Exact, mv.Lo, mv.Hi)}
				if math.IsInf(v.ulp, 0) || math.IsNaN(v.abs) {
					v.abs = math.Inf(1)
				}
				return v
			}
		}
	}
	if w.undefined != "" {
		return verdict{undefined: true}
	}
	v := compare(op, e, b, w, got)
	if v.beyond && flushAlt != nil && flushAlt.undefined == "" {
		if alt := compare(op, e, b, *flushAlt, got); !alt.beyond {
			alt.flushed = true
			return alt
		}
	}
	return v
}

// compare judges got against w under bound b.
func compare(op *Op, e Type, b Bound, w want, got uint64) verdict {
	if !e.IsFloat() {
		v := verdict{want: fmt.Sprintf("%#x", w.bits)}
		if op.Family == "pack.unorm4x8.srgb" {
			for l := range 4 {
				g, x := int(got>>(8*l)&0xff), int(w.bits>>(8*l)&0xff)
				d := math.Abs(float64(g - x))
				if l == 3 && d > 0 || d > 1 {
					v.beyond = true
				}
				v.ulp = max(v.ulp, d)
			}
			return v
		}
		if got != w.bits {
			v.beyond, v.ulp = true, math.Inf(1)
		}
		return v
	}
	f := fmtOf(e)
	g := decodeFloat(e, got)
	best := verdict{ulp: math.Inf(1), abs: math.Inf(1), beyond: true}
	for i, x := range w.cands {
		v := distance(f, b, x, g, op.Fast)
		v.want = show(e, encodeFloat(e, f.round(x)))
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v.want += fmt.Sprintf(" (%.9g)", x)
		}
		if i == 0 || v.ulp < best.ulp || best.beyond && !v.beyond {
			best = v
		}
	}
	return best
}

// distance is how far g is from the exact x, and whether that is beyond b.
// With fast math the sign of a zero is not judged (MSL §7.4, the note
// below the tables: fast math may change or ignore it).
func distance(f format, b Bound, x, g float64, fast bool) verdict {
	r := f.round(x)
	switch {
	case math.IsNaN(x) || math.IsNaN(g):
		if math.IsNaN(x) && math.IsNaN(g) {
			return verdict{}
		}
		return verdict{ulp: math.Inf(1), abs: math.Inf(1), beyond: b.Kind != BoundNone}
	case math.IsInf(r, 0) || math.IsInf(g, 0):
		if r == g {
			return verdict{}
		}
		return verdict{ulp: math.Inf(1), abs: math.Inf(1), beyond: b.Kind != BoundNone}
	}
	// A denormal reference may be flushed to a zero of either sign.
	if f.isDenormal(r) && g == 0 {
		return verdict{flushed: true}
	}
	if x == 0 && g == 0 {
		if !fast && math.Signbit(x) != math.Signbit(g) && (b.Kind == BoundExact || b.Kind == BoundULP && b.ULP <= 0.5) {
			return verdict{ulp: math.Inf(1), beyond: true}
		}
		return verdict{}
	}
	abs := math.Abs(g - x)
	u := abs / f.ulp(x)
	v := verdict{ulp: u, abs: abs}
	switch b.Kind {
	case BoundExact:
		v.beyond = g != r
	case BoundULP:
		v.beyond = u > b.ULP+slack
	case BoundAbs:
		v.beyond = abs > b.Abs
	}
	return v
}

func show(t Type, bits uint64) string {
	if !t.IsFloat() {
		return fmt.Sprintf("%#x", bits)
	}
	return fmt.Sprintf("%#x=%g", bits, decodeFloat(t, bits))
}

func showArgs(op *Op, in [][]uint64) string {
	s := "("
	for k, lanes := range in {
		if k > 0 {
			s += ", "
		}
		e := op.Args[k].Elem()
		for l, v := range lanes {
			if l > 0 {
				s += " "
			}
			s += show(e, v)
		}
	}
	return s + ")"
}
