package cpuref

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// approxRecords builds a Substitution for invocations each making one call
// of op 0 (arity 1) with the given argument and result words.
func approxRecords(ops []string, capacity int, args, results []uint32, opIndex func(inv int) uint32) *Substitution {
	words := 1 + (capacity+1)*16
	b := make([]byte, len(args)*words*4)
	for i := range args {
		base := i * words * 4
		binary.LittleEndian.PutUint32(b[base:], 1)
		rec := base + 4
		binary.LittleEndian.PutUint32(b[rec:], opIndex(i))
		binary.LittleEndian.PutUint32(b[rec+4:], args[i])
		binary.LittleEndian.PutUint32(b[rec+4+16:], results[i])
	}
	return &Substitution{Ops: ops, Invocations: len(args), InvocationWords: words, Capacity: capacity, Words: b, Digest: "test"}
}

// TestApproximateSubstitution runs a kernel calling fast_sqrt provisionally
// (the C library's value), then with device records: each invocation's
// call takes its record's result, and a record whose operand or
// declaration is not the call's is not taken (the call is unmatched).
func TestApproximateSubstitution(t *testing.T) {
	needTools(t)
	ll := variant("kernel", "declare float @air.fast_sqrt.f32(float)", "",
		"  %f = bitcast i32 %v to float\n  %s = call fast float @air.fast_sqrt.f32(float %f)\n  %u = fadd float %s, 1.0\n  store float %u, ptr addrspace(1) %p", "")
	ctx := context.Background()
	if _, err := RunText(ctx, ll, "k", Options{}); !isKind(err, KindApproximate) {
		t.Fatalf("without substitution: %v, want %s", err, KindApproximate)
	}
	prov, err := RunText(ctx, ll, "k", Options{ApproximateProvisional: true})
	if err != nil {
		t.Fatal(err)
	}
	if !prov.Provisional || prov.Substituted != nil || len(prov.Substitutable) != 1 || prov.Substitutable[0] != "air.fast_sqrt.f32" {
		t.Fatalf("provisional run: Provisional %v Substituted %v Substitutable %v", prov.Provisional, prov.Substituted, prov.Substitutable)
	}
	n := int(prov.Grid.Size()[0] * prov.Grid.Size()[1] * prov.Grid.Size()[2])
	in, out := prov.Inputs[0].Bytes, prov.Outputs[0].Bytes
	args, results := make([]uint32, n), make([]uint32, n)
	for i := range n {
		x := math.Float32frombits(binary.LittleEndian.Uint32(in[4*i:]))
		want := float32(math.Sqrt(float64(x))) + 1
		if got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])); got != want && !(math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
			t.Errorf("provisional word %d: %v, want sqrt(%v)+1 = %v", i, got, x, want)
		}
		args[i] = math.Float32bits(x)
		results[i] = math.Float32bits(float32(i) * 2) // not sqrt: shows the record was taken
	}
	args[3]++ // an operand the reference does not compute: unmatched
	wrongOp := func(inv int) uint32 {
		if inv == 5 {
			return 1 // another declaration's record: not taken
		}
		return 0
	}
	sub := approxRecords([]string{"air.fast_sqrt.f32", "air.fast_exp.f32"}, 4, args, results, wrongOp)
	res, err := RunText(ctx, ll, "k", Options{Grid: prov.Grid, Substitution: sub})
	if err != nil {
		t.Fatal(err)
	}
	if res.Provisional || res.Substituted == nil || res.Substituted.Calls != int64(n) || res.Substituted.Matched != int64(n-2) {
		t.Fatalf("substituted run: Provisional %v Substituted %+v, want %d calls, %d matched", res.Provisional, res.Substituted, n, n-2)
	}
	// The provisional build run again on the records (no LLVM tool) is the
	// same reference.
	again, err := Substitute(ctx, prov, sub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *again.Substituted != *res.Substituted || !bytes.Equal(again.Outputs[0].Bytes, res.Outputs[0].Bytes) || again.Provisional || len(again.Program) != 0 {
		t.Fatalf("Substitute: %+v, outputs equal %v", again.Substituted, bytes.Equal(again.Outputs[0].Bytes, res.Outputs[0].Bytes))
	}
	if _, err := Substitute(ctx, res, sub, Options{}); err == nil {
		t.Fatal("Substitute ran a reference that is not provisional")
	}
	out = res.Outputs[0].Bytes
	for i := range n {
		got := binary.LittleEndian.Uint32(out[4*i:])
		want := math.Float32bits(float32(i)*2 + 1)
		if i == 3 || i == 5 {
			want = binary.LittleEndian.Uint32(prov.Outputs[0].Bytes[4*i:])
		}
		if got != want {
			t.Errorf("substituted word %d: %#x, want %#x", i, got, want)
		}
	}
}

// TestApproximateSubstitutionHalfVector: a <2 x half> call's two lanes
// are one 4-byte slot, compared and taken whole.
func TestApproximateSubstitutionHalfVector(t *testing.T) {
	needTools(t)
	ll := variant("kernel", "declare <2 x half> @air.fast_exp2.v2f16(<2 x half>)", "",
		"  %h = bitcast i32 %v to <2 x half>\n  %e = call <2 x half> @air.fast_exp2.v2f16(<2 x half> %h)\n  %w = bitcast <2 x half> %e to i32\n  store i32 %w, ptr addrspace(1) %p", "")
	ctx := context.Background()
	prov, err := RunText(ctx, ll, "k", Options{ApproximateProvisional: true})
	if err != nil {
		t.Fatal(err)
	}
	n := int(prov.Grid.Size()[0])
	args, results := make([]uint32, n), make([]uint32, n)
	for i := range n {
		args[i] = binary.LittleEndian.Uint32(prov.Inputs[0].Bytes[4*i:])
		results[i] = 0x3c000000 | uint32(i) // half 1.0 in lane 1, a small denormal in lane 0
	}
	res, err := RunText(ctx, ll, "k", Options{Grid: prov.Grid, Substitution: approxRecords([]string{"air.fast_exp2.v2f16"}, 2, args, results, func(int) uint32 { return 0 })})
	if err != nil {
		t.Fatal(err)
	}
	if res.Substituted.Matched != int64(n) {
		t.Fatalf("matched %d of %d", res.Substituted.Matched, n)
	}
	for i := range n {
		if got := binary.LittleEndian.Uint32(res.Outputs[0].Bytes[4*i:]); got != results[i] {
			t.Errorf("word %d: %#x, want %#x", i, got, results[i])
		}
	}
}

func isKind(err error, kind string) bool {
	var nj *NotJudgeableError
	return errors.As(err, &nj) && nj.Kind == kind
}
