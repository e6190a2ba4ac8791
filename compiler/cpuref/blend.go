package cpuref

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// Programmable blending: a fragment function parameter with air.render_target n ([[color(n)]]
// on an input) reads colour attachment n at its pixel before the function writes it. The
// reference draws once over targets that start as a known value, so every pixel reads the
// same destination: DestinationWords(n, kind), which is also what render target n holds before
// the draw (the device clears the attachment to the same words).

// Destination is one colour attachment a fragment function reads as an input.
type Destination struct {
	// Param is the parameter's position; Index the colour attachment (air.render_target n).
	Param, Index int
	// Type is the parameter's LLVM type; Kind and Components as for RenderTarget.
	Type       string
	Kind       byte
	Components int
	// Words are the attachment's value before the draw, four 32-bit words read as Kind:
	// DestinationWords(Index, Kind).
	Words [4]uint32
}

// DestinationWords is the value colour attachment index (0..7) of kind 'f', 'i' or 'u' holds
// before the draw when a fragment function reads it, per component c:
//
//	'f': ±(8·index + c + 2)/16, negative for odd c (exact in half)
//	'i': −(16·index + 4·c + 3) (fits in a char)
//	'u': (index+1)·2²⁴ + 16·index + 4·c + 5 (its low byte fits in a uchar)
//
// Each attachment and component differs, so a shader reading the wrong attachment or
// component shows, and none is the render targets' Clear.
func DestinationWords(index int, kind byte) [4]uint32 {
	var w [4]uint32
	for c := range 4 {
		switch kind {
		case 'f':
			v := float32(8*index+c+2) / 16
			if c%2 == 1 {
				v = -v
			}
			w[c] = math.Float32bits(v)
		case 'i':
			w[c] = uint32(int32(-(16*index + 4*c + 3)))
		default:
			w[c] = uint32(index+1)<<24 | uint32(16*index+4*c+5)
		}
	}
	return w
}

// TargetClear is what render target index holds before the draw: DestinationWords when the
// function reads it as an input, else Clear.
func (k *Kernel) TargetClear(index int) [4]uint32 {
	for _, d := range k.Destinations {
		if d.Index == index {
			return d.Words
		}
	}
	return Clear
}

// targetBytes is a w×h render target holding TargetClear(index) in every pixel.
func (k *Kernel) targetBytes(index, w, h int) []byte {
	words := k.TargetClear(index)
	b := make([]byte, w*h*TexelSize)
	for i := 0; i < len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], words[i/4%4])
	}
	return b
}

// addDestination records parameter n (p), read from the colour attachment its metadata
// node arg names. Other forms are a *NotJudgeableError or an error.
func (k *Kernel) addDestination(p *Param, n int, arg []string, entry string) error {
	if len(arg) < 3 {
		return fmt.Errorf("cpuref: render target input node of @%s is too short", entry)
	}
	idx, ok := mdInt(arg[2])
	if !ok || idx < 0 || idx > 7 {
		return notJudgeable(KindArgument, "render target input index", "a render target input of index %q", arg[2])
	}
	kind, comps, ok := kindOf(p.Type, keyString(arg, "air.arg_type_name"))
	if !ok {
		return notJudgeable(KindArgument, "render target input "+p.Type, "a render target input of type %s, which the draw cannot give", p.Type)
	}
	for _, d := range k.Destinations {
		if d.Index == int(idx) {
			return fmt.Errorf("cpuref: @%s reads render target %d twice", entry, idx)
		}
	}
	for _, rt := range k.Targets {
		if rt.Index == int(idx) && rt.Kind != kind {
			return notJudgeable(KindArgument, "render target read as another kind",
				"render target %d is written as %q values and read as %q values; the attachment has one format", idx, rt.Kind, kind)
		}
	}
	k.Destinations = append(k.Destinations, Destination{Param: n, Index: int(idx), Type: p.Type, Kind: kind, Components: comps, Words: DestinationWords(int(idx), kind)})
	return nil
}

// constant is the LLVM constant of component c of d converted to its lane type: a float as
// float, rounded to half (exact: DestinationWords' floats are halves), an integer truncated
// to its width.
func (d Destination) constant(c int) string {
	return scalarConstant(elem(d.Type), d.Words[c])
}

// destinationArg defines v, parameter i of the wrapper's call, as the destination the
// parameter reads.
func destinationArg(b *strings.Builder, k *Kernel, i int, v string) {
	for _, d := range k.Destinations {
		if d.Param != i {
			continue
		}
		if !strings.HasPrefix(d.Type, "<") {
			fmt.Fprintf(b, "  %s = bitcast %s to %s\n", v, d.constant(0), d.Type)
			return
		}
		var cs []string
		for c := range d.Components {
			cs = append(cs, d.constant(c))
		}
		fmt.Fprintf(b, "  %s = bitcast %s <%s> to %s\n", v, d.Type, strings.Join(cs, ", "), d.Type)
		return
	}
}
