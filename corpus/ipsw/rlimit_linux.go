package ipsw

import (
	"syscall"
	"unsafe"
)

// limitFileSize sets RLIMIT_FSIZE of process pid to n bytes (prlimit64).
func limitFileSize(pid int, n uint64) error {
	lim := syscall.Rlimit{Cur: n, Max: n}
	_, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), uintptr(syscall.RLIMIT_FSIZE), uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
