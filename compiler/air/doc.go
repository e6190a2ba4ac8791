// Package air holds an LLVM/AIR module as plain data: types, values,
// constants, globals, functions, basic blocks, instructions and metadata, as
// the bitcode reader (package compiler/bitcode) builds them and as the
// translator walks them. It also decodes Apple's AIR entry-point metadata
// (EntryPoints) and lists a module's features (Features).
//
// The IR is plain data: every node is a pointer to an exported struct, and
// the interfaces Type, Value, Constant, Instruction and Metadata are sealed
// (their implementers are listed on each interface). Types of the module's
// type table are shared pointers, but the reader may build an equal type
// where the table has none (a pointer or i1 vector it derives), so compare
// types by String (LLVM 19's spelling) where identity matters.
//
// Pointers keep their pointee type when the bitcode has one (Apple's AIR
// uses typed pointers); PointerType.Elem is nil for opaque pointers.
package air
