package cpuref

import (
	"archive/tar"
	"bytes"
	"compress/bzip2"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/corpustest"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

// sourceSamplerDecls returns the constexpr sampler declarations of a
// library's embedded source (every file of every SARC archive), each with
// its whitespace collapsed, up to its semicolon.
func sourceSamplerDecls(src *mtlb.Source) []string {
	var out []string
	for _, a := range src.Archives {
		tr := tar.NewReader(io.LimitReader(bzip2.NewReader(bytes.NewReader(a.Compressed)), mtlb.MaxSourceArchiveBytes))
		for {
			if _, err := tr.Next(); err != nil {
				break
			}
			b, _ := io.ReadAll(tr)
			s := string(b)
			for {
				i := strings.Index(s, "constexpr sampler ")
				if i < 0 {
					break
				}
				s = s[i:]
				end := strings.IndexByte(s, ';')
				if end < 0 {
					end = len(s)
				}
				out = append(out, strings.Join(strings.Fields(s[:end]), " "))
				s = s[end:]
			}
		}
	}
	return out
}

// moduleSamplerWords are the constexpr sampler words one module's text holds.
func moduleSamplerWords(ll string) []uint64 {
	var out []uint64
	for _, l := range strings.Split(ll, "\n") {
		if m := samplerGlobal.FindStringSubmatch(l); m != nil {
			if v, err := strconv.ParseInt(m[2], 10, 64); err == nil {
				out = append(out, uint64(v))
			}
		}
		for _, m := range samplerIntToPt.FindAllStringSubmatch(l, -1) {
			if v, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				out = append(out, uint64(v))
			}
		}
	}
	return out
}

// TestSamplerEvidenceCorpus re-derives SamplerEvidence from the corpus
// (AIRPIPE_CORPUS, and AIRPIPE_SAMPLER_CORPUS=1: it disassembles every module
// of every library that embeds its source). For each such library, the
// declarations its source holds and the words its modules carry must be the
// same set of samplers: each declaration parsed (parseSamplerDecl), each word
// decoded (DecodeSampler). Every word beside a declaration must be in
// SamplerEvidence, and every evidence pair must be seen.
func TestSamplerEvidenceCorpus(t *testing.T) {
	root := corpustest.Root(t)
	if os.Getenv("AIRPIPE_SAMPLER_CORPUS") == "" {
		t.Skip("AIRPIPE_SAMPLER_CORPUS is not set: pairing the corpus's declarations with their words takes a minute")
	}
	needTools(t)
	var libs []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".metallib") {
			libs = append(libs, p)
		}
		return nil
	})
	sort.Strings(libs)
	evidence := map[uint64]string{}
	for _, e := range SamplerEvidence {
		evidence[e.Word] = e.Declaration
	}
	seen := map[uint64]int{}
	withSource := 0
	for _, p := range libs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("HSRC")) && !bytes.Contains(data, []byte("HSRD")) {
			continue
		}
		lib, err := mtlb.ParseWith(data, mtlb.Options{SkipArchiveListing: true})
		if err != nil || lib.Source == nil {
			continue
		}
		withSource++
		decls := map[SamplerState]string{}
		for _, d := range sourceSamplerDecls(lib.Source) {
			s, ok := parseSamplerDecl(d)
			if !ok {
				t.Errorf("%s: cannot parse %q", filepath.Base(p), d)
				continue
			}
			decls[s] = d
		}
		words := map[uint64]bool{}
		for i := range lib.Functions {
			bc, err := lib.Functions[i].RawBitcode()
			if err != nil {
				continue
			}
			cmd := exec.Command("llvm-dis-19", "-o", "-", "-")
			cmd.Stdin = bytes.NewReader(bc)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: llvm-dis-19: %v", p, lib.Functions[i].Name, err)
			}
			for _, w := range moduleSamplerWords(string(out)) {
				words[w] = true
			}
		}
		decoded := map[SamplerState]bool{}
		for w := range words {
			s, err := DecodeSampler(w)
			if err != nil {
				t.Errorf("%s: word %#016x beside declarations %v does not decode: %v", filepath.Base(p), w, decls, err)
				continue
			}
			s.Word = 0
			decoded[s] = true
			seen[w]++
			if _, ok := decls[s]; !ok {
				t.Errorf("%s: word %#016x decodes to %+v, which no declaration of its source says (%v)", filepath.Base(p), w, s, decls)
			}
			if evidence[w] == "" {
				t.Errorf("%s: word %#016x is not in SamplerEvidence", filepath.Base(p), w)
			}
		}
		for s, d := range decls {
			if !decoded[s] && len(words) > 0 {
				t.Errorf("%s: %q declares %+v, which none of the library's words decodes to", filepath.Base(p), d, s)
			}
		}
	}
	for _, e := range SamplerEvidence {
		if seen[e.Word] == 0 {
			t.Errorf("evidence %#016x (%s) is not in the corpus", e.Word, e.Declaration)
		}
	}
	t.Logf("%d libraries embed their source; evidence words seen in %v libraries", withSource, seen)
}
