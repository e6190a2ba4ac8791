package cpuref

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// Approximate divisions. An fdiv whose fast-math flags let it approximate
// (fast, arcp or afn: air.FastMath.ApproximatesDivision) is Metal's
// fast-math x / y, which MSL Table 8.2 bounds at 2.5 ulp (for a divisor of
// magnitude 2^-126 to 2^126) rather than defines. The reference divides
// exactly (its fast-math flags are dropped, rewrite.go) — one answer Metal
// permits, and the only one the ordinary reference computes. When the
// output differs, a device's own quotients are substituted like the
// approximate calls' (approx.go): in an approximate run (provisional or
// substituted) each such fdiv of float or <2–4 x float> becomes a call of an
// internal function @"airpipe.fdiv.<type>" that divides exactly, then asks
// the harness for a device record of operation "fdiv.<type>" (the name
// compiler/translate's trace gives it) with the same operands; unmatched,
// the exact quotient stands, so an unsubstituted run computes what the
// ordinary reference does, bit for bit. A half fdiv is not approximate
// (Table 8.3 rounds x / y correctly, fast math or not), nor is one without
// those flags (Table 8.1).

// DivisionFamily is the harness's operation family of an approximate
// division (compiler/mathbound's row "fdiv", x / y).
const DivisionFamily = "fdiv"

// fdivLine is an fdiv instruction of llvm-dis text: the result's
// assignment, the flags, the type and the operands (with any attachments).
var fdivLine = regexp.MustCompile(`^(\s+%(?:"[^"]*"|[-\w.$]+) = )fdiv((?: (?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc))+) (float|<[1-4] x float>) (.*)$`)

// textFastMath are the fast-math flags as llvm-dis writes them.
var textFastMath = map[string]air.FastMath{
	"fast": air.UnsafeAlgebra, "nnan": air.NoNaNs, "ninf": air.NoInfs, "nsz": air.NoSignedZeros,
	"arcp": air.AllowReciprocal, "contract": air.AllowContract, "afn": air.ApproxFunc, "reassoc": air.AllowReassoc,
}

// approximateDivision reads line l as an approximate fdiv: its
// assignment, type, operands and whatever follows them.
func approximateDivision(l string) (assign, ty, x, y, rest string, ok bool) {
	m := fdivLine.FindStringSubmatch(l)
	if m == nil {
		return "", "", "", "", "", false
	}
	var flags air.FastMath
	for f := range strings.FieldsSeq(m[2]) {
		flags |= textFastMath[f]
	}
	ops := splitTop(m[4])
	if !flags.ApproximatesDivision() || len(ops) < 2 {
		return "", "", "", "", "", false
	}
	if len(ops) > 2 {
		rest = ", " + strings.Join(ops[2:], ", ")
	}
	return m[1], m[3], ops[0], ops[1], rest, true
}

// divisionName is the operation name of an approximate division of type ty
// ("fdiv.f32", "fdiv.v2f32"), as a trace names it.
func divisionName(ty string) string { return DivisionFamily + "." + mangle(ty) }

// approximateDivisions names, sorted, the approximate divisions of t.
func approximateDivisions(t *textModule) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "  ") || !strings.Contains(l, " fdiv ") {
			continue
		}
		if _, ty, _, _, _, ok := approximateDivision(l); ok && !seen[ty] {
			seen[ty] = true
			out = append(out, divisionName(ty))
		}
	}
	sort.Strings(out)
	return out
}

// divisionCall is line l with an approximate fdiv replaced by a call of
// its type's division function (types collects the types), or l.
func divisionCall(l string, types map[string]bool) string {
	assign, ty, x, y, rest, ok := approximateDivision(l)
	if !ok {
		return l
	}
	types[ty] = true
	return fmt.Sprintf("%scall %s @%q(%s %s, %s %s)%s", assign, ty, "airpipe."+divisionName(ty), ty, x, ty, y, rest)
}

// divisionOp defines the division function of type ty: the exact quotient
// in the result slot, then the harness's airpipe_approx (approx.go), which
// replaces it with a device record's when one matches.
func divisionOp(ty string) string {
	name := divisionName(ty)
	lanes, _ := strconv.Atoi(vecLen(ty))
	var b strings.Builder
	fmt.Fprintf(&b, "@%q = private unnamed_addr constant [%d x i8] c\"%s\\00\"\n", "airpipe.approx.name."+name, len(name)+1, name)
	fmt.Fprintf(&b, "@%q = private unnamed_addr constant [%d x i8] c\"%s\\00\"\n", "airpipe.approx.family."+name, len(DivisionFamily)+1, DivisionFamily)
	fmt.Fprintf(&b, "define internal %s @%q(%s %%a0, %s %%a1) {\n", ty, "airpipe."+name, ty, ty)
	b.WriteString("  %s = alloca [48 x i8], align 16\n")
	fmt.Fprintf(&b, "  store %s %%a0, ptr %%s, align 4\n", ty)
	fmt.Fprintf(&b, "  %%p1 = getelementptr i8, ptr %%s, i64 16\n  store %s %%a1, ptr %%p1, align 4\n", ty)
	fmt.Fprintf(&b, "  %%q = fdiv %s %%a0, %%a1\n  %%pr = getelementptr i8, ptr %%s, i64 32\n  store %s %%q, ptr %%pr, align 4\n", ty, ty)
	fmt.Fprintf(&b, "  call void @airpipe_approx(ptr @%q, ptr @%q, i32 2, i32 %d, i32 32, ptr %%s)\n",
		"airpipe.approx.name."+name, "airpipe.approx.family."+name, lanes)
	fmt.Fprintf(&b, "  %%r = load %s, ptr %%pr, align 4\n  ret %s %%r\n}\n", ty, ty)
	return b.String()
}
