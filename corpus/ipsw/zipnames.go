package ipsw

import (
	"path"
	"strings"
)

// unsafeName says why an archive entry name cannot be used as a relative
// path ("" when it can): absolute paths, ".." components, backslashes,
// drive letters, NUL and other control characters are refused.
func unsafeName(name string) string {
	switch {
	case name == "":
		return "empty name"
	case strings.HasPrefix(name, "/"):
		return "absolute path"
	case strings.ContainsRune(name, '\\'):
		return "backslash in name"
	case len(name) >= 2 && name[1] == ':':
		return "drive letter"
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return "control character in name"
		}
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "\"..\" component"
		}
	}
	if c := path.Clean(name); c == "." || strings.HasPrefix(c, "../") {
		return "leaves the archive root"
	}
	return ""
}
