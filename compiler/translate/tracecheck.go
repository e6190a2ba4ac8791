package translate

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/airpipe/airpipe/compiler/mathbound"
)

// TraceReport is what a trace buffer says about the device's approximate
// results, each judged against its operation's row (compiler/mathbound).
type TraceReport struct {
	// Invocations were read; Records is the calls they recorded; Overflowed
	// counts the invocations that made more calls than the capacity (their
	// calls past it are not judged).
	Invocations, Records, Overflowed int
	// Judged, Undefined and Unbounded count the result lanes: judged
	// against a bound, where Metal defines no result, where the table
	// states no bound.
	Judged, Undefined, Unbounded int
	// MaxULP is the largest distance of a judged lane from its exact value,
	// in ulps of it.
	MaxULP float64
	// Ops are the operations recorded, sorted.
	Ops []string
	// Beyond counts the lanes beyond their bound; Mismatches keeps the
	// first of them.
	Beyond     int
	Mismatches []*TraceMismatch
}

// CorrectlyRounded reports whether the trace shows every recorded result
// correctly rounded: some recorded, every lane judged, none more than half
// an ulp from its exact value, no invocation overflowed (a quotient of two
// floats is never halfway between two floats, so a result half an ulp away
// or less is the rounded one).
func (r *TraceReport) CorrectlyRounded() bool {
	return r.Records > 0 && r.Overflowed == 0 && r.Undefined == 0 && r.Unbounded == 0 && r.Beyond == 0 && r.MaxULP <= 0.5
}

// maxMismatches is how many mismatches a report keeps.
const maxMismatches = 8

// TraceMismatch is one recorded result beyond its bound.
type TraceMismatch struct {
	// Invocation, Call and Lane locate it.
	Invocation, Call, Lane int
	// Result is the operation, its arguments, the device's result, the
	// exact value and the distance.
	Result *mathbound.Error
}

func (m *TraceMismatch) Error() string {
	return fmt.Sprintf("invocation %d call %d lane %d: %s", m.Invocation, m.Call, m.Lane, m.Result.Error())
}

// Check reads the first invocations regions of a trace buffer and judges
// every recorded result lane against its operation's row.
func (tr *Trace) Check(buf []byte, invocations int) (*TraceReport, error) {
	return tr.CheckWith(buf, invocations, nil)
}

// CheckWith is Check with boundFor, when set, in place of each operation's
// row (a planted wrong bound, in tests).
func (tr *Trace) CheckWith(buf []byte, invocations int, boundFor func(TraceOp) mathbound.Bound) (*TraceReport, error) {
	per := tr.InvocationWords() * 4
	if len(buf) < invocations*per {
		return nil, fmt.Errorf("trace: %d bytes for %d invocations of %d", len(buf), invocations, per)
	}
	rep := &TraceReport{Invocations: invocations}
	seen := map[string]bool{}
	for i := range invocations {
		region := buf[i*per : (i+1)*per]
		n := int(binary.LittleEndian.Uint32(region))
		if n > tr.Capacity {
			rep.Overflowed++
			n = tr.Capacity
		}
		rep.Records += n
		for call := range n {
			rec := region[4+call*TraceRecordWords*4:]
			k := int(binary.LittleEndian.Uint32(rec))
			if k >= len(tr.Ops) {
				return nil, fmt.Errorf("trace: invocation %d call %d names operation %d of %d", i, call, k, len(tr.Ops))
			}
			op := tr.Ops[k]
			seen[op.Name] = true
			table := mathbound.TableFor(op.Bits, false, op.Fast)
			b := mathbound.Of(op.Family, table)
			if boundFor != nil {
				b = boundFor(op)
			}
			for l := range op.Lanes {
				args := make([]float64, op.Arity)
				for a := range op.Arity {
					args[a] = traceLane(rec[4+a*traceSlotBytes:], op.Bits, l)
				}
				got := traceLane(rec[4+op.Arity*traceSlotBytes:], op.Bits, l)
				v := mathbound.JudgeWith(b, op.Family, table, args, got)
				switch {
				case v.Undefined != "":
					rep.Undefined++
					continue
				case v.Unbounded != "":
					rep.Unbounded++
					continue
				}
				rep.Judged++
				if !math.IsInf(v.ULP, 0) {
					rep.MaxULP = math.Max(rep.MaxULP, v.ULP)
				}
				if !v.Within {
					if math.IsInf(v.ULP, 0) {
						rep.MaxULP = math.Inf(1)
					}
					rep.Beyond++
					if len(rep.Mismatches) < maxMismatches {
						rep.Mismatches = append(rep.Mismatches, &TraceMismatch{Invocation: i, Call: call, Lane: l,
							Result: &mathbound.Error{Op: op.Name, Args: args, Got: got, Verdict: v}})
					}
				}
			}
		}
	}
	for name := range seen {
		rep.Ops = append(rep.Ops, name)
	}
	sort.Strings(rep.Ops)
	return rep, nil
}

// traceLane is lane l of a value of bits-bit floats stored at b.
func traceLane(b []byte, bits, l int) float64 {
	if bits == 16 {
		return mathbound.HalfValue(binary.LittleEndian.Uint16(b[2*l:]))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*l:])))
}
