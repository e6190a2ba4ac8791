package ipsw

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Options tunes OpenWith. Zero fields take the defaults given.
type Options struct {
	// SevenZip is the 7-Zip program (default "7z", looked up in PATH).
	SevenZip string
	// Timeout bounds each 7-Zip run (default 30 minutes).
	Timeout time.Duration
	// MaxImageBytes refuses larger disk images (default 64 GiB).
	MaxImageBytes int64
	// MaxRatio refuses zip entries over 1 MiB inflating more than this many
	// times their compressed size (default 1000).
	MaxRatio int64
	// MaxExtractBytes caps the files selected in one image (default 64 GiB):
	// both the sizes the image lists and the bytes 7-Zip actually writes,
	// measured while it runs (it is killed past the cap).
	MaxExtractBytes int64
	// MaxEntries caps the entries listed in one image (default 10,000,000).
	MaxEntries int
	// IncludeRamdisks also reads restore and update ramdisks.
	IncludeRamdisks bool
	// AllFiles keeps every regular file of every image, whatever Candidate
	// and Holds say, and records every symbolic link: for checking an
	// extraction against ground truth, not for finding shaders.
	AllFiles bool
}

func (o *Options) defaults() {
	if o.SevenZip == "" {
		o.SevenZip = "7z"
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Minute
	}
	if o.MaxImageBytes <= 0 {
		o.MaxImageBytes = 64 << 30
	}
	if o.MaxRatio <= 0 {
		o.MaxRatio = 1000
	}
	if o.MaxExtractBytes <= 0 {
		o.MaxExtractBytes = 64 << 30
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = 10_000_000
	}
}

// File is one extracted file that may hold shaders.
type File struct {
	// LocalPath is the file in the cache (read-only; shared by every file
	// with the same content).
	LocalPath string
	// Provenance names every layer: "<ipsw>!/<image>!/<path in image>".
	Provenance string
	// Image is the disk image's name in the zip; Role what it holds.
	Image, Role string
	// Path is the file's path inside the image.
	Path   string
	Size   int64
	SHA256 string
}

// Link is one symbolic link inside an image, resolved against the image
// root (never the host).
type Link struct {
	// Image is the disk image's name in the zip.
	Image string `json:"image,omitempty"`
	// Path is the link's path inside the image; Target what it stores.
	Path   string `json:"path"`
	Target string `json:"target"`
	// Resolved is the image path of the regular file the link reaches,
	// "" when it reaches none.
	Resolved string `json:"resolved,omitempty"`
}

// Image is one disk image the manifest names.
type Image struct {
	Name, Role string
	// Size is the image's uncompressed size.
	Size int64
	// Format is the chain of formats 7-Zip opened ("Iso", "MBR>Iso").
	Format string
	// Cached is true when the files came from the cache, unextracted.
	Cached bool
	// Files counts the files kept.
	Files int
}

// Firmware is an opened .ipsw: its images, the files extracted from them
// and the problems met.
type Firmware struct {
	// Path is the .ipsw path as given to Open.
	Path string
	// Version and Build are the manifest's ProductVersion and
	// ProductBuildVersion, when present.
	Version, Build string

	images   []Image
	files    []File
	links    []Link
	problems []Problem
}

// Files returns the extracted files, sorted by provenance.
func (fw *Firmware) Files() []File { return fw.files }

// Links returns the symbolic links recorded (those named like candidates,
// or all with Options.AllFiles), in image order.
func (fw *Firmware) Links() []Link { return fw.links }

// Images returns the disk images read, sorted by name.
func (fw *Firmware) Images() []Image { return fw.images }

// Problems returns what was refused or failed, in the order met.
func (fw *Firmware) Problems() []Problem { return fw.problems }

// Open reads the .ipsw at ipswPath with default options, extracting into
// (or reusing) the content-addressed cache under cacheDir.
func Open(ctx context.Context, ipswPath, cacheDir string) (*Firmware, error) {
	return OpenWith(ctx, ipswPath, cacheDir, Options{})
}

// OpenWith is Open with options. It fails as a whole only when 7-Zip is
// missing, the .ipsw is not a readable zip, the cache cannot be written or
// ctx ends; every image-level failure is a Problem.
func OpenWith(ctx context.Context, ipswPath, cacheDir string, opt Options) (*Firmware, error) {
	opt.defaults()
	sz, err := find7z(opt.SevenZip)
	if err != nil {
		return nil, err
	}
	c, err := newCache(cacheDir)
	if err != nil {
		return nil, err
	}
	zr, err := zip.OpenReader(ipswPath)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, errorf(CodeBadIPSW, err, "%s is not a readable zip", ipswPath)
	}
	defer zr.Close()
	o := &opener{ctx: ctx, opt: opt, cache: c, z: &sevenZip{path: sz, timeout: opt.Timeout},
		fw: &Firmware{Path: ipswPath}, entries: map[string]*zip.File{}, verified: map[string]bool{}}
	for _, f := range zr.File {
		if why := unsafeName(f.Name); why != "" {
			o.problem(Problem{Code: CodeUnsafePath, Path: f.Name, Msg: "zip entry refused: " + why})
			continue
		}
		o.entries[f.Name] = f
	}
	for _, ref := range o.images() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := o.image(ref); err != nil {
			return nil, err
		}
	}
	sort.Slice(o.fw.files, func(i, j int) bool { return o.fw.files[i].Provenance < o.fw.files[j].Provenance })
	return o.fw, nil
}

// opener holds the state of one OpenWith.
type opener struct {
	ctx     context.Context
	opt     Options
	cache   *cache
	z       *sevenZip
	fw      *Firmware
	entries map[string]*zip.File
	// verified names the objects whose content was checked in this Open.
	verified map[string]bool
}

func (o *opener) problem(p Problem) { o.fw.problems = append(o.fw.problems, p) }

// maxManifest caps the manifest bytes read.
const maxManifest = 64 << 20

// images names the disk images to read, from BuildManifest.plist, else
// Restore.plist, else every top-level .dmg (with a CodeNoManifest problem).
func (o *opener) images() []imageRef {
	var why []string
	for _, m := range []struct {
		name string
		list func(any, bool) []imageRef
	}{{"BuildManifest.plist", manifestImages}, {"Restore.plist", restoreImages}} {
		f, ok := o.entries[m.name]
		if !ok {
			why = append(why, m.name+" absent")
			continue
		}
		root, err := readPlist(f)
		if err != nil {
			why = append(why, m.name+": "+err.Error())
			continue
		}
		if o.fw.Version == "" {
			o.fw.Version, o.fw.Build = manifestVersion(root)
		}
		if refs := m.list(root, o.opt.IncludeRamdisks); len(refs) > 0 {
			return refs
		}
		why = append(why, m.name+" names no disk image")
	}
	var refs []imageRef
	for name := range o.entries {
		if !strings.Contains(name, "/") && diskImage(name) {
			refs = append(refs, imageRef{Name: name, Role: "unknown"})
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name < refs[j].Name })
	o.problem(Problem{Code: CodeNoManifest, Msg: strings.Join(why, "; ") + fmt.Sprintf("; reading all %d top-level .dmg entries", len(refs))})
	return refs
}

func readPlist(f *zip.File) (any, error) {
	if f.UncompressedSize64 > maxManifest {
		return nil, fmt.Errorf("%d bytes, over the %d-byte cap", f.UncompressedSize64, maxManifest)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxManifest+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxManifest {
		return nil, fmt.Errorf("inflates past the %d-byte cap", maxManifest)
	}
	return parsePlist(b)
}

// image reads one disk image into files or problems. Only a failure of the
// cache or ctx is returned.
func (o *opener) image(ref imageRef) error {
	im := Image{Name: ref.Name, Role: ref.Role}
	defer func() { o.fw.images = append(o.fw.images, im) }()
	bad := func(code, msg string) error {
		o.problem(Problem{Code: code, Image: ref.Name, Msg: msg})
		return nil
	}
	if why := unsafeName(ref.Name); why != "" {
		return bad(CodeUnsafePath, "manifest names an unusable image path: "+why)
	}
	f, ok := o.entries[ref.Name]
	if !ok {
		return bad(CodeImageMissing, "named by the manifest ("+ref.Role+") but absent from the zip")
	}
	im.Size = int64(f.UncompressedSize64)
	if f.UncompressedSize64 > uint64(o.opt.MaxImageBytes) {
		return bad(CodeImageTooLarge, fmt.Sprintf("%d bytes, over the %d-byte cap", f.UncompressedSize64, o.opt.MaxImageBytes))
	}
	if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64/max(f.CompressedSize64, 1) > uint64(o.opt.MaxRatio) {
		return bad(CodeDecompressionBomb, fmt.Sprintf("%d bytes from %d compressed, over the %d:1 ratio cap", f.UncompressedSize64, f.CompressedSize64, o.opt.MaxRatio))
	}
	if enc, err := encrypted(f); err != nil {
		return bad(CodeImageUnreadable, "reading the zip entry: "+err.Error())
	} else if enc {
		return bad(CodeEncryptedImage, "Apple Encrypted Archive (AEA1, iOS 18 and later): reading it needs the archive's decryption key (for firmware, fetched from the Apple key server its authentication data names) and an AEA decoder, neither of which airpipe has")
	}
	// The key is the content's: the bytes are hashed as they inflate, so
	// a forged or colliding CRC-32 never selects another image's index.
	sum, code, err := o.hashEntry(f)
	if err != nil {
		if code == "" {
			return err
		}
		return bad(code, err.Error())
	}
	key := imageKey(sum, o.opt.AllFiles)
	if ix, ok := o.cache.load(key, o.verified); ok {
		im.Cached = true
		im.Format = strings.Join(ix.Format, ">")
		o.adoptIndex(ref, ix, &im)
		return nil
	}
	ix, got, cacheable, err := o.extract(ref, f)
	if err != nil {
		if o.ctx.Err() != nil {
			return o.ctx.Err()
		}
		var fatal *cacheError
		if errors.As(err, &fatal) {
			return fatal.err
		}
		return nil // the problem is recorded
	}
	im.Format = strings.Join(ix.Format, ">")
	o.adoptIndex(ref, ix, &im)
	if !cacheable {
		return nil
	}
	// Stored under the hash of the bytes 7-Zip actually read (the entry
	// inflated a second time; a zip changing in between is not confused).
	return o.cache.store(imageKey(got, o.opt.AllFiles), ix)
}

// hashEntry returns the SHA-256 of a zip entry's inflated bytes, refusing
// more bytes than the entry declares. A non-empty code classifies an
// input problem; with an empty one the error is ctx's.
func (o *opener) hashEntry(f *zip.File) (string, string, error) {
	rc, err := f.Open()
	if err != nil {
		return "", CodeImageUnreadable, err
	}
	defer rc.Close()
	h := sha256.New()
	limit := int64(f.UncompressedSize64)
	n, err := copyCtx(o.ctx, h, io.LimitReader(rc, limit+1))
	switch {
	case o.ctx.Err() != nil:
		return "", "", o.ctx.Err()
	case n > limit:
		return "", CodeDecompressionBomb, fmt.Errorf("inflates past its declared %d bytes", limit)
	case err != nil:
		return "", CodeImageUnreadable, fmt.Errorf("inflating the zip entry: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), "", nil
}

// adoptIndex turns an image index into Files and Problems.
func (o *opener) adoptIndex(ref imageRef, ix *index, im *Image) {
	for _, e := range ix.Files {
		o.fw.files = append(o.fw.files, File{
			LocalPath:  o.cache.objectPath(e.SHA256),
			Provenance: o.fw.Path + "!/" + ref.Name + "!/" + e.Path,
			Image:      ref.Name, Role: ref.Role, Path: e.Path, Size: e.Size, SHA256: e.SHA256,
		})
	}
	im.Files = len(ix.Files)
	for _, l := range ix.Links {
		l.Image = ref.Name
		o.fw.links = append(o.fw.links, l)
	}
	for _, p := range ix.Problems {
		o.problem(p)
	}
}

// cacheError marks a failure of the cache itself, which stops Open.
type cacheError struct{ err error }

func (e *cacheError) Error() string { return e.err.Error() }

// aeaMagic starts Apple Encrypted Archives.
const aeaMagic = "AEA1"

// encrypted reports whether a zip entry is an Apple Encrypted Archive, by
// magic or by its .aea name.
func encrypted(f *zip.File) (bool, error) {
	if strings.HasSuffix(f.Name, ".aea") {
		return true, nil
	}
	rc, err := f.Open()
	if err != nil {
		return false, err
	}
	defer rc.Close()
	head := make([]byte, len(aeaMagic))
	n, err := io.ReadFull(rc, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err
	}
	return string(head[:n]) == aeaMagic, nil
}

// extract copies the image out of the zip, lists it with 7-Zip, extracts
// the candidates, keeps those whose content can hold shaders and moves them
// into the object store. A failure is recorded as a problem and returned;
// a *cacheError means the cache itself failed. When 7-Zip fails part way,
// the files it did extract are returned, not cacheable. sum is the SHA-256
// of the image bytes extracted.
func (o *opener) extract(ref imageRef, f *zip.File) (ix *index, sum string, cacheable bool, err error) {
	ix, cacheable, err = o.extractTo(ref, f, &sum)
	return ix, sum, cacheable, err
}

func (o *opener) extractTo(ref imageRef, f *zip.File, sum *string) (ix *index, cacheable bool, err error) {
	work, err := os.MkdirTemp(filepath.Join(o.cache.dir, "tmp"), "image-*")
	if err != nil {
		return nil, false, &cacheError{err}
	}
	defer os.RemoveAll(work)
	fail := func(code, msg string) (*index, bool, error) {
		o.problem(Problem{Code: code, Image: ref.Name, Msg: msg})
		return nil, false, errors.New(msg)
	}
	imgPath := filepath.Join(work, "image"+path.Ext(ref.Name))
	if code, err := o.copyEntry(f, imgPath, sum); err != nil {
		if code == "" {
			return nil, false, &cacheError{err}
		}
		return fail(code, err.Error())
	}
	ix = &index{Image: ref.Name}
	var listed []entry
	l, err := o.z.list(o.ctx, imgPath, o.opt.MaxEntries, func(e entry) error {
		if !e.Folder {
			listed = append(listed, e)
		}
		return nil
	})
	ix.Format = l.Types
	if err != nil {
		if o.ctx.Err() != nil {
			return nil, false, o.ctx.Err()
		}
		if names, ok, _ := apfsEncryptedVolumes(imgPath); ok && len(names) > 0 {
			return fail(CodeEncryptedVolume, fmt.Sprintf("APFS container whose volume %q is encrypted: 7-Zip cannot open it (%v); reading it needs the volume's password or recovery key and an APFS reader that decrypts, which airpipe does not have", strings.Join(names, `", "`), err))
		}
		if !l.Parsed {
			return fail(CodeImageUnreadable, err.Error())
		}
		ix.Problems = append(ix.Problems, Problem{Code: CodeImageDamaged, Image: ref.Name,
			Msg: fmt.Sprintf("7-Zip listed %d entries but reported errors (%v); the files it extracts are kept, their sizes checked", l.Entries, err)})
	}
	if n := len(l.Types); n > 0 && partitionMap(l.Types[n-1]) && len(listed) > 0 {
		var parts []string
		for _, e := range listed {
			parts = append(parts, e.Path)
		}
		ix.Problems = append(ix.Problems, Problem{Code: CodePartitionUnopened, Image: ref.Name,
			Msg: fmt.Sprintf("7-Zip opened the %s partition map but no file system inside its %d partitions (%s); they are not read", l.Types[n-1], len(parts), strings.Join(parts, ", "))})
	}
	s := &selection{o: o, img: imgPath, work: work, ix: ix, l: l, byPath: map[string]*entry{}}
	for i := range listed {
		s.byPath[listed[i].Path] = &listed[i]
	}
	if err := s.hardLinks(listed); err != nil {
		return nil, false, err
	}
	if err := s.symlinks(listed); err != nil {
		return nil, false, err
	}
	for _, e := range listed {
		if e.symlink() || (s.linked[e.Path] && !o.opt.AllFiles) {
			continue
		}
		if o.opt.AllFiles || Candidate(e.Path, e.Mode, e.Size) || s.sniff[e.Path] {
			s.add(e)
		}
	}
	if s.total > o.opt.MaxExtractBytes {
		return fail(CodeExtractTooLarge, fmt.Sprintf("%d candidate files hold %d bytes, over the %d-byte cap", len(s.selected), s.total, o.opt.MaxExtractBytes))
	}
	out := filepath.Join(work, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		return nil, false, &cacheError{err}
	}
	if len(s.selected) > 0 {
		var paths []string
		seen := map[string]bool{}
		for _, e := range s.selected {
			if src := e.source(); !seen[src] {
				seen[src] = true
				paths = append(paths, src)
			}
		}
		if err := o.z.extract(o.ctx, imgPath, out, paths, o.opt.MaxExtractBytes); err != nil {
			if o.ctx.Err() != nil {
				return nil, false, o.ctx.Err()
			}
			var ob *overBudget
			if errors.As(err, &ob) {
				// Nothing of an image that lies about its sizes is kept.
				return fail(CodeExtractTooLarge, fmt.Sprintf("extracting %d candidate files listed as %d bytes: %v", len(s.selected), s.total, err))
			}
			// Keep what was extracted; do not cache a partial result.
			o.problem(Problem{Code: CodeExtractFailed, Image: ref.Name, Msg: err.Error()})
			if err := o.keep(out, s.selected, ix); err != nil {
				return nil, false, &cacheError{err}
			}
			return ix, false, nil
		}
	}
	if err := o.keep(out, s.selected, ix); err != nil {
		return nil, false, &cacheError{err}
	}
	return ix, true, nil
}

// partitionMap reports whether a 7-Zip format is a partition map or disk
// image container rather than a file system.
func partitionMap(typ string) bool {
	switch typ {
	case "Dmg", "GPT", "APM", "MBR":
		return true
	}
	return false
}

// selection gathers the entries of one image to extract.
type selection struct {
	o        *opener
	img      string
	work     string
	ix       *index
	l        listing
	byPath   map[string]*entry
	selected []entry
	chosen   map[string]bool
	// sniff names entries selected for their content alone (an HFS+
	// inode file when the links to it cannot be resolved).
	sniff map[string]bool
	// linked names the HFS+ inode files reached through a hard link:
	// their data is kept under the links' names, not their own (except
	// with Options.AllFiles, which keeps every file).
	linked map[string]bool
	total  int64
}

// add selects e (once per name), refusing unsafe names.
func (s *selection) add(e entry) {
	if s.chosen == nil {
		s.chosen = map[string]bool{}
	}
	if s.chosen[e.Path] {
		return
	}
	s.chosen[e.Path] = true
	for _, p := range []string{e.Path, e.src} {
		if why := unsafeName(p); p != "" && why != "" {
			s.problem(CodeUnsafePath, e.Path, "image entry refused: "+why)
			return
		}
	}
	s.total += e.Size
	s.selected = append(s.selected, e)
}

func (s *selection) problem(code, p, msg string) {
	s.ix.Problems = append(s.ix.Problems, Problem{Code: code, Image: s.ix.Image, Path: p, Msg: msg})
}

// hfsRoot returns the folder 7-Zip puts an HFS+ volume's files under (the
// volume name), or "" for other formats.
func (s *selection) hfsRoot(listed []entry) string {
	if n := len(s.l.Types); n == 0 || s.l.Types[n-1] != "HFS" || len(listed) == 0 {
		return ""
	}
	root, _, _ := strings.Cut(listed[0].Path, "/")
	for _, e := range listed {
		if first, _, _ := strings.Cut(e.Path, "/"); first != root {
			return ""
		}
	}
	return root
}

// hardLinks points each HFS+ hard link (listed by 7-Zip as an empty file)
// at its private-data inode file, read through the volume's catalog. A
// link whose inode is not listed is refused by name; when the catalog
// cannot be read, that is a problem and every inode file is selected for
// its content.
func (s *selection) hardLinks(listed []entry) error {
	root := s.hfsRoot(listed)
	if root == "" {
		return nil
	}
	prefix := root + "/" + hfsPrivateDir + "/iNode"
	var inodes []string
	for _, e := range listed {
		if strings.HasPrefix(e.Path, prefix) {
			inodes = append(inodes, e.Path)
		}
	}
	if len(inodes) == 0 {
		return nil
	}
	links, err := s.readHardLinks()
	if err != nil {
		if s.o.ctx.Err() != nil {
			return s.o.ctx.Err()
		}
		var fatal *cacheError
		if errors.As(err, &fatal) {
			return fatal.err
		}
		s.problem(CodeHardLink, "", fmt.Sprintf("the volume has %d hard-link inode files, but its catalog could not be read (%v): the links, which 7-Zip lists as empty files, are unresolved; the inode files are kept by content", len(inodes), err))
		s.sniff = map[string]bool{}
		for _, p := range inodes {
			s.sniff[p] = true
		}
		return nil
	}
	names := make([]string, 0, len(links))
	for p := range links {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		full := root + "/" + p
		e, ok := s.byPath[full]
		if !ok {
			s.problem(CodeHardLink, full, "the catalog names this hard link, but 7-Zip does not list it")
			continue
		}
		in, ok := s.byPath[hfsInodePath(root, links[p])]
		if !ok {
			s.problem(CodeHardLink, full, fmt.Sprintf("hard link to inode %d, whose file %s 7-Zip does not list", links[p], hfsInodePath(root, links[p])))
			continue
		}
		e.src, e.Size, e.Mode = in.Path, in.Size, in.Mode
		if s.linked == nil {
			s.linked = map[string]bool{}
		}
		s.linked[in.Path] = true
	}
	return nil
}

// readHardLinks reads the HFS+ catalog of the image: the image itself
// when 7-Zip opened it as HFS directly, else the partition 7-Zip opened,
// copied out of the partition map.
func (s *selection) readHardLinks() (map[string]uint32, error) {
	vol := s.img
	switch len(s.l.Types) {
	case 1:
	case 2:
		vol = filepath.Join(s.work, "volume.hfs")
		if err := s.o.z.stream(s.o.ctx, s.img, s.l.Types[0], s.l.Archives[1], vol, s.o.opt.MaxImageBytes); err != nil {
			return nil, fmt.Errorf("copying out partition %s: %w", s.l.Archives[1], err)
		}
		defer os.Remove(vol)
	default:
		return nil, fmt.Errorf("the volume is %d layers deep (%s)", len(s.l.Types), strings.Join(s.l.Types, ">"))
	}
	f, err := os.Open(vol)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return hfsHardLinks(f)
}

// maxLinkHops bounds a chain of symbolic links.
const maxLinkHops = 32

// symlinks resolves symbolic links against the image root, never the
// host: an absolute target names a path from the image root, a relative
// one a path from the link's folder, and a target climbing above the root
// is outside the image. Each link whose name is a candidate (and every
// link with Options.AllFiles) is recorded; the regular file it reaches is
// selected, and a candidate link that reaches none is refused by name.
func (s *selection) symlinks(listed []entry) error {
	var wanted []*entry
	for i := range listed {
		if e := &listed[i]; e.symlink() && (s.o.opt.AllFiles || Candidate(e.Path, "", max(e.Size, 1))) {
			wanted = append(wanted, s.byPath[e.Path])
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	if err := s.readTargets(listed); err != nil {
		return err
	}
	root := s.hfsRoot(listed)
	for _, e := range wanted {
		l := Link{Path: e.Path, Target: strings.TrimRight(e.Link, "\x00")}
		res, why := s.resolve(root, e)
		if why == "" {
			l.Resolved = res.Path
			s.add(*res)
		} else if Candidate(e.Path, "", max(e.Size, 1)) {
			s.problem(CodeLinkUnresolved, e.Path, fmt.Sprintf("symbolic link to %q: %s", e.Link, why))
		}
		s.ix.Links = append(s.ix.Links, l)
	}
	return nil
}

// readTargets fills in the targets 7-Zip's listing leaves out (HFS+
// lists none) by extracting the links alone into a folder of their own,
// where nothing else is written through them. 7-Zip re-roots an absolute
// target at the output folder on extraction; that prefix is taken off.
func (s *selection) readTargets(listed []entry) error {
	var need []string
	for _, e := range listed {
		if e.symlink() && e.Link == "" && unsafeName(e.Path) == "" {
			need = append(need, e.Path)
		}
	}
	if len(need) == 0 {
		return nil
	}
	dir := filepath.Join(s.work, "links")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return &cacheError{err}
	}
	defer os.RemoveAll(dir)
	if err := s.o.z.extract(s.o.ctx, s.img, dir, need, s.o.opt.MaxExtractBytes); err != nil {
		if s.o.ctx.Err() != nil {
			return s.o.ctx.Err()
		}
		s.problem(CodeExtractFailed, "", "extracting symbolic links to read their targets: "+err.Error())
	}
	for _, p := range need {
		t, err := os.Readlink(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			continue // resolved as "target unknown"
		}
		if rest, ok := strings.CutPrefix(t, dir+string(filepath.Separator)); ok {
			t = "/" + filepath.ToSlash(rest)
		}
		s.byPath[p].Link = strings.TrimRight(t, "\x00")
	}
	return nil
}

// resolve follows e's target through the listing to a regular file, or
// says why not.
func (s *selection) resolve(root string, e *entry) (*entry, string) {
	cur := e
	for range maxLinkHops {
		if strings.TrimRight(cur.Link, "\x00") == "" {
			return nil, "target unknown"
		}
		p, ok := inImage(root, cur.Path, strings.TrimRight(cur.Link, "\x00"))
		if !ok {
			return nil, "resolves outside the image"
		}
		next, ok := s.byPath[p]
		switch {
		case !ok:
			return nil, fmt.Sprintf("%s is not in the image", p)
		case next.symlink():
			cur = next
		default:
			return next, ""
		}
	}
	return nil, fmt.Sprintf("more than %d links in a row", maxLinkHops)
}

// inImage resolves link target t, met at image path link, against the
// image root (for an HFS+ volume, the volume folder root): an absolute
// target starts at the root, a relative one at the link's folder. ok is
// false when the target is empty or climbs above the root.
func inImage(root, link, t string) (string, bool) {
	if t == "" {
		return "", false
	}
	rel := link
	if root != "" {
		rel = strings.TrimPrefix(link, root+"/")
	}
	var parts []string
	if !strings.HasPrefix(t, "/") {
		if d := path.Dir(rel); d != "." {
			parts = strings.Split(d, "/")
		}
	}
	var stack []string
	for _, q := range append(parts, strings.Split(t, "/")...) {
		switch q {
		case "", ".":
		case "..":
			if len(stack) == 0 {
				return "", false
			}
			stack = stack[:len(stack)-1]
		default:
			stack = append(stack, q)
		}
	}
	if root != "" {
		stack = append([]string{root}, stack...)
	}
	return strings.Join(stack, "/"), true
}

// keep moves the extracted regular files whose content can hold shaders
// into the object store and lists them in ix. A selected file that is
// missing, not regular or of another size than listed is a problem, as is
// an APFS sparse file whose holes came out as container blocks.
func (o *opener) keep(out string, selected []entry, ix *index) error {
	type stored struct {
		sum string
		n   int64
	}
	done := map[string]stored{}
	for _, e := range selected {
		src := e.source()
		p := filepath.Join(out, filepath.FromSlash(src))
		if st, ok := done[src]; ok {
			ix.Files = append(ix.Files, indexEntry{Path: e.Path, SHA256: st.sum, Size: st.n})
			continue
		}
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() != e.Size {
			msg := "not extracted"
			if err == nil {
				msg = fmt.Sprintf("extracted as %s, %d bytes (listed %d)", st.Mode().Type(), st.Size(), e.Size)
			}
			if e.src != "" {
				msg += "; hard link to " + e.src
			}
			ix.Problems = append(ix.Problems, Problem{Code: CodeExtractFailed, Image: ix.Image, Path: e.Path, Msg: msg})
			continue
		}
		if e.sparse() {
			off, err := containerBlockInFile(p)
			if err != nil {
				return err
			}
			if off >= 0 {
				ix.Problems = append(ix.Problems, Problem{Code: CodeSparseHole, Image: ix.Image, Path: e.Path,
					Msg: fmt.Sprintf("APFS sparse file (IS_SPARSE): 7-Zip filled a hole with container blocks (an APFS container superblock at byte %d), so its content is wrong", off)})
				continue
			}
		}
		if !o.opt.AllFiles && !holdsFile(p, e.Path) {
			continue
		}
		sum, n, err := o.cache.adopt(p)
		if err != nil {
			return err
		}
		done[src] = stored{sum, n}
		ix.Files = append(ix.Files, indexEntry{Path: e.Path, SHA256: sum, Size: n})
	}
	sort.Slice(ix.Files, func(i, j int) bool { return ix.Files[i].Path < ix.Files[j].Path })
	return nil
}

// holdsFile applies Holds to a file's first bytes.
func holdsFile(p, name string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 32)
	n, _ := io.ReadFull(f, head)
	return Holds(name, head[:n])
}

// copyEntry inflates a zip entry to dst, refusing more bytes than the
// entry declares, and sets *sum to the SHA-256 of the bytes written. A
// non-empty code classifies an input problem; an empty one a failure of
// the cache.
func (o *opener) copyEntry(f *zip.File, dst string, sum *string) (string, error) {
	rc, err := f.Open()
	if err != nil {
		return CodeImageUnreadable, err
	}
	defer rc.Close()
	w, err := os.Create(dst)
	if err != nil {
		return "", err
	}
	limit := int64(f.UncompressedSize64)
	h := sha256.New()
	n, err := copyCtx(o.ctx, io.MultiWriter(w, h), io.LimitReader(rc, limit+1))
	*sum = hex.EncodeToString(h.Sum(nil))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	switch {
	case o.ctx.Err() != nil:
		return "", o.ctx.Err()
	case n > limit:
		return CodeDecompressionBomb, fmt.Errorf("inflates past its declared %d bytes", limit)
	case err != nil:
		return CodeImageUnreadable, fmt.Errorf("inflating the zip entry: %w", err)
	}
	return "", nil
}

// copyCtx copies in 1 MiB chunks, stopping when ctx ends.
func copyCtx(ctx context.Context, w io.Writer, r io.Reader) (int64, error) {
	buf := make([]byte, 1<<20)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		k, err := r.Read(buf)
		if k > 0 {
			if _, werr := w.Write(buf[:k]); werr != nil {
				return n, werr
			}
			n += int64(k)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
