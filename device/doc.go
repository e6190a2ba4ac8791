// Package device drives Vulkan devices for airpipe: it loads the system Vulkan loader at run
// time (purego, no cgo), lists and chooses physical devices, compiles SPIR-V on a compile target
// (RADV's null device for real AMD ISA without hardware, lavapipe) with the driver's ISA
// statistics, and implements the device agreement of seed 001 (align, indirect command buffers,
// fills, split, timeline values, device loss, stop) over Vulkan queues, command buffers,
// timeline semaphores and timestamp queries.
//
// A machine without Vulkan is not an error of the caller: every entry point then returns an
// error wrapping ErrNoVulkan (and ErrUnavailable), and nothing crashes.
package device
