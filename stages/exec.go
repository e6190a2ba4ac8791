package stages

import (
	"errors"

	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/pipeline/execstage"
)

// ApplyConfig reads a stage configuration file (docs/stages.md) and returns
// the stage list with its exec stages placed (pipeline/execstage); a tool
// told {function} is keyed by function (FunctionKey).
func ApplyConfig(list []pipeline.Stage[*Module], path string) ([]pipeline.Stage[*Module], error) {
	return execstage.ApplyFile(list, path, FunctionKey)
}

// Placeholder fills an exec stage's {bitcode}, {metallib}, {function} or an
// earlier stage's artifact ({spirv}: translate's SPIR-V, written out under
// base on first use), as execstage.Item asks.
func (m *Module) Placeholder(base, name string) (string, error) {
	switch name {
	case execstage.PlaceholderBitcode:
		return m.BitcodeFile(base)
	case execstage.PlaceholderMetallib:
		if m.Library == nil || m.Library.Path == "" {
			return "", errors.New("the module has no library file on disk")
		}
		return m.Library.Path, nil
	case execstage.PlaceholderFunction:
		if m.Function == nil {
			return "", errors.New("the module has no function")
		}
		return m.Function.Name, nil
	}
	if p, ok := m.Files[name]; ok {
		return p, nil
	}
	if name == ArtifactSPIRVFile {
		return m.SPIRVFile(base)
	}
	return "", errors.New("no earlier stage produced it")
}
