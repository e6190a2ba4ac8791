package translate

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestSIMDFixtures translates the SIMD-group fixtures, has spirv-val accept
// them, and checks that each lowers to the group instructions and declares
// the capabilities its operations need.
func TestSIMDFixtures(t *testing.T) {
	needValidator(t)
	for _, c := range []struct {
		name string
		ops  []string // instructions the disassembly must hold
		caps []string // capabilities the reflection must list
	}{
		{"simd_shuffle",
			[]string{"OpGroupNonUniformShuffleDown", "OpGroupNonUniformShuffleUp", "OpGroupNonUniformShuffleXor", "OpGroupNonUniformShuffle ", "OpGroupNonUniformBroadcast ", "OpGroupNonUniformBroadcastFirst", "OpUMod"},
			[]string{"GroupNonUniform", "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative", "GroupNonUniformBallot", "Int8", "Int16", "Float16"}},
		{"simd_reduce",
			[]string{"OpGroupNonUniformFAdd %float %uint_3 Reduce", "OpGroupNonUniformIAdd %uint %uint_3 InclusiveScan", "OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan", "OpGroupNonUniformFMul %float %uint_3 ExclusiveScan", "OpGroupNonUniformSMax", "OpGroupNonUniformUMin", "OpGroupNonUniformFMin", "OpGroupNonUniformIMul", "OpGroupNonUniformLogicalAnd", "OpGroupNonUniformBitwiseXor", "OpGroupNonUniformShuffleXor %uint %uint_3"},
			[]string{"GroupNonUniform", "GroupNonUniformArithmetic", "GroupNonUniformShuffle"}},
		{"simd_vote",
			[]string{"OpGroupNonUniformAll ", "OpGroupNonUniformAny ", "OpGroupNonUniformAllEqual", "OpGroupNonUniformBallot", "OpGroupNonUniformElect", "OpControlBarrier %uint_3 %uint_3 %uint_0", "OpControlBarrier %uint_3 %uint_3 %uint_264", "BuiltIn NumSubgroups"},
			[]string{"GroupNonUniform", "GroupNonUniformVote", "GroupNonUniformBallot", "Int64"}},
		{"simd_fragment",
			[]string{"OpGroupNonUniformShuffleDown", "OpGroupNonUniformFAdd", "OpGroupNonUniformAllEqual", "OpControlBarrier %uint_3"},
			[]string{"GroupNonUniform", "GroupNonUniformShuffleRelative", "GroupNonUniformArithmetic", "GroupNonUniformVote"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := translatedFixture(t, c.name+".ll")
			ctx := context.Background()
			mustValidate(t, out.SPIRV)
			dis, err := spirv.Disassemble(ctx, out.SPIRV)
			if err != nil {
				t.Fatal(err)
			}
			named, err := friendlyDisassembly(ctx, out.SPIRV)
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range c.ops {
				if !strings.Contains(named, op) {
					t.Errorf("no %q in the module:\n%s", op, named)
				}
			}
			for _, cp := range c.caps {
				if !slices.Contains(out.Reflection.Capabilities, cp) {
					t.Errorf("capability %s not declared: %v", cp, out.Reflection.Capabilities)
				}
			}
			// One input variable per subgroup built-in, however many uses.
			for _, bi := range []string{"SubgroupLocalInvocationId", "SubgroupSize"} {
				if n := strings.Count(dis, "BuiltIn "+bi+"\n"); n > 1 {
					t.Errorf("%d variables decorated %s", n, bi)
				}
			}
		})
	}
}

// friendlyDisassembly is spirv-dis's text with friendly names (%uint_3,
// Reduce), for checks on operands.
func friendlyDisassembly(ctx context.Context, module []byte) (string, error) {
	in := filepath.Join(os.TempDir(), "airpipe-simd-"+strings.ReplaceAll(filepath.Base(os.Args[0]), "/", "_")+".spv")
	if err := os.WriteFile(in, module, 0o644); err != nil {
		return "", err
	}
	defer os.Remove(in)
	b, err := exec.CommandContext(ctx, "spirv-dis", "--no-header", "--no-color", in).CombinedOutput()
	if err != nil {
		return "", errors.New(string(b))
	}
	return string(b), nil
}

// TestSIMDRefused checks that SIMD-group functions with no lowering (or a
// signature Metal does not give them) are refused by name, and that a
// barrier's unknown mem_flags bit is named.
func TestSIMDRefused(t *testing.T) {
	m, ep := fixtureEntry(t, "simd_refused.ll")
	_, err := Translate(m, ep)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want a MissingError, got %v", err)
	}
	want := []Finding{
		{CodeUnhandledIntrinsic, "air.quad_prefix_exclusive_sum.u.i32"},
		{CodeUnhandledIntrinsic, "air.simd_max.i32"},
		{CodeUnhandledIntrinsic, "air.simd_prefix_inclusive_max.f32"},
		{CodeUnhandledIntrinsic, "air.simd_shuffle_and_fill_down.f32"},
		{CodeUnhandledIntrinsic, "air.simd_sum.f32"},
		{CodeUnhandledIntrinsic, "air.simdgroup.barrier with mem_flags 0x8"},
	}
	if !reflect.DeepEqual(me.Missing, want) {
		t.Errorf("missing = %v\nwant      %v", me.Missing, want)
	}
}

// TestSIMDCapabilityChecked shows that the validation the fixtures pass can
// fail: the shuffle fixture without its GroupNonUniformShuffleRelative
// capability is rejected.
func TestSIMDCapabilityChecked(t *testing.T) {
	needValidator(t)
	out := translatedFixture(t, "simd_shuffle.ll")
	broken, n := dropCapability(out.SPIRV, spirv.CapabilityGroupNonUniformShuffleRelative)
	if n != 1 {
		t.Fatalf("%d OpCapability GroupNonUniformShuffleRelative instructions, want 1", n)
	}
	err := spirv.Validate(context.Background(), broken)
	var ve *spirv.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("spirv-val accepts the module without the capability: %v", err)
	}
	if !strings.Contains(ve.Output, "GroupNonUniformShuffleRelative") {
		t.Errorf("rejected for another reason: %s", ve.Output)
	}
}

// dropCapability removes every OpCapability c from a module's bytes.
func dropCapability(module []byte, c spirv.Capability) ([]byte, int) {
	out := append([]byte(nil), module[:20]...)
	n := 0
	for at := 20; at+4 <= len(module); {
		w := binary.LittleEndian.Uint32(module[at:])
		size := int(w>>16) * 4
		if size == 0 || at+size > len(module) {
			return append(out, module[at:]...), n
		}
		if spirv.Op(w&0xffff) == spirv.OpCapability && size == 8 && spirv.Capability(binary.LittleEndian.Uint32(module[at+4:])) == c {
			n++
		} else {
			out = append(out, module[at:at+size]...)
		}
		at += size
	}
	return out, n
}
