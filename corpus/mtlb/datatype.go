package mtlb

import "fmt"

// dataTypeNames holds Apple's public MTLDataType codes (seed 000).
var dataTypeNames = map[uint8]string{
	0: "None", 1: "Struct", 2: "Array", 3: "Float", 4: "Float2", 5: "Float3", 6: "Float4",
	7: "Float2x2", 8: "Float2x3", 9: "Float2x4", 10: "Float3x2", 11: "Float3x3", 12: "Float3x4",
	13: "Float4x2", 14: "Float4x3", 15: "Float4x4", 16: "Half", 17: "Half2", 18: "Half3", 19: "Half4",
	20: "Half2x2", 21: "Half2x3", 22: "Half2x4", 23: "Half3x2", 24: "Half3x3", 25: "Half3x4",
	26: "Half4x2", 27: "Half4x3", 28: "Half4x4", 29: "Int", 30: "Int2", 31: "Int3", 32: "Int4",
	33: "UInt", 34: "UInt2", 35: "UInt3", 36: "UInt4", 37: "Short", 38: "Short2", 39: "Short3",
	40: "Short4", 41: "UShort", 42: "UShort2", 43: "UShort3", 44: "UShort4", 45: "Char", 46: "Char2",
	47: "Char3", 48: "Char4", 49: "UChar", 50: "UChar2", 51: "UChar3", 52: "UChar4", 53: "Bool",
	54: "Bool2", 55: "Bool3", 56: "Bool4", 58: "Texture", 59: "Sampler", 60: "Pointer",
	62: "R8Unorm", 63: "R8Snorm", 64: "R16Unorm", 65: "R16Snorm", 66: "RG8Unorm", 67: "RG8Snorm",
	68: "RG16Unorm", 69: "RG16Snorm", 70: "RGBA8Unorm", 71: "RGBA8Unorm_sRGB", 72: "RGBA8Snorm",
	73: "RGBA16Unorm", 74: "RGBA16Snorm", 75: "RGB10A2Unorm", 76: "RG11B10Float", 77: "RGB9E5Float",
	78: "RenderPipeline", 79: "ComputePipeline", 80: "IndirectCommandBuffer", 81: "Long", 82: "Long2",
	83: "Long3", 84: "Long4", 85: "ULong", 86: "ULong2", 87: "ULong3", 88: "ULong4",
	115: "VisibleFunctionTable", 116: "IntersectionFunctionTable", 117: "PrimitiveAccelerationStructure",
	118: "InstanceAccelerationStructure", 121: "BFloat", 122: "BFloat2", 123: "BFloat3", 124: "BFloat4",
	139: "DepthStencilState", 140: "Tensor",
}

// DataTypeName names a Metal data type code as used by LAYR, VATY and CNST;
// codes outside Apple's public enumeration read "unknown(0x39)" style.
func DataTypeName(code uint8) string {
	if s, ok := dataTypeNames[code]; ok {
		return s
	}
	return fmt.Sprintf("unknown(0x%02x)", code)
}
