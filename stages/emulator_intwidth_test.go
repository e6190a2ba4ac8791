package stages

import (
	"testing"
)

// TestEmulatorIntWidths judges apple_intwidth.ll (i2, i3, i6 arithmetic,
// sign extension, signed and unsigned comparisons, a switch on an i3) on
// lavapipe against LLVM's own execution: it passes. The SPIR-V of the same
// kernel with sext i3 replaced by zext (the sign bit not extended), judged
// against the right AIR, is a mismatch: the check can fail.
func TestEmulatorIntWidths(t *testing.T) {
	passesAndCatches(t, "../compiler/translate/testdata/apple_intwidth.ll", true, plantedFault{
		name:          "sext as zext",
		old:           "  %s = sext i3 %c to i32\n",
		new:           "  %s = zext i3 %c to i32\n",
		inTranslation: true,
	})
}
