package mtlb

import (
	"bytes"
	"slices"
	"testing"
)

func TestFindEmbedded(t *testing.T) {
	one := readTestdata(t, "one_kernel.metallib")
	old := readTestdata(t, "old_style.metallib")
	var blob []byte
	blob = append(blob, "junk MTLB junk"...)
	blob = append(blob, one...)
	blob = append(blob, make([]byte, 7)...)
	blob = append(blob, old...)
	blob = append(blob, one[:200]...) // a truncated library: not reported
	blob = append(blob, "MTLB"...)
	got := FindEmbedded(blob)
	want := []Embedded{{14, int64(len(one))}, {int64(14 + len(one) + 7), int64(len(old))}}
	if !slices.Equal(got, want) {
		t.Fatalf("FindEmbedded = %v, want %v", got, want)
	}
	for _, e := range got {
		lib, err := Parse(blob[e.Offset : e.Offset+e.Size])
		if err != nil || !lib.Functions[0].HashMatches() {
			t.Errorf("library at %d: %v", e.Offset, err)
		}
	}
	if !LooksLikeLibrary(one) || LooksLikeLibrary(bytes.Repeat([]byte("MTLB"), 40)) {
		t.Error("LooksLikeLibrary disagrees with ValidHeader")
	}
}
