package judge

import (
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// ULPBound is how far, in units in the last place, a float output word of a
// function that calls an order-only operation (cpuref.OrderOnlyOps: dot,
// mix, cross, length_squared, distance_squared) may lie from the
// reference's and still pass. Metal fixes what those operations add and
// multiply but not in which order, nor which products are fused: two
// evaluations of a 4-term dot product whose terms share a sign each lie
// within about 4u of the exact sum (u = 2^-24), so within 8u of each other,
// which is at most 16 ULP of the result. Later exact operations add at
// most half a ULP each; where they cancel, a difference beyond the bound is
// reported as a mismatch (a false red, never a false green). Words whose
// type is not known to be float (buffer words) and integer outputs are
// compared bit for bit, and infinities and NaNs are never "close". Half
// and bfloat words are compared lane by lane with the same bound in their
// own type's ULPs (acceptsLanes).
const ULPBound = 16

// ulpDistance is the number of representable floats between a and b, or
// false when either is an infinity or NaN (those must match exactly, as
// Compare decides before asking).
func ulpDistance(a, b uint32) (uint32, bool) {
	if a&0x7f800000 == 0x7f800000 || b&0x7f800000 == 0x7f800000 {
		return 0, false
	}
	ordered := func(x uint32) int64 {
		if x&0x80000000 != 0 {
			return -int64(x & 0x7fffffff)
		}
		return int64(x)
	}
	d := ordered(a) - ordered(b)
	if d < 0 {
		d = -d
	}
	return uint32(d), true // at most 2·0x7f7fffff: finite floats only
}

// tolerance is what Compare allows one module: 0 (bit for bit) unless the
// reference used order-only operations.
type tolerance struct {
	bound   uint32
	ops     []string
	within  int    // words that differed within the bound
	maxSeen uint32 // the largest distance among them
}

// toleranceFor is the tolerance of ref's outputs.
func toleranceFor(ref *cpuref.Result) *tolerance {
	if len(ref.Approximate) == 0 {
		return &tolerance{}
	}
	return &tolerance{bound: ULPBound, ops: ref.Approximate}
}

// accepts reports whether float word b is close enough to the reference's a.
func (t *tolerance) accepts(a, b uint32) bool {
	if t.bound == 0 {
		return false
	}
	d, ok := ulpDistance(a, b)
	if !ok || d > t.bound {
		return false
	}
	t.within++
	t.maxSeen = max(t.maxSeen, d)
	return true
}

// acceptsLanes reports whether half or bfloat word b is close enough to
// the reference's a: each 16-bit lane within the bound in its own type's
// units in the last place (an order-only float sum rounded to half or
// bfloat moves the result by at most a lane ULP; computed in the narrow
// type, by the same count of that type's ULPs as a float's).
func (t *tolerance) acceptsLanes(k wordKind, a, b uint32) bool {
	if t.bound == 0 {
		return false
	}
	la, lb := lanes(a), lanes(b)
	worst := uint32(0)
	for i := range la {
		d, ok := ulpDistance16(k, la[i], lb[i])
		if !ok || d > t.bound {
			return false
		}
		worst = max(worst, d)
	}
	t.within++
	t.maxSeen = max(t.maxSeen, worst)
	return true
}

// ulpDistance16 is ulpDistance for a half or bfloat lane.
func ulpDistance16(k wordKind, a, b uint16) (uint32, bool) {
	exp := uint16(0x7c00)
	if k == wordBFloat {
		exp = 0x7f80
	}
	if a&exp == exp || b&exp == exp {
		return 0, false
	}
	ordered := func(x uint16) int32 {
		if x&0x8000 != 0 {
			return -int32(x & 0x7fff)
		}
		return int32(x)
	}
	d := ordered(a) - ordered(b)
	if d < 0 {
		d = -d
	}
	return uint32(d), true
}

// describe adds the tolerance's facts to a result's data, and says in a
// mismatch's message how far apart the words were.
func (t *tolerance) describe(data map[string]string) {
	if t.bound == 0 {
		return
	}
	data["approximate_ops"] = strings.Join(t.ops, ",")
	data["ulp_bound"] = strconv.Itoa(int(t.bound))
	data["words_within_bound"] = strconv.Itoa(t.within)
	data["max_ulp"] = strconv.FormatUint(uint64(t.maxSeen), 10)
}

// farther says how far a mismatching float word was, for the message.
func (t *tolerance) farther(a, b uint32) string {
	if t.bound == 0 {
		return ""
	}
	d, ok := ulpDistance(a, b)
	if !ok {
		return "; an infinity or NaN must match exactly even with order-only operations (" + strings.Join(t.ops, ",") + ")"
	}
	return "; " + strconv.FormatUint(uint64(d), 10) + " ULP apart, beyond the bound of " + strconv.Itoa(int(t.bound)) + " for order-only operations (" + strings.Join(t.ops, ",") + ")"
}
