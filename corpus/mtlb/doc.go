// Package mtlb reads and writes Metal library containers (.metallib files,
// magic "MTLB"): the header, the function list and its tags, the header
// extension, the dynamic header, the public and private metadata, the embedded
// source archives and each function's LLVM bitcode slice.
//
// Apple publishes no specification of the format; the layout follows the
// reverse-engineered description in seed 000 and the facts measured on the
// real corpus (shared/corpus/README.md). Everything the parser does not
// understand is kept (as [Tag] values) and reported by name in
// [Library.Unknown], never dropped.
//
// The parser never panics on hostile input: every offset, size and count is
// checked against the input length before it is used or allocated.
package mtlb
