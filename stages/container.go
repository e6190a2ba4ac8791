package stages

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/corpus/scan"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// containerVersion changes whenever the container stage's verdicts change.
const containerVersion = "1"

// Container is the container stage: the library parsed, the function's
// bitcode slice in bounds, its SHA-256 equal to its HASH tag, and its
// bitcode wrapper valid. Unknown tags and codes are passed on as features.
func Container() pipeline.Stage[*Module] {
	return pipeline.Stage[*Module]{
		Name: "container", Version: containerVersion, PerOccurrence: true,
		Provides: []string{ArtifactBitcode},
		Run:      func(_ context.Context, m *Module) pipeline.Result { return checkContainer(m) },
	}
}

func checkContainer(m *Module) pipeline.Result {
	lib := m.Library
	if lib.Err != nil {
		detail := string(lib.ErrCode)
		var fe *mtlb.FormatError
		if errors.As(lib.Err, &fe) {
			detail = fe.Construct
		}
		code := lib.ErrCode
		if code == "" {
			code = codes.ContainerMalformedLibrary
		}
		return pipeline.Fail(code, detail, lib.Err.Error())
	}
	f := m.Function
	construct := fmt.Sprintf("function[%d] %q", m.Index, f.Name)
	if f.Problem != nil {
		return pipeline.Fail(codes.ContainerBitcodeOutOfBounds, f.Problem.Construct, f.Problem.Error())
	}
	bare := lib.Kind == scan.KindBareModule
	if !f.HasHash && !bare {
		return pipeline.Fail(codes.ContainerMissingHash, construct, construct+": no HASH tag")
	}
	if !bare && !f.HashMatches() {
		return pipeline.Fail(codes.ContainerHashMismatch, construct, fmt.Sprintf("%s: SHA-256 of the bitcode slice is %s, HASH tag says %s",
			construct, m.SHA256, hex.EncodeToString(f.Hash[:])))
	}
	raw, err := f.RawBitcode()
	if err != nil {
		return pipeline.Fail(codes.ContainerBadWrapper, construct, err.Error())
	}
	m.Bitcode = raw
	res := pipeline.Pass()
	if bare {
		// A bare module has no function list entry and no HASH to check.
		res.Data = map[string]string{"hash": "absent (bare module)"}
		return res
	}
	// The library's undocumented things and the function's own.
	res.Features = append(append(res.Features, lib.Lib.Unknown...), f.Unknown...)
	return res
}
