package cpuref

import "strings"

// Fragment discard. air.discard_fragment ends the pixel's invocation: Metal
// discards the fragment's outputs (its render targets and depth keep what the
// attachment held), and writes the shader made to memory before it stay; the
// translation demotes the invocation (OpDemoteToHelperInvocation), after
// which a helper invocation's stores have no effect either, so ending it at
// the call is the same observable result. The reference defines the operation
// as a call of the harness's airpipe_discard, which jumps back to the
// harness's per-pixel loop past the wrapper's stores: the pixel's harness
// render-target and depth words keep Clear and ClearDepth, exactly what the
// draw's attachments are cleared to, so a discarded pixel compares as "not
// written" on both sides. Fragment functions never run cooperatively
// (SIMD-group operations in one are set aside, barriers are compute-only);
// the harness still refuses a discard in a cooperative run (its threads' own
// stacks, which the jump must not cross) rather than jump.

// discardOp defines air.discard_fragment().
func discardOp(d declaration) (string, error) {
	if d.Ret != "void" || len(d.Params) != 0 {
		return "", notJudgeable(KindDiscard, d.Name, "%s declared as %s(%s), not void()", d.Name, d.Ret, strings.Join(d.Params, ", "))
	}
	return "define internal void @air.discard_fragment() {\n  call void @airpipe_discard()\n  unreachable\n}\n", nil
}
