package spirv

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// computeShader builds a kernel that doubles element gl_GlobalInvocationID.x
// of a storage buffer. Each flag drops one required piece on purpose.
func computeShader(t *testing.T, dropLocalSize, dropBlock bool) []byte {
	t.Helper()
	m := NewModule(AddressingModelLogical, MemoryModelGLSL450)
	m.Capability(CapabilityShader)
	u32 := m.TypeInt(32, false)
	f32 := m.TypeFloat(32)
	v3 := m.TypeVector(u32, 3)
	rta := m.TypeRuntimeArray(f32, 4)
	block := m.TypeStructUnique(rta)
	if !dropBlock {
		m.Decorate(block, DecorationBlock)
	}
	m.MemberDecorate(block, 0, DecorationOffset, 0)
	buf := m.Variable(m.TypePointer(StorageClassStorageBuffer, block), StorageClassStorageBuffer)
	m.Decorate(buf, DecorationDescriptorSet, 0)
	m.Decorate(buf, DecorationBinding, 0)
	gid := m.Variable(m.TypePointer(StorageClassInput, v3), StorageClassInput)
	m.Decorate(gid, DecorationBuiltIn, uint32(BuiltInGlobalInvocationId))
	void := m.TypeVoid()
	f := m.NewFunction(void, m.TypeFunction(void), FunctionControlNone)
	m.Name(f.ID, "main")
	f.Label(m.ID())
	g := f.Op(OpLoad, v3, gid)
	x := f.OpWords(OpCompositeExtract, u32, uint32(g), 0)
	p := f.Op(OpAccessChain, m.TypePointer(StorageClassStorageBuffer, f32), buf, m.ConstantU32(0), x)
	v := f.Op(OpLoad, f32, p)
	d := f.Op(OpFMul, f32, v, m.ConstantF32(2))
	f.Emit(OpStore, uint32(p), uint32(d))
	f.Emit(OpReturn)
	m.EntryPoint(ExecutionModelGLCompute, f.ID, "main", []ID{buf, gid})
	if !dropLocalSize {
		m.ExecutionMode(f.ID, ExecutionModeLocalSize, 64, 1, 1)
	}
	b, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed: %v", name, err)
	}
}

func TestValidateAcceptsAndRejects(t *testing.T) {
	needTool(t, "spirv-val")
	ctx := context.Background()
	tests := []struct {
		name                 string
		dropLocal, dropBlock bool
		wantOK               bool
	}{
		{"complete", false, false, true},
		{"no LocalSize", true, false, false},
		{"no Block decoration", false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(ctx, computeShader(t, tc.dropLocal, tc.dropBlock))
			if tc.wantOK && err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if !tc.wantOK {
				var v *ValidationError
				if !errors.As(err, &v) {
					t.Fatalf("want a ValidationError, got %v", err)
				}
				if v.Output == "" {
					t.Fatal("rejection without validator text")
				}
			}
		})
	}
}

func TestDisassemble(t *testing.T) {
	needTool(t, "spirv-dis")
	text, err := Disassemble(context.Background(), computeShader(t, false, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"OpEntryPoint GLCompute", "OpExecutionMode %", "LocalSize 64 1 1", "OpFMul"} {
		if !strings.Contains(text, want) {
			t.Errorf("disassembly lacks %q:\n%s", want, text)
		}
	}
}

func TestDeduplication(t *testing.T) {
	m := NewModule(AddressingModelLogical, MemoryModelGLSL450)
	if a, b := m.TypeInt(32, false), m.TypeInt(32, false); a != b {
		t.Errorf("TypeInt not deduplicated: %d %d", a, b)
	}
	if a, b := m.ConstantU32(7), m.ConstantU32(7); a != b {
		t.Errorf("constant not deduplicated: %d %d", a, b)
	}
	f := m.TypeFloat(32)
	if a, b := m.TypeRuntimeArray(f, 4), m.TypeRuntimeArray(f, 0); a == b {
		t.Error("strided and unstrided arrays share an id")
	}
	if a, b := m.TypeStructUnique(f), m.TypeStructUnique(f); a == b {
		t.Error("unique structs share an id")
	}
	m.TypeInt(8, false)
	if !m.HasCapability(CapabilityInt8) {
		t.Error("TypeInt(8) did not declare Int8")
	}
}

func TestStringWords(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{{"", 1}, {"abc", 1}, {"abcd", 2}, {"main", 2}, {"GLSL.std.450", 4}}
	for _, tc := range tests {
		if got := len(StringWords(tc.in)); got != tc.want {
			t.Errorf("StringWords(%q) = %d words, want %d", tc.in, got, tc.want)
		}
	}
}

func TestTablesGenerated(t *testing.T) {
	if OpTypeInt != 21 || OpEntryPoint != 15 || GLSLFMix != 46 || CapabilityShader != 1 {
		t.Fatal("generated tables disagree with the SPIR-V specification")
	}
	if OpFMul.String() != "OpFMul" {
		t.Errorf("OpFMul.String() = %q", OpFMul.String())
	}
	if n, ok := GLSLArity(GLSLFMix); !ok || n != 3 {
		t.Errorf("GLSLArity(FMix) = %d, %v", n, ok)
	}
}

// TestValidatorMissing hides spirv-val and checks the result says
// "unavailable" (ErrNoValidator) rather than pass or reject.
func TestValidatorMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Validate(context.Background(), []byte{1, 2, 3, 4})
	if !errors.Is(err, ErrNoValidator) {
		t.Fatalf("err = %v, want ErrNoValidator", err)
	}
}

func TestGarbageRejected(t *testing.T) {
	needTool(t, "spirv-val")
	var v *ValidationError
	if err := Validate(context.Background(), []byte("not spirv at all")); !errors.As(err, &v) {
		t.Fatalf("err = %v, want a ValidationError", err)
	}
}
