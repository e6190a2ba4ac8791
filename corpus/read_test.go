package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestReadCappedAndStartsWith(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("MTLBxxxx"), 0o644); err != nil {
		t.Fatal(err)
	}
	var tooLarge *TooLargeError
	if _, err := ReadCapped(p, 7, nil); !errors.As(err, &tooLarge) || tooLarge.Size != 8 || tooLarge.Max != 7 {
		t.Errorf("ReadCapped over the cap: %v", err)
	}
	opened := false
	if b, err := ReadCapped(p, 8, func() { opened = true }); err != nil || string(b) != "MTLBxxxx" || !opened {
		t.Errorf("ReadCapped: %q %v opened=%v", b, err, opened)
	}
	if _, err := ReadCapped(dir, 1<<20, nil); err == nil {
		t.Error("ReadCapped read a directory")
	}
	for _, tc := range []struct {
		magic string
		want  bool
	}{{"MTLB", true}, {"MTLC", false}, {"MTLBxxxxy", false}} {
		if got, err := StartsWith(p, tc.magic); err != nil || got != tc.want {
			t.Errorf("StartsWith(%q) = %v, %v", tc.magic, got, err)
		}
	}
}

func TestScanFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	var tooLarge *TooLargeError
	if _, err := ScanFile(p, 4095, nil); !errors.As(err, &tooLarge) {
		t.Errorf("ScanFile over the cap: %v", err)
	}
	mapped := false
	if blobs, err := ScanFile(p, 4096, func() { mapped = true }); err != nil || len(blobs) != 0 || !mapped {
		t.Errorf("ScanFile of zeros: %d blobs, %v, mapped=%v", len(blobs), err, mapped)
	}
	var changed *ChangedError
	if _, err := ScanFile(p, 4096, func() {
		if err := os.Chtimes(p, time1980, time1980); err != nil {
			t.Error(err)
		}
	}); !errors.As(err, &changed) {
		t.Errorf("ScanFile of a file touched while mapped: %v", err)
	}
}

var time1980 = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
