// Package stages holds airpipe's stages as thin adapters over corpus,
// compiler and device, and the ordered list Default returns. It also turns
// a finished module into its results row.
package stages

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
)

// Library is one library file as the container stage sees it. It is shared,
// read-only, by all the modules of the library.
type Library struct {
	// Source is the provenance path of the library.
	Source string
	// Path is the local file holding the library (for tools that want a
	// .metallib on disk); for an embedded library it is the outer file.
	Path string
	// Kind says where the library sat: "file" for a library file, else a
	// corpus/scan kind ("macho-section", "fat-slice", "cache-blob",
	// "embedded", "bare-module").
	Kind string
	// Offset is the library's byte offset in the file at Path.
	Offset int64
	// SHA256 is the hex SHA-256 of the library's bytes.
	SHA256 string
	// Lib is the parsed library; nil when Err is set.
	Lib *mtlb.Library
	// Err is the library-level failure: code and error.
	Err     error
	ErrCode codes.Code
}

// Module is one function of one library on its way through the stages.
// Each stage fills in what later stages need; only one goroutine owns a
// Module at a time.
type Module struct {
	Library *Library
	// Index is the function's position in the library; -1 for the row that
	// stands for a library that failed as a whole.
	Index    int
	Function *mtlb.Function
	// SHA256 is the hex SHA-256 of the function's bitcode slice ("" when
	// there is none). Modules with equal SHA256 share the reader's work;
	// from translate on they share work only when their function's name is
	// also equal (FunctionKey).
	SHA256 string
	// Bitcode is the raw LLVM bitcode inside the slice's wrapper, set by
	// the container stage.
	Bitcode []byte

	// Artifacts of later stages.
	artifacts
}

// Key is the pipeline's dedup key: the bitcode's SHA-256. It is all the
// container and reader stages depend on; the stages from translate on are
// narrowed by FunctionKey.
func Key(m *Module) string { return m.SHA256 }

// FunctionKey is the Refine of the stages whose outcome depends on which
// function of the module the row stands for (translate picks its entry
// point by name): several functions of a library may point at one bitcode
// module, and each gets its own verdict.
func FunctionKey(m *Module) string {
	if m.Function == nil {
		return ""
	}
	return m.Function.Name
}

// modulesOf fans a parsed library out into one Module per function.
func modulesOf(lib *Library) []*Module {
	if lib.Err != nil || lib.Lib == nil {
		return []*Module{{Library: lib, Index: -1}}
	}
	out := make([]*Module, len(lib.Lib.Functions))
	for i := range lib.Lib.Functions {
		f := &lib.Lib.Functions[i]
		m := &Module{Library: lib, Index: i, Function: f}
		if f.Bitcode != nil {
			sum := sha256.Sum256(f.Bitcode)
			m.SHA256 = hex.EncodeToString(sum[:])
		}
		out[i] = m
	}
	return out
}
