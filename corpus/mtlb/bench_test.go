package mtlb

import (
	"os"
	"testing"
)

// benchParse parses every library b.N times over, reporting MB/s. With
// verify it also checks each function's SHA-256, as the container stage does.
func benchParse(b *testing.B, libs [][]byte, verify bool, opt Options) {
	var total int64
	for _, l := range libs {
		total += int64(len(l))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, data := range libs {
			lib, err := ParseWith(data, opt)
			if err != nil {
				b.Fatal(err)
			}
			if verify {
				for i := range lib.Functions {
					if !lib.Functions[i].HashMatches() {
						b.Fatal("hash mismatch")
					}
				}
			}
		}
	}
}

// BenchmarkParseCorpus parses the real corpus ($AIRPIPE_CORPUS).
func BenchmarkParseCorpus(b *testing.B) {
	dir := corpusDir(b)
	var libs [][]byte
	for _, e := range readManifest(b, dir) {
		data, err := os.ReadFile(e.path)
		if err != nil {
			b.Fatal(err)
		}
		libs = append(libs, data)
	}
	b.Run("parse", func(b *testing.B) { benchParse(b, libs, false, Options{}) })
	b.Run("parse+sha256", func(b *testing.B) { benchParse(b, libs, true, Options{}) })
	b.Run("parse-no-archive-listing", func(b *testing.B) { benchParse(b, libs, false, Options{SkipArchiveListing: true}) })
}

// generatedFunctions is the size of the generated library set.
const generatedFunctions = 16841

// generatedSet writes libraries of 1 to 24 functions (cycling) totalling
// generatedFunctions, with module sizes cycling from 1 KiB to 8 KiB.
func generatedSet(b *testing.B) [][]byte {
	var libs [][]byte
	n := 0
	for k := 0; n < generatedFunctions; k++ {
		count := min(1+k%24, generatedFunctions-n)
		spec := &Spec{Platform: PlatformMacOS, FormatMajor: 2, FormatMinor: 7, TargetOS: 0x81, OSMajor: 14}
		for i := range count {
			raw := make([]byte, 1024*(1+(n+i)%8))
			copy(raw, rawMagic)
			raw[4], raw[5] = byte(k), byte(i)
			spec.Functions = append(spec.Functions, SpecFunction{Name: "fn", Type: uint8(i % 3), Bitcode: raw, AIRMajor: 2, AIRMinor: 6})
		}
		data, err := Marshal(spec)
		if err != nil {
			b.Fatal(err)
		}
		libs = append(libs, data)
		n += count
	}
	return libs
}

// BenchmarkParseGenerated parses a generated set of 16,841 functions.
func BenchmarkParseGenerated(b *testing.B) {
	libs := generatedSet(b)
	b.Run("parse", func(b *testing.B) { benchParse(b, libs, false, Options{}) })
	b.Run("parse+sha256", func(b *testing.B) { benchParse(b, libs, true, Options{}) })
}
