package device

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Drivers report why they refuse a shader through VK_EXT_debug_report (Mesa's SPIR-V reader
// does), calling back on the thread that made the refused call. airpipe registers one Go
// callback per instance and files each message under the calling thread's id, so a compile
// that locks its goroutine to its thread collects exactly its own messages.

var messages struct {
	sync.Mutex
	byThread map[int]*[]string
	echo     io.Writer // a compile child also writes each message here at once, before a crash can lose it
}

// echoMessages makes every driver message also go to w as a line "driver-message: ...".
func echoMessages(w io.Writer) {
	messages.Lock()
	messages.echo = w
	messages.Unlock()
}

// debugCallback is the C address of onDebugReport, made once (purego allows 2000 callbacks
// per process); 0 when callbacks are unsupported here.
var debugCallback = sync.OnceValue(func() (fn uintptr) {
	defer func() {
		if recover() != nil {
			fn = 0
		}
	}()
	return purego.NewCallback(onDebugReport)
})

// onDebugReport is PFN_vkDebugReportCallbackEXT.
func onDebugReport(flags uint32, objectType uint32, object uint64, location uintptr, code int32, prefix, msg *byte, user uintptr) uintptr {
	tid := syscall.Gettid()
	messages.Lock()
	defer messages.Unlock()
	s := cString(msg)
	if p := cString(prefix); p != "" {
		s = p + ": " + s
	}
	s = strings.TrimSpace(s)
	if m := messages.byThread[tid]; m != nil {
		*m = append(*m, s)
	}
	if messages.echo != nil {
		fmt.Fprintf(messages.echo, "%s%s\n", messagePrefix, strings.ReplaceAll(s, "\n", " "))
	}
	return 0 // VK_FALSE: do not abort the call
}

// cString copies a NUL-terminated C string.
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	var b []byte
	for q := unsafe.Pointer(p); *(*byte)(q) != 0 && len(b) < 1<<16; q = unsafe.Add(q, 1) {
		b = append(b, *(*byte)(q))
	}
	return string(b)
}

// captureMessages runs f on one locked thread and returns f's result with the driver messages
// it caused.
func captureMessages(f func() error) ([]string, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := syscall.Gettid()
	var got []string
	messages.Lock()
	if messages.byThread == nil {
		messages.byThread = map[int]*[]string{}
	}
	messages.byThread[tid] = &got
	messages.Unlock()
	err := f()
	messages.Lock()
	delete(messages.byThread, tid)
	messages.Unlock()
	return got, err
}
