package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary serve as its own compile child, as the
// airpipe binary does (os.Executable is the test binary under go test).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == compileChildCommand {
		os.Exit(serveCompileChild())
	}
	os.Exit(m.Run())
}
