package ipsw

import "fmt"

// Problem and error codes. Every image named by the manifest ends either in
// files or in a Problem with one of these codes; none is skipped silently.
const (
	// CodeEncryptedImage: the image is Apple Encrypted Archive (magic
	// "AEA1", iOS 18 and later); its key is not available here.
	CodeEncryptedImage = "corpus/encrypted-image"
	// CodeUnsafePath: a zip entry or image entry name is absolute, climbs
	// out with "..", or holds a backslash or control character.
	CodeUnsafePath = "corpus/unsafe-path"
	// CodeImageTooLarge: the image's declared size exceeds Options.MaxImageBytes.
	CodeImageTooLarge = "corpus/image-too-large"
	// CodeDecompressionBomb: the compression ratio exceeds Options.MaxRatio,
	// or the entry inflates past its declared size.
	CodeDecompressionBomb = "corpus/decompression-bomb"
	// CodeImageMissing: the manifest names an image the zip lacks.
	CodeImageMissing = "corpus/image-missing"
	// CodeNoManifest: neither BuildManifest.plist nor Restore.plist was
	// readable; every top-level .dmg is taken instead.
	CodeNoManifest = "corpus/no-manifest"
	// CodeImageUnreadable: 7-Zip could not list the image.
	CodeImageUnreadable = "corpus/image-unreadable"
	// CodeExtractFailed: 7-Zip reported errors extracting; the files it did
	// extract are kept.
	CodeExtractFailed = "corpus/extract-failed"
	// CodeExtractTooLarge: the selected files exceed Options.MaxExtractBytes.
	CodeExtractTooLarge = "corpus/extract-too-large"
	// CodeMissing7z: the 7z program is not installed (Debian p7zip-full).
	CodeMissing7z = "corpus/missing-7z"
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
