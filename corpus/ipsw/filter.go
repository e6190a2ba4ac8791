package ipsw

import (
	"bytes"
	"path"
	"strings"

	"github.com/airpipe/airpipe/corpus/macho"
)

// FilterVersion changes whenever Candidate or Holds changes what is kept,
// so cached image indexes made by an older filter are not reused. 2: HFS+
// hard links resolved, symbolic-link targets selected, APFS sparse files
// checked, extracted sizes must equal listed sizes.
const FilterVersion = 2

// Candidate reports whether an image entry may hold shaders, from its
// path (slash-separated, relative to the image root), its Unix mode string
// as 7-Zip lists it ("-rwxr-xr-x"; may be empty) and its size. Selected:
//
//   - *.metallib: Metal libraries;
//   - *.dylib: dynamic libraries;
//   - dyld_shared_cache*: dyld shared caches and their subcaches (the
//     ".map" and ".atlas" text sidecars are not);
//   - bundle binaries: a file named like the bundle directory holding it
//     without its extension, at Foo.ext/Foo (iOS frameworks, apps,
//     plug-ins, XPC services, video processors and any other bundle),
//     Foo.ext/Versions/<v>/Foo or Foo.ext/Contents/MacOS/Foo (macOS);
//   - any regular file with an execute bit (daemons and tools in bin,
//     sbin, libexec and elsewhere).
//
// Empty files never are. Candidates are then checked by content (Holds).
func Candidate(p, mode string, size int64) bool {
	if size <= 0 {
		return false
	}
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, ".metallib"), strings.HasSuffix(base, ".dylib"):
		return true
	case strings.HasPrefix(base, "dyld_shared_cache"):
		return !strings.HasSuffix(base, ".map") && !strings.HasSuffix(base, ".atlas")
	case executable(mode):
		return true
	}
	return bundleBinary(p)
}

// executable reports an execute bit in a mode string like "-rwxr-xr-x".
func executable(mode string) bool {
	return len(mode) == 10 && mode[0] == '-' && (mode[3] == 'x' || mode[6] == 'x' || mode[9] == 'x')
}

// bundleBinary reports whether p is its bundle's main binary.
func bundleBinary(p string) bool {
	dir, base := path.Split(p)
	parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
	n := len(parts)
	stem := func(s string) string {
		if i := strings.LastIndexByte(s, '.'); i > 0 {
			return s[:i]
		}
		return ""
	}
	switch {
	case n >= 1 && stem(parts[n-1]) == base:
		return true
	case n >= 3 && parts[n-2] == "Versions" && stem(parts[n-3]) == base:
		return true
	case n >= 3 && parts[n-1] == "MacOS" && parts[n-2] == "Contents" && stem(parts[n-3]) == base:
		return true
	}
	return false
}

// Holds reports whether a file's first bytes announce something that can
// hold shaders: a Metal library, a Mach-O, fat or Metal fat binary, a dyld
// shared cache or LLVM bitcode (wrapped or raw). Files named *.metallib are
// kept whatever they hold, so a damaged library is reported, not dropped.
func Holds(name string, head []byte) bool {
	if strings.HasSuffix(name, ".metallib") {
		return true
	}
	if bytes.HasPrefix(head, []byte("MTLB")) || bytes.HasPrefix(head, []byte{0xDE, 0xC0, 0x17, 0x0B}) || bytes.HasPrefix(head, []byte{'B', 'C', 0xC0, 0xDE}) {
		return true
	}
	return macho.Sniff(head) != macho.KindNone
}
