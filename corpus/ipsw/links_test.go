package ipsw_test

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
)

// TestSymlinksResolveInImage plants symbolic links named like libraries
// in an ISO root filesystem: one absolute, reaching a file whose own name
// is no candidate (it is kept, under its own path), one climbing out of
// the image towards a host file and one dangling (both refused by name,
// nothing read from the host).
func TestSymlinksResolveInImage(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	lib := ipswtest.Library(t, "linked")
	root := ipswtest.Tree(t, map[string]ipswtest.Node{
		"System/Library/Data/shaders.bin":                        {Data: lib},
		"System/Library/Frameworks/A.framework/default.metallib": {Link: "/System/Library/Data/shaders.bin"},
		"System/Library/Frameworks/B.framework/escape.metallib":  {Link: "../../../../../../../../etc/hostname"},
		"System/Library/Frameworks/C.framework/dangling.dylib":   {Link: "libnothing.dylib"},
		"usr/share/notes.txt":                                    {Link: "/nowhere"},
	})
	p := ipswtest.WriteZip(t, "links.ipsw",
		ipswtest.ZipEntry{Name: "BuildManifest.plist", Data: ipswtest.BuildManifest("18.0", "22A1", ipswtest.Identity{Device: "d00ap", Behavior: "Erase", Images: map[string]string{"OS": "090-1-1.dmg"}})},
		ipswtest.ZipEntry{Name: "090-1-1.dmg", Data: ipswtest.ISOImage(t, root)})
	fw, err := ipsw.Open(context.Background(), p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range fw.Files() {
		files = append(files, f.Path)
		if b, _ := os.ReadFile(f.LocalPath); !bytes.Equal(b, lib) {
			t.Errorf("%s is not the library", f.Path)
		}
	}
	if want := []string{"System/Library/Data/shaders.bin"}; !reflect.DeepEqual(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
	got := map[string]string{}
	for _, pr := range fw.Problems() {
		got[pr.Path] = pr.Code
	}
	want := map[string]string{
		"System/Library/Frameworks/B.framework/escape.metallib": ipsw.CodeLinkUnresolved,
		"System/Library/Frameworks/C.framework/dangling.dylib":  ipsw.CodeLinkUnresolved,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", fw.Problems(), want)
	}
	var links []string
	for _, l := range fw.Links() {
		links = append(links, l.Path+" -> "+l.Target+" = "+l.Resolved)
	}
	sort.Strings(links)
	wantLinks := []string{
		"System/Library/Frameworks/A.framework/default.metallib -> /System/Library/Data/shaders.bin = System/Library/Data/shaders.bin",
		"System/Library/Frameworks/B.framework/escape.metallib -> ../../../../../../../../etc/hostname = ",
		"System/Library/Frameworks/C.framework/dangling.dylib -> libnothing.dylib = ",
	}
	if !reflect.DeepEqual(links, wantLinks) {
		t.Errorf("links\n%q\nwant\n%q", links, wantLinks)
	}
}
