package ipsw_test

import (
	"context"
	"fmt"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
	"testing"

	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/macho/machotest"
)

// BenchmarkOpen opens a squashfs firmware of 134 libraries, 100 Mach-O
// binaries and 2000 other files: cold (empty cache, 7-Zip extracts) and
// warm (everything cached).
func BenchmarkOpen(b *testing.B) {
	ipswtest.Need(b, "7z", "p7zip-full")
	nodes := map[string]ipswtest.Node{}
	for i := range 134 {
		nodes[fmt.Sprintf("System/Library/Frameworks/F%d.framework/default.metallib", i)] = ipswtest.Node{Data: ipswtest.Library(b, fmt.Sprintf("k%d", i))}
	}
	for i := range 100 {
		nodes[fmt.Sprintf("usr/libexec/d%d", i)] = ipswtest.Node{Data: machotest.Thin(machotest.CPUARM64, machotest.SubARM64E, 0, machotest.Section{Segment: "__TEXT", Name: "__text", Data: make([]byte, 64<<10)}), Mode: 0o755}
	}
	for i := range 2000 {
		nodes[fmt.Sprintf("usr/share/doc/%d/README", i)] = ipswtest.Node{Data: []byte(fmt.Sprint("text ", i))}
	}
	p := ipswtest.WriteZip(b, "bench.ipsw", ipswtest.ZipEntry{Name: "078-1.dmg", Data: ipswtest.SquashImage(b, ipswtest.Tree(b, nodes))})
	open := func(dir string) *ipsw.Firmware {
		fw, err := ipsw.Open(context.Background(), p, dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(fw.Files()) != 234 {
			b.Fatalf("%d files, problems %v", len(fw.Files()), fw.Problems())
		}
		return fw
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			open(b.TempDir())
		}
	})
	b.Run("warm", func(b *testing.B) {
		dir := b.TempDir()
		open(dir)
		for b.Loop() {
			if !open(dir).Images()[0].Cached {
				b.Fatal("not cached")
			}
		}
	})
}
