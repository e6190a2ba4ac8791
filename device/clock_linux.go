package device

import (
	"syscall"
	"unsafe"
)

// HostNanos is the host clock Split reports times in: CLOCK_MONOTONIC in nanoseconds, Linux's
// counterpart of Metal's CLOCK_UPTIME_RAW (neither counts time asleep).
func HostNanos() uint64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 1 /* CLOCK_MONOTONIC */, uintptr(unsafe.Pointer(&ts)), 0)
	return uint64(ts.Sec)*1e9 + uint64(ts.Nsec)
}
