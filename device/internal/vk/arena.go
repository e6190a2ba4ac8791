package vk

import (
	"sync"
	"syscall"
	"unsafe"
)

// Arena is scratch memory for the structures passed to Vulkan. It is mapped with mmap, outside
// the Go heap, so the garbage collector neither moves nor frees it and addresses stored in it
// stay valid until Reset or Free. Its structures therefore hold only numbers and addresses.
type Arena struct {
	chunks [][]byte
	cur    int // index in chunks of the chunk being filled
	off    int // next free byte in chunks[cur]
}

const chunkSize = 64 << 10

// Alloc returns size zeroed bytes aligned to align (a power of two).
func (a *Arena) Alloc(size, align int) unsafe.Pointer {
	if size <= 0 {
		size = 1
	}
	for {
		if a.cur < len(a.chunks) {
			c := a.chunks[a.cur]
			off := (a.off + align - 1) &^ (align - 1)
			if off+size <= len(c) {
				a.off = off + size
				b := c[off : off+size]
				clear(b)
				return unsafe.Pointer(&b[0])
			}
			if a.cur+1 < len(a.chunks) {
				a.cur++
				a.off = 0
				continue
			}
		}
		n := chunkSize
		if size+align > n {
			n = (size + align + chunkSize - 1) &^ (chunkSize - 1)
		}
		m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			panic("vk: arena mmap: " + err.Error())
		}
		a.chunks = append(a.chunks, m)
		a.cur = len(a.chunks) - 1
		a.off = 0
	}
}

// New allocates one zeroed T in the arena. T must hold no Go pointers.
func New[T any](a *Arena) *T {
	var z T
	return (*T)(a.Alloc(int(unsafe.Sizeof(z)), int(unsafe.Alignof(z))))
}

// NewArray allocates n zeroed Ts in the arena. T must hold no Go pointers.
func NewArray[T any](a *Arena, n int) []T {
	var z T
	if n == 0 {
		return nil
	}
	p := a.Alloc(int(unsafe.Sizeof(z))*n, int(unsafe.Alignof(z)))
	return unsafe.Slice((*T)(p), n)
}

// CString copies s into the arena with a terminating NUL and returns its address.
func (a *Arena) CString(s string) uintptr {
	p := a.Alloc(len(s)+1, 1)
	copy(unsafe.Slice((*byte)(p), len(s)+1), s)
	return uintptr(p)
}

// Bytes copies b into the arena, 8-byte aligned, and returns its address.
func (a *Arena) Bytes(b []byte) uintptr {
	p := a.Alloc(len(b), 8)
	copy(unsafe.Slice((*byte)(p), len(b)), b)
	return uintptr(p)
}

// Reset makes all of the arena's memory free again; earlier allocations become invalid.
func (a *Arena) Reset() {
	a.cur, a.off = 0, 0
}

// Free unmaps the arena's memory.
func (a *Arena) Free() {
	for _, c := range a.chunks {
		_ = syscall.Munmap(c)
	}
	a.chunks, a.cur, a.off = nil, 0, 0
}

// Addr is the address of p, for a structure field or an argument.
func Addr[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// SliceAddr is the address of s's first element, or 0 when s is empty.
func SliceAddr[T any](s []T) uintptr {
	if len(s) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&s[0]))
}

var arenas struct {
	sync.Mutex
	free []*Arena
}

// GetArena returns an empty arena from a small pool; give it back with PutArena.
func GetArena() *Arena {
	arenas.Lock()
	defer arenas.Unlock()
	if n := len(arenas.free); n > 0 {
		a := arenas.free[n-1]
		arenas.free = arenas.free[:n-1]
		return a
	}
	return &Arena{}
}

// PutArena resets a and keeps it for a later GetArena, or frees it when the pool is full.
func PutArena(a *Arena) {
	a.Reset()
	arenas.Lock()
	defer arenas.Unlock()
	if len(arenas.free) < 16 && len(a.chunks) <= 4 {
		arenas.free = append(arenas.free, a)
		return
	}
	a.Free()
}

// GoString reads a NUL-terminated string from a fixed-size array.
func GoString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
