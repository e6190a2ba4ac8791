package ipsw

import (
	"archive/zip"
	"context"
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
	// MaxExtractBytes caps the files selected in one image (default 64 GiB).
	MaxExtractBytes int64
	// MaxEntries caps the entries listed in one image (default 10,000,000).
	MaxEntries int
	// IncludeRamdisks also reads restore and update ramdisks.
	IncludeRamdisks bool
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
	problems []Problem
}

// Files returns the extracted files, sorted by provenance.
func (fw *Firmware) Files() []File { return fw.files }

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
		return nil, errorf("corpus/bad-ipsw", err, "%s is not a readable zip", ipswPath)
	}
	defer zr.Close()
	o := &opener{ctx: ctx, opt: opt, cache: c, z: &sevenZip{path: sz, timeout: opt.Timeout},
		fw: &Firmware{Path: ipswPath}, entries: map[string]*zip.File{}}
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
		return bad(CodeEncryptedImage, "Apple Encrypted Archive (AEA1): cannot be read without its key")
	}
	key := imageKey(f)
	if ix, ok := o.cache.load(key); ok {
		im.Cached = true
		im.Format = strings.Join(ix.Format, ">")
		o.adoptIndex(ref, ix, &im)
		return nil
	}
	ix, cacheable, err := o.extract(ref, f)
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
	return o.cache.store(key, ix)
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
// the files it did extract are returned, not cacheable.
func (o *opener) extract(ref imageRef, f *zip.File) (ix *index, cacheable bool, err error) {
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
	if code, err := o.copyEntry(f, imgPath); err != nil {
		if code == "" {
			return nil, false, &cacheError{err}
		}
		return fail(code, err.Error())
	}
	ix = &index{Image: ref.Name}
	var selected []entry
	var total int64
	l, err := o.z.list(o.ctx, imgPath, o.opt.MaxEntries, func(e entry) error {
		if e.Folder || e.symlink() || !Candidate(e.Path, e.Mode, e.Size) {
			return nil
		}
		if why := unsafeName(e.Path); why != "" {
			ix.Problems = append(ix.Problems, Problem{Code: CodeUnsafePath, Image: ref.Name, Path: e.Path, Msg: "image entry refused: " + why})
			return nil
		}
		total += e.Size
		selected = append(selected, e)
		return nil
	})
	ix.Format = l.Types
	if err != nil {
		return fail(CodeImageUnreadable, err.Error())
	}
	if total > o.opt.MaxExtractBytes {
		return fail(CodeExtractTooLarge, fmt.Sprintf("%d candidate files hold %d bytes, over the %d-byte cap", len(selected), total, o.opt.MaxExtractBytes))
	}
	out := filepath.Join(work, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		return nil, false, &cacheError{err}
	}
	if len(selected) > 0 {
		paths := make([]string, len(selected))
		for i, e := range selected {
			paths[i] = e.Path
		}
		if err := o.z.extract(o.ctx, imgPath, out, paths); err != nil {
			if o.ctx.Err() != nil {
				return nil, false, o.ctx.Err()
			}
			// Keep what was extracted; do not cache a partial result.
			o.problem(Problem{Code: CodeExtractFailed, Image: ref.Name, Msg: err.Error()})
			if err := o.keep(out, selected, ix); err != nil {
				return nil, false, &cacheError{err}
			}
			return ix, false, nil
		}
	}
	if err := o.keep(out, selected, ix); err != nil {
		return nil, false, &cacheError{err}
	}
	return ix, true, nil
}

// keep moves the extracted regular files whose content can hold shaders
// into the object store and lists them in ix. A selected file that is
// missing, not regular or larger than listed is a problem.
func (o *opener) keep(out string, selected []entry, ix *index) error {
	for _, e := range selected {
		p := filepath.Join(out, filepath.FromSlash(e.Path))
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() > e.Size {
			msg := "not extracted"
			if err == nil {
				msg = fmt.Sprintf("extracted as %s, %d bytes (listed %d)", st.Mode().Type(), st.Size(), e.Size)
			}
			ix.Problems = append(ix.Problems, Problem{Code: CodeExtractFailed, Image: ix.Image, Path: e.Path, Msg: msg})
			continue
		}
		if !holdsFile(p, e.Path) {
			continue
		}
		sum, n, err := o.cache.adopt(p)
		if err != nil {
			return err
		}
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
// entry declares. A non-empty code classifies an input problem; an empty
// one a failure of the cache.
func (o *opener) copyEntry(f *zip.File, dst string) (string, error) {
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
	n, err := copyCtx(o.ctx, w, io.LimitReader(rc, limit+1))
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
