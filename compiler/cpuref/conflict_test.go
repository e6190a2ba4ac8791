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

// TestWriteConflictTrackedPages: a buffer or threadgroup memory of 16 KiB or
// more is compared only on the pages a segment wrote (the harness's write
// faults, segment_end); a conflict on the first and last word of a page, the
// next page's first, a buffer's last word, in a buffer that does not start
// on a page (20,000 bytes: 480 bytes of its first page lie before it), from
// a store that crosses into the next page and changes bytes only there, and
// in 32 KiB of threadgroup memory, is still found, at the first byte that
// differs.
func TestWriteConflictTrackedPages(t *testing.T) {
	needTools(t)
	word := func(w int) string {
		return fmt.Sprintf("  %%q = getelementptr inbounds i32, ptr addrspace(1) %%out, i64 %d\n  store i32 %%gid, ptr addrspace(1) %%q", w)
	}
	// Each thread stores an i64 at byte 4092 whose low word is what is there
	// already and whose high word is its id: only bytes 4096 on change.
	const crossing = `  %q = getelementptr inbounds i8, ptr addrspace(1) %out, i64 4092
  %lo = load i32, ptr addrspace(1) %q, align 4
  %lo64 = zext i32 %lo to i64
  %hi = zext i32 %gid to i64
  %sh = shl i64 %hi, 32
  %x = or i64 %lo64, %sh
  store i64 %x, ptr addrspace(1) %q, align 4`
	big := strings.ReplaceAll(tgKernel("", `  %q = getelementptr inbounds [1024 x i32], ptr addrspace(3) @tg, i64 0, i64 5000
  %id1 = add i32 %gid, 1
  store i32 %id1, ptr addrspace(3) %q, align 4
  store i32 %v, ptr addrspace(1) %op, align 4`), "[1024 x i32]", "[8192 x i32]")
	for _, c := range []struct {
		name string
		size int64
		ll   string
		want string
	}{
		{"first word", 131072, variant("kernel", "", "", word(0), ""), "buffer 0 byte 0"},
		{"last word of a page", 131072, variant("kernel", "", "", word(1023), ""), "buffer 0 byte 4092"},
		{"first word of the next page", 131072, variant("kernel", "", "", word(1024), ""), "buffer 0 byte 4096"},
		{"last word", 131072, variant("kernel", "", "", word(32767), ""), "buffer 0 byte 131068"},
		{"unaligned buffer, first word", 20000, variant("kernel", "", "", word(0), ""), "buffer 0 byte 0"},
		{"unaligned buffer, last word of its first page", 20000, variant("kernel", "", "", word(903), ""), "buffer 0 byte 3612"},
		{"unaligned buffer, first word of its second page", 20000, variant("kernel", "", "", word(904), ""), "buffer 0 byte 3616"},
		{"unaligned buffer, last word", 20000, variant("kernel", "", "", word(4999), ""), "buffer 0 byte 19996"},
		{"store across a page boundary", 131072, variant("kernel", "", "", crossing, ""), "buffer 0 byte 4096"},
		{"threadgroup memory", 0, big, "threadgroup memory byte 20000"},
	} {
		_, err := RunText(context.Background(), c.ll, "k", Options{BufferSize: c.size})
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindRace {
			t.Errorf("%s: got %v, want %s", c.name, err, KindRace)
			continue
		}
		if want := "threads 0 and 1 both wrote " + c.want; !strings.Contains(nj.Reason, want) {
			t.Errorf("%s: %q does not say %q", c.name, nj.Reason, want)
		}
	}
}
