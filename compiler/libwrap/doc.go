// Package libwrap makes a library function runnable: it adds to an AIR
// module a compute kernel of airpipe's own, Entry, whose every thread loads
// the function's parameters from a buffer, calls it and stores its result
// into another, so that the translate, compile and emulator stages judge
// the function as they judge any kernel (the function itself is translated
// as the wrapper's callee). README.md is the ABI: the buffers, the records'
// layout, and what is refused by name. EntryFor is what a row's function
// is translated as: a library function through the wrapper, any other
// function as its module's entry point.
//
// The wrapper is airpipe's own calling convention, not Metal's stitching
// ABI (air.stitching_info), which the runtime owns and which is not
// implemented.
package libwrap
