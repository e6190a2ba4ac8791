package device

import "fmt"

// SPIR-V numbers of transform feedback.
const (
	capTransformFeedback = 53
	modeXfb              = 11
	decOffset            = 35
	decXfbBuffer         = 36
	decXfbStride         = 37
	builtInPointSize     = 1
)

// isAnnotation reports whether op is in SPIR-V's annotation section.
func isAnnotation(op uint32) bool {
	switch op {
	case opDecorate, 72, 73, 74, 75, 332, 5632, 5633:
		return true
	}
	return false
}

// isPreamble reports whether op belongs before the annotations (capabilities, extensions,
// imports, memory model, entry points, execution modes, debug instructions).
func isPreamble(op uint32) bool {
	switch op {
	case opCapability, opExtension, 11, opMemoryModel, opEntryPoint, opExecutionMode, opExecutionModeID,
		2, 3, 4, 7, opName, 6, 330:
		return true
	}
	return false
}

// withXfb returns a copy of the module's words that captures the output variables in offsets
// (variable id -> byte offset) of entry entryID into transform feedback buffer 0, one record
// of stride bytes per vertex: the TransformFeedback capability, the Xfb execution mode and
// XfbBuffer/XfbStride/Offset decorations are added; nothing the shader computes changes.
func (m *spirvModule) withXfb(entryID uint32, offsets map[uint32]uint32, stride uint32) ([]uint32, error) {
	w := m.words
	afterCaps, afterModes, afterDecos, firstBody := -1, -1, -1, -1
	for i := 5; i < len(w); {
		n := int(w[i] >> 16)
		op := w[i] & 0xffff
		if n == 0 || i+n > len(w) {
			return nil, &SPIRVError{Offset: 4 * i, What: "instruction runs past the end"}
		}
		switch {
		case op == opCapability:
			afterCaps = i + n
		case op == opEntryPoint || op == opExecutionMode || op == opExecutionModeID:
			afterModes = i + n
		case isAnnotation(op):
			afterDecos = i + n
		case !isPreamble(op) && firstBody < 0:
			firstBody = i
		}
		i += n
	}
	if afterCaps < 0 || afterModes < 0 || firstBody < 0 {
		return nil, fmt.Errorf("device: module lacks a capability, entry point or body")
	}
	if afterDecos < 0 {
		afterDecos = firstBody
	}
	if afterCaps > afterModes || afterModes > afterDecos {
		return nil, &SPIRVError{Offset: 4 * afterModes, What: "capabilities, entry points and decorations are not in the logical layout's order"}
	}
	var caps, modes, decos []uint32
	emit(&caps, opCapability, capTransformFeedback)
	emit(&modes, opExecutionMode, entryID, modeXfb)
	for _, id := range sortedIDs(offsets) {
		emit(&decos, opDecorate, id, decXfbBuffer, 0)
		emit(&decos, opDecorate, id, decXfbStride, stride)
		emit(&decos, opDecorate, id, decOffset, offsets[id])
	}
	out := make([]uint32, 0, len(w)+len(caps)+len(modes)+len(decos))
	out = append(out, w[:afterCaps]...)
	out = append(out, caps...)
	out = append(out, w[afterCaps:afterModes]...)
	out = append(out, modes...)
	out = append(out, w[afterModes:afterDecos]...)
	out = append(out, decos...)
	out = append(out, w[afterDecos:]...)
	return out, nil
}

func sortedIDs(m map[uint32]uint32) []uint32 {
	out := make([]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// outputSize is the bytes of a 32-bit scalar or vector output of up to 4 components, or 0.
func (m *spirvModule) outputSize(typ uint32) uint32 {
	t := m.types[typ]
	n := uint32(1)
	if len(t) >= 4 && t[0]&0xffff == opTypeVector {
		n, t = t[3], m.types[t[2]]
	}
	if len(t) >= 3 && (t[0]&0xffff == opTypeFloat || t[0]&0xffff == opTypeInt) && t[2] == 32 && n >= 1 && n <= 4 {
		return 4 * n
	}
	return 0
}
