package stages

import (
	"crypto/sha256"
	"encoding/hex"
)

// One run's verdicts on SPIR-V modules (memo.Answers), by spirvKey: library
// variants whose bitcode differs only in metadata or a compiler version
// translate to the same words — on the share, 3,370 translations are 1,151
// distinct modules — and spirv-val and a driver's compiler answer the same
// words the same way, so each distinct module is validated once and compiled
// once per target. The engine's own reuse covers identical bitcode; this
// covers identical translations.

// spirvSum is the hex SHA-256 of words (the rows' translate.spirv_sha256).
func spirvSum(words []byte) string {
	sum := sha256.Sum256(words)
	return hex.EncodeToString(sum[:])
}

// spirvKey is the key of words under the given other inputs.
func spirvKey(words []byte, inputs ...string) string {
	return spirvKeyOf(spirvSum(words), inputs...)
}

// spirvKeyOf is spirvKey of the words whose spirvSum is sum.
func spirvKeyOf(sum string, inputs ...string) string {
	k := sum
	for _, in := range inputs {
		k += "\x00" + in
	}
	return k
}
