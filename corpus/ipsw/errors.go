package ipsw

import (
	"fmt"

	"github.com/airpipe/airpipe/internal/codes"
)

// Problem and error codes. Every image named by the manifest ends either in
// files or in a Problem with one of these codes; none is skipped silently.
const (
	// CodeBadIPSW: the .ipsw file is not a readable zip.
	CodeBadIPSW = string(codes.CorpusBadIPSW)
	// CodeEncryptedImage: the image is Apple Encrypted Archive (magic
	// "AEA1", iOS 18 and later); its key is not available here.
	CodeEncryptedImage = string(codes.CorpusEncryptedImage)
	// CodeUnsafePath: a zip entry or image entry name is absolute, climbs
	// out with "..", or holds a backslash or control character.
	CodeUnsafePath = string(codes.CorpusUnsafePath)
	// CodeImageTooLarge: the image's declared size exceeds Options.MaxImageBytes.
	CodeImageTooLarge = string(codes.CorpusImageTooLarge)
	// CodeDecompressionBomb: the compression ratio exceeds Options.MaxRatio,
	// or the entry inflates past its declared size.
	CodeDecompressionBomb = string(codes.CorpusDecompressionBomb)
	// CodeImageMissing: the manifest names an image the zip lacks.
	CodeImageMissing = string(codes.CorpusImageMissing)
	// CodeNoManifest: neither BuildManifest.plist nor Restore.plist was
	// readable; every top-level .dmg is taken instead.
	CodeNoManifest = string(codes.CorpusNoManifest)
	// CodeImageUnreadable: 7-Zip could not list the image.
	CodeImageUnreadable = string(codes.CorpusImageUnreadable)
	// CodeImageDamaged: 7-Zip listed the image in full but reported errors
	// (a truncated or damaged image); what it extracts is still checked.
	CodeImageDamaged = string(codes.CorpusImageDamaged)
	// CodeExtractFailed: 7-Zip reported errors extracting; the files it did
	// extract are kept.
	CodeExtractFailed = string(codes.CorpusExtractFailed)
	// CodeExtractTooLarge: the selected files exceed Options.MaxExtractBytes,
	// as listed or as actually written (7-Zip is killed once the bytes it
	// wrote pass the cap, whatever sizes the image lists).
	CodeExtractTooLarge = string(codes.CorpusExtractTooLarge)
	// CodeEncryptedVolume: the image is an APFS container with an
	// encrypted volume, which 7-Zip cannot open.
	CodeEncryptedVolume = string(codes.CorpusEncryptedVolume)
	// CodePartitionUnopened: 7-Zip opened a partition map (UDIF, GPT, APM,
	// MBR) but no file system inside it; its partitions are not read.
	CodePartitionUnopened = string(codes.CorpusPartitionUnopened)
	// CodeHardLink: an HFS+ hard link (listed by 7-Zip as an empty file)
	// could not be resolved to its private-data inode file.
	CodeHardLink = string(codes.CorpusHardLinkUnresolved)
	// CodeSparseHole: an APFS sparse file whose holes 7-Zip filled with
	// container blocks instead of zeros; its content is refused.
	CodeSparseHole = string(codes.CorpusSparseHole)
	// CodeLinkUnresolved: a symbolic link named like a candidate reaches
	// no regular file inside the image (outside the image root, absent,
	// or a loop).
	CodeLinkUnresolved = string(codes.CorpusLinkUnresolved)
	// CodeMissing7z: the 7z program is not installed (Debian p7zip-full).
	CodeMissing7z = string(codes.CorpusMissing7z)
)

// Problem is one image or entry that produced no files, or not all of them.
type Problem struct {
	Code string
	// Image is the image's name in the zip ("" for the zip itself).
	Image string
	// Path is the entry concerned, inside the image or the zip.
	Path string
	Msg  string
}

// String renders the problem on one line.
func (p Problem) String() string {
	s := p.Code
	if p.Image != "" {
		s += " " + p.Image
	}
	if p.Path != "" {
		s += "!/" + p.Path
	}
	return s + ": " + p.Msg
}

// Error is a failure of Open as a whole, with its code.
type Error struct {
	Code string
	Msg  string
	Err  error
}

// Error implements error.
func (e *Error) Error() string {
	s := e.Code + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func errorf(code string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Err: err}
}
