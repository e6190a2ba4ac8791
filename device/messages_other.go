//go:build !linux

package device

import "io"

// debugCallback is 0 off Linux: driver messages are not collected there.
func debugCallback() uintptr { return 0 }

// echoMessages does nothing off Linux.
func echoMessages(io.Writer) {}

// captureMessages runs f; off Linux it collects no driver messages.
func captureMessages(f func() error) ([]string, error) { return nil, f() }
