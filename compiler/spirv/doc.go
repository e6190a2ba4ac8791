// Package spirv builds SPIR-V modules in memory and encodes them as words.
//
// The opcode and enumerant tables in tables_gen.go are generated from the
// SPIR-V grammar JSON that Debian's spirv-headers package installs; regenerate
// them with go generate. A Module deduplicates types and constants, keeps the
// logical layout's sections apart and emits them in the order the
// specification requires. Validate runs spirv-val on encoded bytes; its text
// is a verdict only and is never read back into code generation.
package spirv

//go:generate go run ./internal/gen -grammar /usr/include/spirv/unified1 -o tables_gen.go
