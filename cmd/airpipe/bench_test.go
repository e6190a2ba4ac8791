package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airpipe/airpipe/corpus/corpustest"
	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

// generatedFirmware packs the distinct modules of the real corpus into 134
// libraries holding 16,841 functions in all (the size of seed 003's full
// IPSW), so identical bitcode recurs across libraries as it does there.
func generatedFirmware(b *testing.B) string {
	b.Helper()
	var mods [][]byte
	for _, f := range corpustest.Functions(b) {
		mods = append(mods, f.Bitcode)
	}
	out := b.TempDir()
	const libs, total = 134, 16841
	n := 0
	for l := range libs {
		per := total / libs
		if l < total%libs {
			per++
		}
		spec := &mtlb.Spec{Platform: mtlb.PlatformIOS, FormatMajor: 1, FormatMinor: 2, TargetOS: 0x82, OSMajor: 16, OSMinor: 5}
		for i := range per {
			spec.Functions = append(spec.Functions, mtlb.SpecFunction{Name: fmt.Sprintf("f%d_%d", l, i), Type: mtlb.FunctionFragment,
				Bitcode: mods[n%len(mods)], AIRMajor: 2, AIRMinor: 6, LangMajor: 3})
			n++
		}
		data, err := mtlb.Marshal(spec)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("lib%03d.metallib", l)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkRunColdWarm: a cold run over a generated firmware of 16,841
// functions in 134 libraries, then a warm rerun with the cache; reports
// both times and their ratio (goal: warm < 5 s).
func BenchmarkRunColdWarm(b *testing.B) {
	fw := generatedFirmware(b)
	var cold, warm time.Duration
	for b.Loop() {
		cache := b.TempDir()
		for i, d := range []*time.Duration{&cold, &warm} {
			start := time.Now()
			if code := run([]string{"run", "--out", b.TempDir(), "--progress", "none", "--cache", cache, fw}, io.Discard, io.Discard); code != 0 {
				b.Fatalf("run %d: exit %d", i, code)
			}
			*d += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(cold.Seconds()/n, "cold-s")
	b.ReportMetric(warm.Seconds()/n, "warm-s")
	b.ReportMetric(float64(cold)/float64(warm), "cold/warm")
}

// BenchmarkContainerOnly: the container stage alone over the same firmware
// (libraries/s and MB/s through the whole engine).
func BenchmarkContainerOnly(b *testing.B) {
	fw := generatedFirmware(b)
	var bytes int64
	entries, _ := os.ReadDir(fw)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			bytes += info.Size()
		}
	}
	b.SetBytes(bytes)
	for b.Loop() {
		if code := run([]string{"run", "--out", b.TempDir(), "--progress", "none", "--no-cache", "--stages", "container", fw}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(len(entries))*float64(b.N)/b.Elapsed().Seconds(), "libraries/s")
}

// BenchmarkFirmwareExtractVsStages: the generated firmware (134 libraries,
// 16,841 functions) packed as the root filesystem of an .ipsw (squashfs in
// a zip with a BuildManifest); reports the cold run's time, the part of it
// spent extracting (ipsw.Open with an empty cache), and a warm rerun
// (extraction and stage caches both warm).
func BenchmarkFirmwareExtractVsStages(b *testing.B) {
	fw := generatedFirmware(b)
	nodes := map[string]ipswtest.Node{}
	entries, _ := os.ReadDir(fw)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(fw, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		nodes["System/Library/Shaders/"+e.Name()] = ipswtest.Node{Data: data}
	}
	image := ipswtest.SquashImage(b, ipswtest.Tree(b, nodes))
	ipswPath := ipswtest.WriteZip(b, "gen.ipsw",
		ipswtest.ZipEntry{Name: "BuildManifest.plist", Data: ipswtest.Manifest()},
		ipswtest.ZipEntry{Name: "078-12345-001.dmg", Data: image, Store: true})
	var extract, cold, warm time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := ipsw.Open(b.Context(), ipswPath, b.TempDir()); err != nil {
			b.Fatal(err)
		}
		extract += time.Since(start)
		fwCache, stageCache := b.TempDir(), b.TempDir()
		for _, d := range []*time.Duration{&cold, &warm} {
			start := time.Now()
			args := []string{"run", "--out", b.TempDir(), "--progress", "none", "--cache", stageCache, "--firmware-cache", fwCache, ipswPath}
			if code := run(args, io.Discard, io.Discard); code != 0 {
				b.Fatalf("exit %d", code)
			}
			*d += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(cold.Seconds()/n, "cold-s")
	b.ReportMetric(extract.Seconds()/n, "extract-s")
	b.ReportMetric(float64(extract)/float64(cold), "extract/cold")
	b.ReportMetric(warm.Seconds()/n, "warm-s")
}
