// Package macho reads the Apple binary containers that can carry Metal
// libraries: thin Mach-O images (32- and 64-bit), classic fat binaries
// (magic 0xcafebabe / 0xcafebabf), Metal fat binaries (magic 0xcbfebabe,
// whose AIR64 slices, CPU type 0x01000017, hold a library directly) and
// dyld shared caches (magic "dyld_v1").
//
// It lists slices, segments' sections and cache mappings and images with
// their byte offsets in the input; it does not load symbols or relocations.
// Constants come from Go's debug/macho where it defines them.
//
// Hostile input never panics and never allocates more than the input
// justifies: every count is checked against the bytes that would hold it
// before anything is allocated, and errors are [*FormatError] values naming
// the construct and its byte offset.
package macho
