package ipsw

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestUnsafeName(t *testing.T) {
	for _, tc := range []struct {
		name string
		bad  bool
	}{
		{"078-12345.dmg", false},
		{"Firmware/all_flash/x.im4p", false},
		{"a/./b", false},
		{"a..b/c", false},
		{"../evil.dmg", true},
		{"a/../../evil", true},
		{"/etc/passwd", true},
		{"C:/x.dmg", true},
		{"a\\..\\b", true},
		{"a\x00b", true},
		{"a\nPath = b", true},
		{"", true},
	} {
		if got := unsafeName(tc.name) != ""; got != tc.bad {
			t.Errorf("unsafeName(%q) = %q, want bad=%v", tc.name, unsafeName(tc.name), tc.bad)
		}
	}
}

func TestCandidate(t *testing.T) {
	for _, tc := range []struct {
		path, mode string
		want       bool
	}{
		{"System/Library/Frameworks/Foo.framework/default.metallib", "-rw-r--r--", true},
		{"usr/lib/libz.1.dylib", "-rw-r--r--", true},
		{"System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e", "-rw-r--r--", true},
		{"System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e.01", "-rw-r--r--", true},
		{"System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e.map", "-rw-r--r--", false},
		{"System/Library/Frameworks/Foo.framework/Foo", "", true},
		{"System/Library/VideoProcessors/GNR.videoprocessor/GNR", "", true},
		{"Library/Frameworks/Bar.framework/Versions/A/Bar", "", true},
		{"Applications/X.app/Contents/MacOS/X", "", true},
		{"System/Library/Frameworks/Foo.framework/Info.plist", "-rw-r--r--", false},
		{"usr/libexec/daemon", "-rwxr-xr-x", true},
		{"usr/share/readme.txt", "-rw-r--r--", false},
		{"Foo", "", false},
	} {
		if got := Candidate(tc.path, tc.mode, 10); got != tc.want {
			t.Errorf("Candidate(%q, %q) = %v, want %v", tc.path, tc.mode, got, tc.want)
		}
	}
	if Candidate("a/b.metallib", "", 0) {
		t.Error("empty file selected")
	}
}

func TestPlist(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
 <key>S</key><string>a &amp; b</string>
 <key>I</key><integer>-42</integer>
 <key>R</key><real>1.5</real>
 <key>T</key><true/><key>F</key><false/>
 <key>D</key><data>aGVs
 bG8=</data>
 <key>A</key><array><string>x</string><dict/></array>
</dict></plist>`
	v, err := parsePlist([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["S"] != "a & b" || m["I"] != int64(-42) || m["R"] != 1.5 || m["T"] != true || m["F"] != false || string(m["D"].([]byte)) != "hello" {
		t.Errorf("got %#v", m)
	}
	if a := m["A"].([]any); len(a) != 2 || a[0] != "x" {
		t.Errorf("array %#v", a)
	}
	for _, bad := range []string{
		"bplist00xxxx",
		"<plist><dict><string>no key</string></dict></plist>",
		"<plist><integer>x</integer></plist>",
		"<plist><dict><key>a</key>",
		"<notplist/>",
		"<plist><blob/></plist>",
		"<plist>" + strings.Repeat("<array>", 100) + strings.Repeat("</array>", 100) + "</plist>",
	} {
		if _, err := parsePlist([]byte(bad)); err == nil {
			t.Errorf("parsePlist(%.40q) accepted", bad)
		}
	}
}

func TestParseListing(t *testing.T) {
	out := `7-Zip header
--
Path = x.dmg
Type = MBR
----
Path = 0.img
--
Path = 0.img
Type = Iso

----------
Path = a/b.metallib
Folder = -
Size = 12
Mode = -rw-r--r--
Symbolic Link = 

Path = a
Folder = +
Size = 
Mode = drwxr-xr-x

Path = l.dylib
Size = 0
Mode = lrwxrwxrwx
Symbolic Link = ../x

Path = w/tool
Size = 99
Attributes = A_ -rwxr-xr-x
`
	var got []entry
	var l listing
	if err := parseListing(strings.NewReader(out), 100, &l, func(e entry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(l.Types, ">") != "MBR>Iso" || len(got) != 4 {
		t.Fatalf("types %v, entries %+v", l.Types, got)
	}
	if got[0].Size != 12 || got[0].Folder || !got[1].Folder || !got[2].symlink() || got[3].Mode != "-rwxr-xr-x" {
		t.Errorf("entries %+v", got)
	}
	if err := parseListing(strings.NewReader(out), 2, &listing{}, func(entry) error { return nil }); err == nil {
		t.Error("entry cap not enforced")
	}
	if err := parseListing(strings.NewReader("----------\nPath = a\nSize = -5\n"), 10, &listing{}, func(entry) error { return nil }); err == nil {
		t.Error("negative size accepted")
	}
}

// TestRunKillsGroup runs a shell that leaves a grandchild sleeping and
// checks that the timeout kills the whole process group.
func TestRunKillsGroup(t *testing.T) {
	sh, err := findProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	z := &sevenZip{path: sh, timeout: 300 * time.Millisecond}
	start := time.Now()
	err = z.run(context.Background(), []string{"-c", "sleep 60 & echo $! > " + pidFile + "; wait"}, nil)
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStderrCap(t *testing.T) {
	sh, err := findProgram("sh")
	if err != nil {
		t.Skip("no sh")
	}
	z := &sevenZip{path: sh, timeout: 10 * time.Second}
	err = z.run(context.Background(), []string{"-c", "head -c 100000 /dev/zero | tr '\\0' e >&2; exit 2"}, nil)
	if err == nil || !strings.Contains(err.Error(), "more bytes]") || len(err.Error()) > maxStderr+200 {
		t.Fatalf("err (%d bytes) not capped: %.200s", len(err.Error()), err)
	}
}

func findProgram(name string) (string, error) { return find7z(name) }

func FuzzPlist(f *testing.F) {
	f.Add([]byte(`<plist><dict><key>a</key><array><integer>1</integer></array></dict></plist>`))
	if b, err := os.ReadFile("testdata/BuildManifest.plist"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parsePlist(data)
		if err == nil {
			manifestImages(v, true)
			restoreImages(v, true)
		}
	})
}

func FuzzListing(f *testing.F) {
	f.Add([]byte("----------\nPath = a/b.metallib\nSize = 12\nMode = -rw-r--r--\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseListing(strings.NewReader(string(data)), 1000, &listing{}, func(e entry) error {
			if e.Size < 0 {
				t.Fatalf("negative size %+v", e)
			}
			return nil
		})
	})
}
