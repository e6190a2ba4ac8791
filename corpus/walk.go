// Package corpus finds Metal libraries: it walks directories and files
// (following symbolic links only while they stay inside the given roots)
// and classifies each file. The container format itself lives in
// corpus/mtlb.
package corpus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/airpipe/airpipe/corpus/ipsw"
)

// Entry is one file the walk met. A refused entry carries the reason it
// was not read; every entry met is reported exactly once.
type Entry struct {
	// Path is the file's path as reached from its root.
	Path string
	// Provenance names the file for results (the path; later layers such as
	// archives append "!/inner/path").
	Provenance string
	// Size is the file's size in bytes.
	Size int64
	// Refused is non-empty when the entry is not read, with the reason:
	// a symbolic link leaving the roots, a directory loop, an unreadable
	// file, a special file.
	Refused string
}

// Refusal reasons reported in Entry.Refused.
const (
	RefusedOutsideRoots = "symlink leaves the corpus roots"
	RefusedLoop         = "directory loop"
	RefusedSpecial      = "not a regular file"
	RefusedUnreadable   = "unreadable"
	RefusedBrokenLink   = "broken symlink"
	RefusedTooDeep      = "directory nesting too deep"
)

// MaxDepth is how many directories deep a walk goes below a root; deeper
// entries are refused (a hostile tree cannot exhaust the walk).
const MaxDepth = 128

// Options change what a walk does.
type Options struct {
	// FirmwareCache is where files extracted from .ipsw firmware are kept
	// (content-addressed, reused across runs). Empty: .ipsw files are not
	// opened but reported as plain files.
	FirmwareCache string
	// Exclude lists directories the walk never enters: the run's own output
	// and caches, when they lie inside the input tree (a run must not read
	// what it writes). Paths are compared after resolving symbolic links; a
	// root itself is never excluded.
	Exclude []string
}

// Walk visits every file under roots (directories recursively, files
// directly) in a deterministic order. A root that cannot be read is an
// error; anything below a root that cannot be read is an Entry with a
// reason. visit's error stops the walk; so does ctx.
func Walk(ctx context.Context, roots []string, visit func(Entry) error) error {
	return WalkWith(ctx, roots, Options{}, visit)
}

// WalkWith is Walk with options. With Options.FirmwareCache set, a file
// named *.ipsw is opened as firmware: every file extracted from its disk
// images is visited with a provenance naming each layer
// ("x.ipsw!/078-12345.dmg!/System/Library/.../default.metallib"), and every
// image or entry refused (encrypted, unsafe path, too large) is visited as a
// refused entry with its code.
func WalkWith(ctx context.Context, roots []string, opts Options, visit func(Entry) error) error {
	w := &walker{ctx: ctx, visit: visit, seenDirs: map[string]bool{}, opts: opts, excluded: map[string]bool{}}
	for _, x := range opts.Exclude {
		if x == "" {
			continue
		}
		abs, err := filepath.Abs(x)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		w.excluded[abs] = true
	}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return fmt.Errorf("corpus root %s: %w", r, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return fmt.Errorf("corpus root %s: %w", r, err)
		}
		if _, err := os.Stat(real); err != nil {
			return fmt.Errorf("corpus root %s: %w", r, err)
		}
		w.roots = append(w.roots, real)
	}
	for i, r := range roots {
		if err := w.walk(r, w.roots[i], 0); err != nil {
			return err
		}
	}
	return nil
}

type walker struct {
	opts     Options
	ctx      context.Context
	visit    func(Entry) error
	roots    []string
	seenDirs map[string]bool
	excluded map[string]bool
}

// inside reports whether a resolved path lies within one of the roots.
func (w *walker) inside(real string) bool {
	for _, r := range w.roots {
		if real == r || strings.HasPrefix(real, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// walk visits path, whose symlink-free location is real, depth directories
// below its root.
func (w *walker) walk(path, real string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	info, err := os.Stat(real)
	if err != nil {
		return w.visit(Entry{Path: path, Provenance: path, Refused: RefusedUnreadable + ": " + err.Error()})
	}
	switch {
	case info.IsDir():
		if depth > 0 && w.excluded[real] {
			return nil // the run's own output or cache
		}
		if depth > MaxDepth {
			return w.visit(Entry{Path: path, Provenance: path, Refused: fmt.Sprintf("%s (more than %d levels)", RefusedTooDeep, MaxDepth)})
		}
		if w.seenDirs[real] {
			return w.visit(Entry{Path: path, Provenance: path, Refused: RefusedLoop + " (" + real + " already walked)"})
		}
		w.seenDirs[real] = true
		des, err := os.ReadDir(real)
		if err != nil {
			return w.visit(Entry{Path: path, Provenance: path, Refused: RefusedUnreadable + ": " + err.Error()})
		}
		sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
		for _, de := range des {
			if err := w.child(filepath.Join(path, de.Name()), filepath.Join(real, de.Name()), de, depth+1); err != nil {
				return err
			}
		}
		return nil
	case info.Mode().IsRegular():
		if w.opts.FirmwareCache != "" && strings.EqualFold(filepath.Ext(path), ".ipsw") {
			return w.firmware(path, real)
		}
		return w.visit(Entry{Path: path, Provenance: path, Size: info.Size()})
	default:
		return w.visit(Entry{Path: path, Provenance: path, Refused: RefusedSpecial + " (" + info.Mode().Type().String() + ")"})
	}
}

// child visits one directory entry, resolving symbolic links.
func (w *walker) child(path, real string, de fs.DirEntry, depth int) error {
	if de.Type()&fs.ModeSymlink == 0 {
		return w.walk(path, real, depth)
	}
	target, err := filepath.EvalSymlinks(real)
	if err != nil {
		reason := RefusedBrokenLink
		if !errors.Is(err, fs.ErrNotExist) {
			reason = RefusedUnreadable + ": " + err.Error()
		}
		return w.visit(Entry{Path: path, Provenance: path, Refused: reason})
	}
	if !w.inside(target) {
		return w.visit(Entry{Path: path, Provenance: path, Refused: RefusedOutsideRoots + " (" + target + ")"})
	}
	return w.walk(path, target, depth)
}

// firmware opens an .ipsw and visits what its images hold.
func (w *walker) firmware(path, real string) error {
	fw, err := ipsw.Open(w.ctx, real, w.opts.FirmwareCache)
	if err != nil {
		if w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		return w.visit(Entry{Path: path, Provenance: path, Refused: err.Error()})
	}
	for _, p := range fw.Problems() {
		prov := path
		if p.Image != "" {
			prov += "!/" + p.Image
		}
		if p.Path != "" {
			prov += "!/" + p.Path
		}
		if err := w.visit(Entry{Path: path, Provenance: prov, Refused: p.Code + ": " + p.Msg}); err != nil {
			return err
		}
	}
	for _, f := range fw.Files() {
		prov := path + strings.TrimPrefix(f.Provenance, real)
		if err := w.visit(Entry{Path: f.LocalPath, Provenance: prov, Size: f.Size}); err != nil {
			return err
		}
	}
	return nil
}
