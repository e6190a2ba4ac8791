package cpuref

import (
	"os"
	"sync"
	"syscall"
)

// A reference run writes its buffers to files, and the harness reads them
// and writes them back — some ten files of up to 128 KiB a run, and tens of
// runs a module. On a disk file system that is most of airpipe's own system
// time (rewriting a 128 KiB file: ~220 µs on this machine's ext4 /tmp, ~70
// µs in memory), so the files go to a memory file system when there is one.

// memoryDir is the memory file system runs use when TMPDIR says nothing.
const memoryDir = "/dev/shm"

// scratchBase is where runs make their directories: memoryDir when TMPDIR
// is unset and memoryDir is a directory that allows executing files (a
// stored program's harness is written there and run, unbundle), else the
// temporary directory ("").
var scratchBase = sync.OnceValue(func() string { return scratchBaseFor(os.Getenv("TMPDIR"), memoryDir) })

// scratchBaseFor is scratchBase with TMPDIR tmpdir and memory file system
// dir.
func scratchBaseFor(tmpdir, dir string) string {
	if tmpdir != "" {
		return ""
	}
	var st syscall.Statfs_t
	const noexec = 0x8 // ST_NOEXEC
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || syscall.Statfs(dir, &st) != nil || st.Flags&noexec != 0 {
		return ""
	}
	return dir
}

// MemoryDir is the directory short-lived files go to beside the
// references' own — the memory file system (/dev/shm) when TMPDIR is unset
// and it can hold them, else "" (the temporary directory) — so that other
// per-module files (the emulator's request inputs) skip the disk as well.
func MemoryDir() string { return scratchBase() }

// scratchDir makes a run's directory under scratchBase, or under the
// temporary directory when that fails.
func scratchDir() (string, error) {
	if base := scratchBase(); base != "" {
		if dir, err := os.MkdirTemp(base, "airpipe-cpuref-"); err == nil {
			return dir, nil
		}
	}
	return os.MkdirTemp("", "airpipe-cpuref-")
}
