//go:build !linux

package ipsw

// limitFileSize is a no-op where prlimit is not available; the output
// folder is still measured while 7-Zip runs.
func limitFileSize(pid int, n uint64) error { return nil }
