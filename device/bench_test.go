package device

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chainSPIRV writes and assembles a kernel of n dependent float operations per invocation
// (fma, sin, sqrt(abs)), a stand-in of known size for translated modules.
func chainSPIRV(t testing.TB, n int) []byte {
	t.Helper()
	if _, err := exec.LookPath("spirv-as"); err != nil {
		t.Skip("spirv-as (Debian: spirv-tools) not installed")
	}
	var b strings.Builder
	b.WriteString(`OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %buf
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rta ArrayStride 4
OpMemberDecorate %st 0 Offset 0
OpDecorate %st Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3uint
%gid = OpVariable %pin Input
%rta = OpTypeRuntimeArray %float
%st = OpTypeStruct %rta
%pst = OpTypePointer StorageBuffer %st
%buf = OpVariable %pst StorageBuffer
%pf = OpTypePointer StorageBuffer %float
%u0 = OpConstant %uint 0
`)
	for i := range n {
		fmt.Fprintf(&b, "%%c%d = OpConstant %%float %g\n", i, 1+float64(i%97)/64)
	}
	b.WriteString(`%main = OpFunction %void None %fn
%entry = OpLabel
%g3 = OpLoad %v3uint %gid
%g = OpCompositeExtract %uint %g3 0
%p = OpAccessChain %pf %buf %u0 %g
%x0 = OpLoad %float %p
`)
	for i := range n {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "%%x%d = OpExtInst %%float %%glsl Fma %%x%d %%c%d %%x0\n", i+1, i, i)
		case 1:
			fmt.Fprintf(&b, "%%x%d = OpExtInst %%float %%glsl Sin %%x%d\n", i+1, i)
		case 2:
			fmt.Fprintf(&b, "%%a%d = OpExtInst %%float %%glsl FAbs %%x%d\n%%x%d = OpExtInst %%float %%glsl Sqrt %%a%d\n", i, i, i+1, i)
		}
	}
	fmt.Fprintf(&b, "OpStore %%p %%x%d\nOpReturn\nOpFunctionEnd\n", n)
	dir := t.TempDir()
	src, out := filepath.Join(dir, "chain.spvasm"), filepath.Join(dir, "chain.spv")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("spirv-as", "--target-env", "vulkan1.2", "-o", out, src).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, msg)
	}
	spv, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return spv
}

// BenchmarkCompileCompute measures pipeline creation per target and kernel size. Each
// iteration uses another workgroup size, so no driver cache answers it. lavapipe defers LLVM
// code generation to the first dispatch, so its figure is SPIR-V→NIR work only.
func BenchmarkCompileCompute(b *testing.B) {
	for _, target := range []string{"radv-navi21", "lavapipe"} {
		for _, n := range []int{10, 300, 3000} {
			b.Run(fmt.Sprintf("%s/ops=%d", target, n), func(b *testing.B) {
				c := openCompiler(b, target)
				spv := chainSPIRV(b, n)
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					size := [3]uint32{uint32(i%32 + 1), uint32(i/32%32 + 1), 1}
					st, err := c.CompileCompute(spv, "main", size)
					if err != nil {
						b.Fatal(err)
					}
					if i == 0 && st["Instructions"] != "" {
						b.ReportMetric(atof(st["Instructions"]), "isa-instructions")
					}
				}
			})
		}
	}
}

func atof(s string) float64 {
	var f float64
	fmt.Sscan(s, &f)
	return f
}

// BenchmarkChildCompileCompute is BenchmarkCompileCompute's small kernel through a compile
// child, for the cost of the isolation (one JSON round trip over pipes per module).
func BenchmarkChildCompileCompute(b *testing.B) {
	c := openChild(b, "radv-navi21")
	spv := chainSPIRV(b, 10)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := c.CompileCompute(spv, "main", [3]uint32{uint32(i%32 + 1), uint32(i/32%32 + 1), 1}); err != nil {
			b.Fatal(err)
		}
	}
}
