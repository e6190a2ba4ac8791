package cpuref

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestWriteConflictAnyByte: the harness skips unchanged 4096- and 64-byte
// stretches when it looks for bytes two threads wrote (segment_end); a
// conflict on the first word of a stretch, its last, the next one's first,
// and on the tail shorter than a stretch (100- and 8,300-byte buffers) is
// still found, at the first byte that differs.
func TestWriteConflictAnyByte(t *testing.T) {
	needTools(t)
	for _, c := range []struct {
		size int64
		w    int
	}{{100, 0}, {100, 15}, {100, 16}, {100, 17}, {100, 24}, {8300, 1023}, {8300, 1024}, {8300, 1040}, {8300, 2070}} {
		w := c.w
		// Every thread stores its own id into word w.
		racy := variant("kernel", "", "", fmt.Sprintf("  %%q = getelementptr inbounds i32, ptr addrspace(1) %%out, i64 %d\n  store i32 %%gid, ptr addrspace(1) %%q", w), "")
		_, err := RunText(context.Background(), racy, "k", Options{BufferSize: c.size})
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindRace {
			t.Errorf("word %d: got %v, want %s", w, err, KindRace)
			continue
		}
		if want := fmt.Sprintf("threads 0 and 1 both wrote buffer 0 byte %d", 4*w); !strings.Contains(nj.Reason, want) {
			t.Errorf("word %d: %q does not say %q", w, nj.Reason, want)
		}
	}
}
