package spirv

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
)

// loopShader builds a kernel summing 32 buffer words in one loop per entry
// of controls, each OpLoopMerge carrying that control (and its literals).
func loopShader(t testing.TB, controls ...[]uint32) []byte {
	t.Helper()
	m := NewModule(AddressingModelLogical, MemoryModelGLSL450)
	m.Capability(CapabilityShader)
	u32 := m.TypeInt(32, false)
	boolT := m.TypeBool()
	rta := m.TypeRuntimeArray(u32, 4)
	block := m.TypeStructUnique(rta)
	m.Decorate(block, DecorationBlock)
	m.MemberDecorate(block, 0, DecorationOffset, 0)
	buf := m.Variable(m.TypePointer(StorageClassStorageBuffer, block), StorageClassStorageBuffer)
	m.Decorate(buf, DecorationDescriptorSet, 0)
	m.Decorate(buf, DecorationBinding, 0)
	ptr := m.TypePointer(StorageClassStorageBuffer, u32)
	void := m.TypeVoid()
	f := m.NewFunction(void, m.TypeFunction(void), FunctionControlNone)
	entry := m.ID()
	f.Label(entry)
	prev := entry
	for _, c := range controls {
		head, body, merge := m.ID(), m.ID(), m.ID()
		f.Emit(OpBranch, uint32(head))
		f.Label(head)
		i := m.ID()
		next := m.ID()
		f.Emit(OpPhi, uint32(u32), uint32(i), uint32(m.ConstantU32(0)), uint32(prev), uint32(next), uint32(body))
		f.Emit(OpLoopMerge, append([]uint32{uint32(merge), uint32(body)}, c...)...)
		f.Emit(OpBranch, uint32(body))
		f.Label(body)
		p := f.Op(OpAccessChain, ptr, buf, m.ConstantU32(0), i)
		v := f.Op(OpLoad, u32, p)
		f.Emit(OpStore, uint32(p), uint32(f.Op(OpIAdd, u32, v, i)))
		f.Emit(OpIAdd, uint32(u32), uint32(next), uint32(i), uint32(m.ConstantU32(1)))
		done := f.Op(OpIEqual, boolT, next, m.ConstantU32(32))
		f.Emit(OpBranchConditional, uint32(done), uint32(merge), uint32(head))
		f.Label(merge)
		prev = merge
	}
	f.Emit(OpReturn)
	m.EntryPoint(ExecutionModelGLCompute, f.ID, "main", []ID{buf})
	m.ExecutionMode(f.ID, ExecutionModeLocalSize, 1, 1, 1)
	b, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// loopControls lists every OpLoopMerge's control words (the control and its
// literals) in module order.
func loopControls(t testing.TB, b []byte) [][]uint32 {
	t.Helper()
	var out [][]uint32
	for at := 20; at < len(b); {
		w := binary.LittleEndian.Uint32(b[at:])
		n := int(w >> 16)
		if Op(w&0xffff) == OpLoopMerge {
			var c []uint32
			for k := 3; k < n; k++ {
				c = append(c, binary.LittleEndian.Uint32(b[at+4*k:]))
			}
			out = append(out, c)
		}
		at += 4 * n
	}
	return out
}

func TestDontUnrollLoops(t *testing.T) {
	du := uint32(LoopControlDontUnroll)
	tests := []struct {
		name   string
		in     [][]uint32
		want   [][]uint32
		marked int
	}{
		{"none", [][]uint32{{0}}, [][]uint32{{du}}, 1},
		{"unroll becomes dont-unroll", [][]uint32{{uint32(LoopControlUnroll)}}, [][]uint32{{du}}, 1},
		{"already dont-unroll", [][]uint32{{du}}, [][]uint32{{du}}, 1},
		{"literals kept", [][]uint32{{uint32(LoopControlDependencyLength | LoopControlMaxIterations), 2, 32}},
			[][]uint32{{uint32(LoopControlDependencyLength|LoopControlMaxIterations) | du, 2, 32}}, 1},
		{"partial count left alone", [][]uint32{{uint32(LoopControlPartialCount), 4}, {0}}, [][]uint32{{uint32(LoopControlPartialCount), 4}, {du}}, 1},
		{"no loops", nil, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := loopShader(t, tc.in...)
			orig := append([]byte(nil), in...)
			out, marked, err := DontUnrollLoops(in)
			if err != nil {
				t.Fatal(err)
			}
			if marked != tc.marked {
				t.Errorf("marked %d loops, want %d", marked, tc.marked)
			}
			if got := loopControls(t, out); len(got) != len(tc.want) || len(got) > 0 && !equalControls(got, tc.want) {
				t.Errorf("loop controls %v, want %v", got, tc.want)
			}
			if string(in) != string(orig) {
				t.Error("the input was modified")
			}
			if len(out) != len(in) {
				t.Errorf("%d bytes out of %d", len(out), len(in))
			}
		})
	}
}

func equalControls(a, b [][]uint32) bool {
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

// TestDontUnrollLoopsValid: spirv-val accepts the marked module as it
// accepted the original (Unroll and DontUnroll together, or PartialCount
// beside DontUnroll, would be refused).
func TestDontUnrollLoopsValid(t *testing.T) {
	needTool(t, "spirv-val")
	in := loopShader(t, []uint32{uint32(LoopControlUnroll)}, []uint32{0}, []uint32{uint32(LoopControlPartialCount), 2})
	if err := Validate(context.Background(), in); err != nil {
		t.Fatalf("the original is invalid: %v", err)
	}
	out, _, err := DontUnrollLoops(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(context.Background(), out); err != nil {
		t.Fatalf("the marked module is invalid: %v", err)
	}
	// The check can fail: both bits set is what spirv-val refuses.
	bad := loopShader(t, []uint32{uint32(LoopControlUnroll | LoopControlDontUnroll)})
	if err := Validate(context.Background(), bad); err == nil {
		t.Fatal("spirv-val accepted Unroll with DontUnroll")
	}
}

func TestDontUnrollLoopsBigEndian(t *testing.T) {
	le := loopShader(t, []uint32{0})
	be := make([]byte, len(le))
	for i := 0; i < len(le); i += 4 {
		binary.BigEndian.PutUint32(be[i:], binary.LittleEndian.Uint32(le[i:]))
	}
	out, marked, err := DontUnrollLoops(be)
	if err != nil || marked != 1 {
		t.Fatalf("marked %d, %v", marked, err)
	}
	back := make([]byte, len(out))
	for i := 0; i < len(out); i += 4 {
		binary.LittleEndian.PutUint32(back[i:], binary.BigEndian.Uint32(out[i:]))
	}
	if got := loopControls(t, back); len(got) != 1 || got[0][0] != uint32(LoopControlDontUnroll) {
		t.Fatalf("controls %v", got)
	}
}

func TestDontUnrollLoopsRefuses(t *testing.T) {
	good := loopShader(t, []uint32{0})
	zero := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(zero[20:], 0) // the first instruction's word count and opcode
	long := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(long[len(long)-4:], 9<<16|uint32(OpFunctionEnd))
	tests := []struct {
		name, want string
		in         []byte
	}{
		{"empty", "not a SPIR-V module", nil},
		{"partial word", "not a SPIR-V module", good[:len(good)-1]},
		{"magic", "magic number", append([]byte{1, 2, 3, 4}, good[4:]...)},
		{"zero-length instruction", "word count of 0", zero},
		{"past the end", "past the module's end", long},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DontUnrollLoops(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func FuzzDontUnrollLoops(f *testing.F) {
	f.Add(loopShader(f, []uint32{0}, []uint32{uint32(LoopControlPartialCount), 3}))
	f.Add([]byte{3, 2, 0x23, 7, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		out, marked, err := DontUnrollLoops(b)
		if err != nil {
			return
		}
		if len(out) != len(b) || marked < 0 {
			t.Fatalf("%d bytes and %d loops out of %d bytes", len(out), marked, len(b))
		}
		again, marked2, err := DontUnrollLoops(out)
		if err != nil || string(again) != string(out) || marked2 != marked {
			t.Fatalf("not idempotent: %v, %d then %d loops", err, marked, marked2)
		}
	})
}
