package ipsw_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
)

// truth is the ground truth of one fixture: sha256 and size per file
// (path below the volume root), symbolic-link targets, and the files
// refused on purpose (path -> code).
type truth struct {
	files   map[string]truthFile
	links   map[string]string
	refused map[string]string
}

type truthFile struct {
	sha  string
	size int64
}

// goapfsv2Truth reads a goapfsv2 manifest.json.
func goapfsv2Truth(t *testing.T, name string) truth {
	b, err := os.ReadFile(filepath.Join(ipswtest.FixturesDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Files map[string]struct {
			Type, SHA256, Target string
			Size                 int64
		}
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	tr := truth{files: map[string]truthFile{}, links: map[string]string{}}
	for p, f := range m.Files {
		switch f.Type {
		case "file":
			tr.files[p] = truthFile{f.SHA256, f.Size}
		case "symlink":
			tr.links[p] = f.Target
		default:
			t.Fatalf("%s: %s: type %q", name, p, f.Type)
		}
	}
	return tr
}

// secroninTruth reads the secronin expected TSV.
func secroninTruth(t *testing.T) truth {
	b, err := os.ReadFile(filepath.Join(ipswtest.FixturesDir(t), "apfs__secronin_apfs_content.expected.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	tr := truth{files: map[string]truthFile{}, links: map[string]string{}}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 {
			continue
		}
		p := strings.TrimPrefix(f[0], "/")
		if f[2] == "-" {
			tr.links[p] = strings.TrimPrefix(f[3], "symlink -> ")
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		tr.files[p] = truthFile{f[2], n}
	}
	return tr
}

// listedEntry is one entry of the test's own 7z listing, the oracle of
// what the image holds.
type listedEntry struct {
	path, mode string
	folder     bool
}

func list7z(t *testing.T, image string) []listedEntry {
	out, _ := exec.Command("7z", "l", "-slt", "-sccUTF-8", image).Output() // exit 2 for damaged images
	var es []listedEntry
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if line == "----------" {
			in = true
			continue
		}
		if !in {
			continue
		}
		k, v, _ := strings.Cut(line, " = ")
		switch k {
		case "Path":
			es = append(es, listedEntry{path: v})
		case "Folder":
			es[len(es)-1].folder = v == "+"
		case "Mode":
			es[len(es)-1].mode = v
			if strings.HasPrefix(v, "d") {
				es[len(es)-1].folder = true
			}
		}
	}
	return es
}

// TestFixtureImages opens every disk image of the shared fixtures as the
// root filesystem of an .ipsw (zip > image > partition map > file system >
// files), keeping every file (Options.AllFiles), and checks that every
// entry 7-Zip lists is accounted for (a file with its content, a symbolic
// link with its stored target, or a problem naming it) and that every
// file matches the ground-truth manifests where they exist. 7-Zip's
// defects show here: without the guards sparse.bin would carry the wrong
// sha256 and the HFS+ hard links would be empty.
func TestFixtureImages(t *testing.T) {
	ipswtest.FixturesDir(t)
	ipswtest.Need(t, "7z", "p7zip-full")
	apfsBasic := goapfsv2Truth(t, "apfs__goapfsv2_basic.manifest.json")
	hfsBasic := goapfsv2Truth(t, "udif__goapfsv2_hfs_basic.manifest.json")
	secronin := secroninTruth(t)
	secronin.refused = map[string]string{"sparse.bin": ipsw.CodeSparseHole}
	keramicsLinks := map[string]string{
		"file_symboliclink1":      "/Volumes/hfsplus_test/testdir1/testfile1",
		"file_symboliclink2":      "/Volumes/hfsplus_test/forward:slash",
		"directory_symboliclink1": "/Volumes/hfsplus_test/testdir1",
	}
	for _, tc := range []struct {
		name string
		// format is the chain 7-Zip opens; files the regular files kept.
		format   string
		files    int
		truth    *truth
		problems []string
		links    map[string]string
		// hardLinks lists files that are HFS+ hard links (resolved to
		// their inode file).
		hardLinks []string
	}{
		{name: "apfs__dfvfs_apfs.raw", format: "APFS", files: 7},
		{name: "apfs__secronin_apfs_content.bin", format: "APFS", files: 6, truth: &secronin,
			problems: []string{ipsw.CodeImageDamaged, ipsw.CodeSparseHole, ipsw.CodeExtractFailed}},
		{name: "apfs__4n6mount_apfs.img.gz", format: "APFS", files: 2},
		{name: "apfs__goapfsv2_basic_udzo.dmg", format: "Dmg>APFS", files: 10, truth: &apfsBasic},
		{name: "apfs__goapfsv2_basic_ulfo.dmg", format: "Dmg>APFS", files: 10, truth: &apfsBasic},
		{name: "apfs__goapfsv2_basic_udbz.dmg", format: "Dmg>APFS", files: 10, truth: &apfsBasic},
		{name: "apfs__goapfsv2_encrypted.img.gz", problems: []string{ipsw.CodeEncryptedVolume}},
		{name: "apfs__hdimac_apfs_udzo.dmg", format: "Dmg>APFS", files: 3},
		{name: "apfs__hdimac_apfs_casesensitive_udzo.dmg", format: "Dmg>APFS", files: 3},
		{name: "hfs__dfvfs_hfsplus.raw.gz", format: "HFS", files: 7},
		{name: "hfs__4n6mount_hfsplus.img", format: "HFS", files: 2},
		{name: "hfs__gofs_hfsplus.hfs.gz", format: "HFS", files: 6},
		{name: "hfs__goapfsv2_hfs_apm.img.gz", format: "APM>HFS", files: 1},
		{name: "hfs__hdimac_hfsx_udzo.dmg", format: "Dmg>HFS", files: 3},
		{name: "hfs__hdimac_hfsx_journaled_udzo.dmg", format: "Dmg>HFS", files: 5},
		{name: "udif__dfvfs_hfsplus_udzo.dmg", format: "Dmg>HFS", files: 4},
		{name: "udif__goapfsv2_hfs_basic_udzo.dmg", format: "Dmg>HFS", files: 11, truth: &hfsBasic,
			hardLinks: []string{"hardlink-to-hello", "hello.txt"}},
		{name: "udif__dmgforensic_hfsplus_udro.dmg", format: "Dmg>HFS", files: 0},
		{name: "udif__keramics_hfsplus_udco_adc.dmg", format: "Dmg>HFS", files: 13, links: keramicsLinks, hardLinks: []string{"file_hardlink1", "testdir1/testfile1"}},
		{name: "udif__keramics_hfsplus_udbz.dmg", format: "Dmg>HFS", files: 13, links: keramicsLinks, hardLinks: []string{"file_hardlink1", "testdir1/testfile1"}},
		{name: "udif__keramics_hfsplus_ulfo.dmg", format: "Dmg>HFS", files: 13, links: keramicsLinks, hardLinks: []string{"file_hardlink1", "testdir1/testfile1"}},
		{name: "udif__keramics_hfsplus_ulmo.dmg", format: "Dmg>HFS", files: 13, links: keramicsLinks, hardLinks: []string{"file_hardlink1", "testdir1/testfile1"}},
		{name: "udif__keramics_hfsplus_udzo.dmg", format: "Dmg>HFS", files: 13, links: keramicsLinks, hardLinks: []string{"file_hardlink1", "testdir1/testfile1"}},
		{name: "udif__nodeudif_mbr_fat_raw.dmg", format: "Dmg", files: 5, problems: []string{ipsw.CodePartitionUnopened}},
		{name: "udif__nodeudif_mbr_fat_adc.dmg", format: "Dmg", files: 5, problems: []string{ipsw.CodePartitionUnopened}},
		{name: "udif__nodeudif_mbr_fat_bz2.dmg", format: "Dmg", files: 5, problems: []string{ipsw.CodePartitionUnopened}},
		{name: "udif__nodeudif_mbr_fat_lzfse.dmg", format: "Dmg", files: 5, problems: []string{ipsw.CodePartitionUnopened}},
		{name: "udif__nodeudif_mbr_fat_zlib.dmg", format: "Dmg", files: 5, problems: []string{ipsw.CodePartitionUnopened}},
		{name: "udif__nodeudif_gpt_hfsplus_udzo.dmg", format: "Dmg>HFS", files: 8},
		{name: "udif__nodeudif_apm_hfsplus_udzo.dmg", format: "Dmg>HFS", files: 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := ipswtest.FixtureImage(t, tc.name)
			raw := filepath.Join(t.TempDir(), strings.TrimSuffix(tc.name, ".gz"))
			if err := os.WriteFile(raw, img, 0o644); err != nil {
				t.Fatal(err)
			}
			const imgName = "090-00001-001.dmg"
			p := ipswtest.WriteZip(t, "fixture.ipsw",
				ipswtest.ZipEntry{Name: "BuildManifest.plist", Data: ipswtest.BuildManifest("18.0", "22A1", ipswtest.Identity{Device: "d00ap", Behavior: "Erase", Images: map[string]string{"OS": imgName}})},
				ipswtest.ZipEntry{Name: imgName, Data: img})
			fw, err := ipsw.OpenWith(context.Background(), p, t.TempDir(), ipsw.Options{AllFiles: true})
			if err != nil {
				t.Fatal(err)
			}
			ims := fw.Images()
			if len(ims) != 1 || ims[0].Format != tc.format || ims[0].Role != "rootfs" {
				t.Errorf("images %+v, want one rootfs of format %q", ims, tc.format)
			}
			var codes []string
			refused := map[string]string{}
			for _, pr := range fw.Problems() {
				codes = append(codes, pr.Code)
				if pr.Path != "" {
					refused[pr.Path] = pr.Code
				}
			}
			sort.Strings(codes)
			want := append([]string(nil), tc.problems...)
			sort.Strings(want)
			if strings.Join(codes, " ") != strings.Join(want, " ") {
				t.Errorf("problems %v, want codes %v", fw.Problems(), want)
			}
			files := map[string]ipsw.File{}
			for _, f := range fw.Files() {
				files[f.Path] = f
				if f.Provenance != p+"!/"+imgName+"!/"+f.Path {
					t.Errorf("provenance %q", f.Provenance)
				}
				checkObject(t, f)
			}
			if len(files) != tc.files {
				var names []string
				for p := range files {
					names = append(names, p)
				}
				sort.Strings(names)
				t.Errorf("%d files kept, want %d: %q", len(files), tc.files, names)
			}
			links := map[string]ipsw.Link{}
			for _, l := range fw.Links() {
				links[l.Path] = l
			}
			// Every entry 7-Zip lists is accounted for.
			root := ""
			for _, e := range list7z(t, raw) {
				switch {
				case e.folder:
				case strings.HasPrefix(e.mode, "l"):
					if _, ok := links[e.path]; !ok {
						t.Errorf("symbolic link %s not recorded", e.path)
					}
				default:
					_, kept := files[e.path]
					_, bad := refused[e.path]
					if !kept && !bad {
						t.Errorf("listed file %s neither kept nor refused", e.path)
					}
				}
				if strings.HasPrefix(tc.format, "Dmg>HFS") || strings.HasSuffix(tc.format, "HFS") {
					root, _, _ = strings.Cut(e.path, "/")
				}
			}
			rel := func(p string) string {
				if root != "" {
					return strings.TrimPrefix(p, root+"/")
				}
				return p
			}
			for _, h := range tc.hardLinks {
				if f, ok := files[root+"/"+h]; !ok || f.Size == 0 {
					t.Errorf("hard link %s: %+v, want the inode's content", h, f)
				}
			}
			for p, target := range tc.links {
				if l := links[root+"/"+p]; l.Target != target || l.Resolved != "" {
					t.Errorf("link %s: %+v, want stored target %q, unresolved in the image", p, l, target)
				}
			}
			if tc.truth == nil {
				return
			}
			for p, want := range tc.truth.files {
				full := p
				if root != "" {
					full = root + "/" + p
				}
				if code := tc.truth.refused[p]; code != "" {
					if refused[full] != code {
						t.Errorf("%s: refused as %q, want %q", p, refused[full], code)
					}
					if _, kept := files[full]; kept {
						t.Errorf("%s kept, want refused", p)
					}
					continue
				}
				f, ok := files[full]
				if !ok {
					t.Errorf("%s: not kept (problem %q)", p, refused[full])
					continue
				}
				if f.SHA256 != want.sha || f.Size != want.size {
					t.Errorf("%s: sha256 %s size %d, want %s size %d", p, f.SHA256, f.Size, want.sha, want.size)
				}
			}
			for p, target := range tc.truth.links {
				l, ok := links[pathIn(root, p)]
				if !ok || l.Target != target || rel(l.Resolved) != target {
					t.Errorf("link %s: %+v, want target %q resolved in the image", p, l, target)
				}
			}
		})
	}
}

func pathIn(root, p string) string {
	if root == "" {
		return p
	}
	return root + "/" + p
}

// checkObject re-hashes a kept file's cache object.
func checkObject(t *testing.T, f ipsw.File) {
	t.Helper()
	b, err := os.ReadFile(f.LocalPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(b)) != f.Size {
		t.Errorf("%s: object does not match its digest", f.Path)
	}
}
