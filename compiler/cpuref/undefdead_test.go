package cpuref

import (
	"strings"
	"testing"
)

// TestUndefDeadBases checks which insertion bases undefVariant leaves undef because no value
// can read them (kept: the module needs no variant build) and which it still replaces.
func TestUndefDeadBases(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		kept bool
	}{
		{"vertex struct chain", `
  %15 = insertvalue <{ <4 x float>, <4 x float> }> undef, <4 x float> %12, 0
  %16 = insertvalue <{ <4 x float>, <4 x float> }> %15, <4 x float> %14, 1
  ret <{ <4 x float>, <4 x float> }> %16`, true},
		{"struct chain, an intermediate returned", `
  %15 = insertvalue <{ <4 x float>, <4 x float> }> undef, <4 x float> %12, 0
  %16 = insertvalue <{ <4 x float>, <4 x float> }> %15, <4 x float> %14, 1
  store <{ <4 x float>, <4 x float> }> %15, ptr %p
  ret <{ <4 x float>, <4 x float> }> %16`, false},
		{"struct chain missing a member", `
  %r0 = insertvalue <{ <4 x half>, i32, <4 x half> }> undef, <4 x half> %a, 0
  %r1 = insertvalue <{ <4 x half>, i32, <4 x half> }> %r0, i32 %b, 1
  ret <{ <4 x half>, i32, <4 x half> }> %r1`, false},
		{"struct chain missing a member, only set ones extracted", `
  %r0 = insertvalue { float, i32 } undef, float %a, 0
  %x = extractvalue { float, i32 } %r0, 0
  ret float %x`, true},
		{"struct chain missing a member, that one extracted", `
  %r0 = insertvalue { float, i32 } undef, float %a, 0
  %x = extractvalue { float, i32 } %r0, 1
  ret i32 %x`, false},
		{"nested members all set", `
  %a = insertvalue { [2 x float], i32 } undef, float %x, 0, 0
  %b = insertvalue { [2 x float], i32 } %a, float %y, 0, 1
  %c = insertvalue { [2 x float], i32 } %b, i32 %z, 1
  ret { [2 x float], i32 } %c`, true},
		{"nested member missing", `
  %a = insertvalue { [2 x float], i32 } undef, float %x, 0, 0
  %c = insertvalue { [2 x float], i32 } %a, i32 %z, 1
  ret { [2 x float], i32 } %c`, false},
		{"forked struct chain, both complete", `
  %a = insertvalue { float, i32 } undef, float %x, 0
  %b = insertvalue { float, i32 } %a, i32 1, 1
  %c = insertvalue { float, i32 } %a, i32 2, 1
  ret { float, i32 } %b`, true},
		{"identified struct", `
  %a = insertvalue %struct.P undef, float %x, 0
  %b = insertvalue %struct.P %a, <2 x i16> %y, 1
  ret %struct.P %b`, true},
		{"vector lanes all set", `
  %a = insertelement <3 x float> undef, float %x, i32 0
  %b = insertelement <3 x float> %a, float %y, i32 1
  %c = insertelement <3 x float> %b, float %z, i64 2
  ret <3 x float> %c`, true},
		{"vector lane left", `
  %a = insertelement <3 x float> undef, float %x, i32 0
  %b = insertelement <3 x float> %a, float %y, i32 1
  ret <3 x float> %b`, false},
		{"vector, a variable lane", `
  %a = insertelement <2 x float> undef, float %x, i32 0
  %b = insertelement <2 x float> %a, float %y, i32 %i
  ret <2 x float> %b`, false},
		{"vector, an intermediate stored", `
  %a = insertelement <2 x float> undef, float %x, i32 0
  %b = insertelement <2 x float> %a, float %y, i32 1
  store <2 x float> %a, ptr %p
  ret <2 x float> %b`, false},
		{"splat: shufflevector picks the set lane", `
  %a = insertelement <4 x float> undef, float %x, i64 0
  %s = shufflevector <4 x float> %a, <4 x float> poison, <4 x i32> zeroinitializer
  ret <4 x float> %s`, true},
		{"shufflevector picks an undef lane", `
  %a = insertelement <4 x float> undef, float %x, i64 0
  %s = shufflevector <4 x float> %a, <4 x float> poison, <4 x i32> <i32 0, i32 1, i32 0, i32 0>
  ret <4 x float> %s`, false},
		{"shufflevector second operand, picked lanes set", `
  %a = insertelement <2 x float> undef, float %x, i64 1
  %s = shufflevector <2 x float> %v, <2 x float> %a, <2 x i32> <i32 0, i32 3>
  ret <2 x float> %s`, true},
		{"shufflevector passes an undef lane on, then overwritten", `
  %a = insertelement <4 x float> undef, float %x, i64 3
  %s = shufflevector <4 x float> %a, <4 x float> %v, <4 x i32> <i32 0, i32 1, i32 7, i32 3>
  %t = insertelement <4 x float> %s, float 1.0, i64 0
  %u = insertelement <4 x float> %t, float 2.0, i64 1
  ret <4 x float> %u`, true},
		{"shufflevector passes an undef lane on, returned", `
  %a = insertelement <4 x float> undef, float %x, i64 3
  %s = shufflevector <4 x float> %a, <4 x float> %v, <4 x i32> <i32 0, i32 1, i32 7, i32 3>
  %t = insertelement <4 x float> %s, float 1.0, i64 0
  ret <4 x float> %t`, false},
		{"constant base, its undef lanes set", `
  %a = insertelement <4 x i32> <i32 undef, i32 undef, i32 0, i32 1>, i32 %x, i64 0
  %b = insertelement <4 x i32> %a, i32 %y, i64 1
  ret <4 x i32> %b`, true},
		{"constant base, an undef lane left", `
  %a = insertelement <4 x i32> <i32 undef, i32 undef, i32 0, i32 1>, i32 %x, i64 0
  ret <4 x i32> %a`, false},
		{"extractelement of a set lane", `
  %a = insertelement <2 x i32> undef, i32 %x, i32 0
  %e = extractelement <2 x i32> %a, i32 0
  ret i32 %e`, true},
		{"extractelement of an undef lane", `
  %a = insertelement <2 x i32> undef, i32 %x, i32 0
  %e = extractelement <2 x i32> %a, i32 1
  ret i32 %e`, false},
		{"lane-wise fmul, set lane read", `
  %a = insertelement <4 x float> undef, float %x, i32 0
  %b = insertelement <4 x float> undef, float %y, i32 0
  %m = fmul fast <4 x float> %a, %b
  %e = extractelement <4 x float> %m, i32 0
  ret float %e`, true},
		{"lane-wise fmul, undef lane read", `
  %a = insertelement <4 x float> undef, float %x, i32 0
  %m = fmul <4 x float> %a, %v
  %e = extractelement <4 x float> %m, i32 2
  ret float %e`, false},
		{"integer division by undef lanes", `
  %a = insertelement <2 x i32> undef, i32 %x, i32 0
  %d = udiv <2 x i32> %v, %a
  %e = extractelement <2 x i32> %d, i32 0
  ret i32 %e`, false},
		{"select and phi, lanes overwritten after", `
  %a = insertelement <2 x float> undef, float %x, i32 0
  %s = select i1 %c, <2 x float> %a, <2 x float> %v
  br label %next
next:
  %p = phi <2 x float> [ %s, %0 ], [ %q, %next ]
  %q = insertelement <2 x float> %p, float %y, i32 1
  br i1 %c, label %next, label %done
done:
  ret <2 x float> %q`, true},
		{"loop phi, lane returned", `
  %a = insertelement <2 x float> undef, float %x, i32 0
  br label %next
next:
  %p = phi <2 x float> [ %a, %0 ], [ %q, %next ]
  %q = fadd <2 x float> %p, %v
  br i1 %c, label %next, label %done
done:
  ret <2 x float> %p`, false},
		{"select on undef lanes", `
  %a = insertelement <2 x i1> undef, i1 %x, i32 0
  %s = select <2 x i1> %a, <2 x float> %v, <2 x float> %w
  %e = extractelement <2 x float> %s, i32 0
  ret float %e`, false},
	} {
		host := "define void @f() {\n" + strings.TrimPrefix(c.body, "\n") + "\n}"
		if strings.Contains(c.body, "%struct.P") {
			host = "%struct.P = type { float, <2 x i16> }\n" + host
		}
		vs, changed := undefVariants(host)
		got := vs[0]
		if c.kept && (changed || got != host) {
			t.Errorf("%s: undef replaced, want it kept:\n%s", c.name, got)
		}
		if !c.kept && !changed {
			t.Errorf("%s: undef kept, want it replaced", c.name)
		}
	}
}

// TestUndefDeadBaseOperandsOnly checks that on a line whose base is kept the other undef
// operands are still replaced, and that a base kept in one function says nothing of a
// value of the same name in another.
func TestUndefDeadBaseOperandsOnly(t *testing.T) {
	host := `define void @f() {
  %a = insertvalue { i32, i32 } undef, i32 undef, 0
  %b = insertvalue { i32, i32 } %a, i32 %y, 1
  ret { i32, i32 } %b
}
define void @g() {
  %a = insertvalue { i32, i32 } undef, i32 %x, 0
  ret { i32, i32 } %a
}`
	want := strings.Replace(strings.Replace(host, "i32 undef, 0", "i32 -91, 0", 1),
		"{ i32, i32 } undef, i32 %x", "{ i32, i32 } { i32 -91, i32 -91 }, i32 %x", 1)
	vs, changed := undefVariants(host)
	if got := vs[0]; !changed || got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
