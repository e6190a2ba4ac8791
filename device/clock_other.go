//go:build !linux

package device

import "time"

var clockBase = time.Now()

// HostNanos is the host clock Split reports times in: nanoseconds of Go's monotonic clock
// since the process started (off Linux, where CLOCK_MONOTONIC is not read directly).
func HostNanos() uint64 { return uint64(time.Since(clockBase)) }
