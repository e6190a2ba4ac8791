// Package translate turns one AIR entry point into one SPIR-V module for
// Vulkan 1.2, with reflection beside it (bindings, push constants, outputs,
// varyings, workgroup-size policy), so the execution stages bind without
// re-reading AIR. ABI.md documents the descriptor ABI and the pointer model.
//
// Translate walks the whole entry point and reports every missing feature it
// meets (MissingError) rather than stopping at the first. Structured control
// flow comes from the LLVM CFG (cfg.go); shapes outside the structured
// subset are refused by name, never guessed. spirv-val is the independent
// verdict afterwards (spirv.Validate); its text never feeds code generation.
package translate
