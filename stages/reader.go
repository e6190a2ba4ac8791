package stages

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/oracle"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// readerVersion changes whenever the reader stage's verdicts change.
const readerVersion = "1"

// DefaultReaderMemory is the reader's default memory budget per module
// (4 GiB): modules up to about 32 MiB of bitcode are read.
const DefaultReaderMemory = 4 << 30

// Reader is the reader stage: our own bitcode reader builds the whole
// module; with useOracle, its printed text must agree with llvm-dis-19's.
func Reader(useOracle bool, memory int64) pipeline.Stage[*Module] {
	if memory <= 0 {
		memory = DefaultReaderMemory
	}
	version := readerVersion
	if useOracle {
		version += "+oracle-llvm-dis"
	}
	if memory != DefaultReaderMemory {
		// A refusal under one budget is no verdict under another.
		version += fmt.Sprintf("+memory-%d", memory)
	}
	return pipeline.Stage[*Module]{
		Name: "reader", Version: version,
		Needs: []string{ArtifactBitcode}, Provides: []string{ArtifactIR},
		Run: func(ctx context.Context, m *Module) pipeline.Result {
			if est := bitcode.AllocationBound(len(m.Bitcode)); est > uint64(memory) {
				return pipeline.Fail(codes.ReaderOverBudget, fmt.Sprintf("%d bytes", len(m.Bitcode)),
					fmt.Sprintf("a module of %d bytes may need up to %d bytes to read (128 per byte plus 1 MiB), more than the reader's budget of %d bytes (--reader-memory)", len(m.Bitcode), est, memory))
			}
			return readModule(ctx, m, useOracle)
		},
		// A cached pass only needs the module in memory again (no oracle).
		Restore: func(_ context.Context, m *Module, _ pipeline.Result) error {
			ir, err := bitcode.ReadModule(m.Bitcode)
			m.IR = ir
			return err
		},
	}
}

func readModule(ctx context.Context, m *Module, useOracle bool) pipeline.Result {
	ir, err := bitcode.ReadModuleContext(ctx, m.Bitcode)
	if ctx.Err() != nil {
		return pipeline.Stopped(ctx, "reader")
	}
	if err != nil {
		var be *bitcode.Error
		if errors.As(err, &be) {
			return pipeline.Fail(codes.Code(be.Code), be.Detail, be.Error())
		}
		return pipeline.Fail(codes.ReaderMalformed, "module", err.Error())
	}
	m.IR = ir
	res := pipeline.Pass()
	res.Features = air.Features(ir)
	if !useOracle {
		return res
	}
	var ours bytes.Buffer
	if err := bitcode.WriteLL(&ours, ir); err != nil {
		return pipeline.Fail(codes.ReaderUnsupported, "printer", err.Error())
	}
	v, err := oracle.LLVMDis(ctx, m.Bitcode, ours.String())
	switch {
	case err != nil:
		return pipeline.Unavailablef("oracle llvm-dis-19: %v", err)
	case v.OracleFailed:
		r := pipeline.UnjudgedBecause("llvm-dis-19 cannot read this module: " + v.OracleMessage)
		r.Code, r.Features = codes.ReaderOracleFailed, res.Features
		return r
	case !v.Agrees:
		r := pipeline.Fail(codes.ReaderOracleDisagrees, fmt.Sprintf("line %d", v.Line),
			fmt.Sprintf("line %d: ours %q, llvm-dis %q", v.Line, v.Ours, v.Theirs))
		r.Features = res.Features
		return r
	}
	return res
}
