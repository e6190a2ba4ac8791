package macho

import (
	"debug/macho"
	"fmt"
)

// CPU types beyond those debug/macho names: the GPU and AIR types Metal fat
// binaries use (CPU_ARCH_ABI64 | n).
const (
	CPUArchABI64    = 0x01000000
	CPUTypeAppleGPU = CPUArchABI64 | 19
	CPUTypeAMDGPU   = CPUArchABI64 | 20
	CPUTypeIntelGPU = CPUArchABI64 | 21
	// CPUTypeAIR64 marks a slice holding Apple IR (a Metal library).
	CPUTypeAIR64   = CPUArchABI64 | 23
	cpuTypeARM6432 = 0x02000000 | 12
)

// ArchName names a CPU type and subtype the way Apple's tools do:
// "arm64e", "arm64", "x86_64", "air64", "applegpu", ... Unknown pairs are
// "cpu0x<type>.<subtype>".
func ArchName(cpu, sub uint32) string {
	s := sub & 0x00ffffff
	switch cpu {
	case uint32(macho.CpuArm64):
		if s == 2 {
			return "arm64e"
		}
		return "arm64"
	case uint32(macho.CpuArm):
		return "arm"
	case cpuTypeARM6432:
		return "arm64_32"
	case uint32(macho.CpuAmd64):
		return "x86_64"
	case uint32(macho.Cpu386):
		return "i386"
	case uint32(macho.CpuPpc):
		return "ppc"
	case uint32(macho.CpuPpc64):
		return "ppc64"
	case CPUTypeAIR64:
		return "air64"
	case CPUTypeAppleGPU:
		return "applegpu"
	case CPUTypeAMDGPU:
		return "amdgpu"
	case CPUTypeIntelGPU:
		return "intelgpu"
	}
	return fmt.Sprintf("cpu0x%x.%d", cpu, s)
}
