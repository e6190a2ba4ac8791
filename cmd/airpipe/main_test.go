package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain lets the test binary serve as its own compile child, as the
// airpipe binary does (os.Executable is the test binary under go test), and
// points the user cache directory at a temporary one.
func TestMain(m *testing.M) {
	if code, ok := serveChild(os.Args[1:]); ok {
		os.Exit(code)
	}
	// Tests never read or write the user's caches.
	dir, err := os.MkdirTemp("", "airpipe-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	if builtAirpipe.path != "" {
		os.RemoveAll(filepath.Dir(builtAirpipe.path))
	}
	os.Exit(code)
}
