package stages

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/compiler/translate"
	"os"
	"path/filepath"
)

// What the built-in stages leave on a module for later ones, as their
// pipeline.Stage Needs and Provides name it. The in-memory ones are named
// in words no exec stage's artifact (a lower-case name) can take, so a tool
// standing in for the reader or translate cannot seem to provide them.
const (
	// ArtifactBitcode is the function's bitcode (the container's); an exec
	// stage reads it as {bitcode}.
	ArtifactBitcode = "bitcode"
	// ArtifactIR is the module the reader built (Module.IR).
	ArtifactIR = "the reader's in-memory module"
	// ArtifactTranslation is translate's SPIR-V and reflection
	// (Module.Translation).
	ArtifactTranslation = "translate's in-memory SPIR-V"
	// ArtifactSPIRVFile is translate's SPIR-V as a file, written on first
	// use; an exec stage reads it as {spirv}.
	ArtifactSPIRVFile = "spirv"
)

// artifacts are what the stages after the container hand to each other.
type artifacts struct {
	// IR is the module as the reader stage built it.
	IR *air.Module
	// Translation is the translate stage's SPIR-V and reflection.
	Translation *translate.Output
	// Wrapped is set when the row's function is a library function: the
	// module with airpipe's wrapper kernel (compiler/libwrap) that the
	// translate and emulator stages run in its place.
	Wrapped *libwrap.Wrapped
	// EmulatorOutput is the hex digest (judge.Digest) of what the emulator
	// stage's device left in the outputs it compared; "" when it did not run
	// the module to the end.
	EmulatorOutput string
	// Files maps artifact names ("bitcode", "ll", "spirv", "reflection",
	// or whatever an exec stage declares) to files in the module's work
	// directory.
	Files map[string]string
	// workDir is the module's scratch directory, made on first use.
	workDir string
}

// WorkDir returns the module's scratch directory under base, creating it on
// first use. Its name is derived from the bitcode hash so identical
// modules share nothing by accident and the directory is easy to find.
func (m *Module) WorkDir(base string) (string, error) {
	if m.workDir != "" {
		return m.workDir, nil
	}
	name := m.SHA256
	if len(name) > 16 {
		name = name[:16]
	}
	if name == "" {
		name = "library"
	}
	dir, err := os.MkdirTemp(base, fmt.Sprintf("%s-%d-", name, m.Index))
	if err != nil {
		return "", err
	}
	m.workDir = dir
	return dir, nil
}

// SetFile records an artifact file.
func (m *Module) SetFile(name, path string) {
	if m.Files == nil {
		m.Files = map[string]string{}
	}
	m.Files[name] = path
}

// fileOrWrite returns an artifact's path, writing data to the work directory
// first when the artifact is produced in memory (the bitcode).
func (m *Module) fileOrWrite(base, name, ext string, data []byte) (string, error) {
	if p, ok := m.Files[name]; ok {
		return p, nil
	}
	dir, err := m.WorkDir(base)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+ext)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return "", err
	}
	m.SetFile(name, p)
	return p, nil
}

// BitcodeFile returns the path of the module's raw bitcode as a file in its
// work directory under base, writing it on first use.
func (m *Module) BitcodeFile(base string) (string, error) {
	if m.Bitcode == nil {
		return "", fmt.Errorf("module has no bitcode (the container stage did not pass)")
	}
	return m.fileOrWrite(base, "bitcode", ".bc", m.Bitcode)
}

// SPIRVFile returns the path of translate's SPIR-V as a file in the
// module's work directory under base, writing it on first use; an exec
// stage's own "spirv" artifact, when one recorded it, comes first.
func (m *Module) SPIRVFile(base string) (string, error) {
	if p, ok := m.Files[ArtifactSPIRVFile]; ok {
		return p, nil
	}
	if m.Translation == nil {
		return "", fmt.Errorf("no earlier stage produced it")
	}
	return m.fileOrWrite(base, ArtifactSPIRVFile, ".spv", m.Translation.SPIRV)
}
