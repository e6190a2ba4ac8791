package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
)

// TestRunFirmware: airpipe run over a synthetic .ipsw (an ISO root
// filesystem, a squashfs cryptex, an encrypted cryptex) finds every module,
// plain and embedded, with provenance naming every layer, and accounts for
// the encrypted image by name.
func TestRunFirmware(t *testing.T) {
	fw, _ := ipswtest.Firmware(t)
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", "--no-cache", "--firmware-cache", t.TempDir(), fw)
	meta, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		rel := strings.TrimPrefix(r.Source, fw)
		got = append(got, rel+" "+r.ContainerKind+" "+r.Function+" "+r.StageReached)
	}
	sort.Strings(got)
	want := []string{
		"!/078-12345-001.dmg!/System/Library/Frameworks/Foo.framework/Foo!__DATA,__metallib@0x",
		"!/078-12345-001.dmg!/System/Library/Frameworks/Foo.framework/default.metallib file foo_kernel reader",
		"!/078-12345-001.dmg!/System/Library/VideoProcessors/GNR.videoprocessor/GNR!arm64e slice/__DATA,__metallib@0x",
		"!/094-55555-002.dmg!/System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e!",
		"!/094-55555-002.dmg!/System/Library/Shaders/bar.metallib file foo_kernel reader",
	}
	t.Logf("rows:\n%s\ncounts %+v", strings.Join(got, "\n"), meta.Counts)
	if len(got) != len(want) {
		t.Fatalf("got %d rows:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || !strings.HasSuffix(got[i], "foo_kernel reader") {
			t.Errorf("row %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
	if meta.Counts.RefusedReasons["corpus/encrypted-image"] != 1 {
		t.Errorf("encrypted image not accounted: %v", meta.Counts.RefusedReasons)
	}
	if err := meta.Counts.Check(); err != nil {
		t.Error(err)
	}
}
