package stages

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/memo"
	"github.com/airpipe/airpipe/pipeline"
)

// translateVersion changes whenever the translate stage's verdicts change.
const translateVersion = "5"

// Translate is the translate stage: the module's entry point lowered to one
// SPIR-V module for Vulkan 1.2 and accepted by spirv-val. Every missing
// feature found is listed, not just the first. A library function is
// translated as the callee of airpipe's wrapper kernel (libwrap.EntryFor),
// its row data function_kind=library.
func Translate() pipeline.Stage[*Module] {
	valid := &memo.Answers[error]{} // one run's spirv-val verdicts (memo, samespirv.go)
	return pipeline.Stage[*Module]{
		Name: "translate", Version: translateVersion,
		Needs: []string{ArtifactIR}, Provides: []string{ArtifactTranslation, ArtifactSPIRVFile},
		// The entry point is the row's function: this stage and every
		// later one are keyed by (bitcode, function).
		Refine: FunctionKey,
		Run:    func(ctx context.Context, m *Module) pipeline.Result { return translateWith(ctx, m, valid) },
		// A cached pass only needs the SPIR-V in memory again: translation
		// is deterministic and spirv-val already judged it.
		Restore: func(_ context.Context, m *Module, _ pipeline.Result) error {
			if m.IR == nil {
				return fmt.Errorf("no module to translate")
			}
			ir, ep, _, ok := entryOf(m)
			if !ok {
				return fmt.Errorf("no entry point")
			}
			out, err := translate.Translate(ir, ep)
			m.Translation = out
			return err
		},
	}
}

// translateModule is the stage's work on m, validating on its own.
func translateModule(ctx context.Context, m *Module) pipeline.Result {
	return translateWith(ctx, m, nil)
}

// translateWith is translateModule with spirv-val's verdicts shared through
// valid (nil: none shared).
func translateWith(ctx context.Context, m *Module, valid *memo.Answers[error]) (r pipeline.Result) {
	if m.IR == nil {
		return pipeline.Fail(codes.TranslateNoIR, "reader", "no in-memory module: the reader stage did not run (--skip-stages)")
	}
	ir, ep, res, ok := entryOf(m)
	if !ok {
		return res
	}
	if m.Wrapped != nil {
		// A library function: every verdict of the row says so.
		defer func() { libraryData(m, &r) }()
	}
	out, err := translate.TranslateContext(ctx, ir, ep)
	if ctx.Err() != nil {
		return pipeline.Stopped(ctx, "translate")
	}
	if err != nil {
		return translateFailure(err)
	}
	sum := spirvSum(out.SPIRV)
	if err := validate(ctx, valid, out.SPIRV, sum); err != nil {
		return validationFailure(ctx, err)
	}
	m.Translation = out
	r = pipeline.Pass()
	r.Data = map[string]string{"entry": out.Entry, "stage": string(ep.Stage), "spirv_bytes": fmt.Sprint(len(out.SPIRV)), "spirv_sha256": sum}
	return r
}

// validate is spirv.Validate on words (whose spirvSum is sum), once per
// distinct module of the run when valid is set: the validator's acceptance
// or rejection is kept, a validator that crashed, ran out or was cancelled
// is run again.
func validate(ctx context.Context, valid *memo.Answers[error], words []byte, sum string) error {
	if valid == nil {
		return spirv.Validate(ctx, words)
	}
	err, _ := valid.Do(spirvKeyOf(sum, spirv.TargetEnv), func() (error, bool) {
		err := spirv.Validate(ctx, words)
		var v *spirv.ValidationError
		return err, ctx.Err() == nil && (err == nil || errors.As(err, &v))
	})
	return err
}

// validationFailure is the result of a spirv-val run that returned err:
// its rejection is the verdict; a validator that crashed or ran out is this
// module's failure under the engine's code; one absent, or that would not
// start, leaves the stage unavailable; only an interrupted run is
// cancelled.
func validationFailure(ctx context.Context, err error) pipeline.Result {
	var v *spirv.ValidationError
	var tf *spirv.ToolFailure
	switch {
	case errors.As(err, &v):
		return pipeline.Fail(translate.CodeInvalidSPIRV, v.Detail(), strings.TrimSpace(v.Output))
	case errors.As(err, &tf):
		// The validator itself crashed or ran out: no verdict, this
		// module's failure only.
		return pipeline.Fail(tf.Code, "spirv-val", tf.Error())
	case errors.Is(err, spirv.ErrNoValidator):
		return pipeline.Unavailablef("spirv-val: %v", err)
	case ctx.Err() != nil:
		return pipeline.Fail(pipeline.CodeCancelled, "spirv-val", err.Error())
	}
	return pipeline.Unavailablef("spirv-val: %v", err)
}

// entryOf is the module and entry point the row's function is translated
// as (libwrap.EntryFor), recording a library function's wrapper in
// m.Wrapped; what stops it is the row's result.
func entryOf(m *Module) (*air.Module, air.EntryPoint, pipeline.Result, bool) {
	name, libraryTyped := "", false
	if m.Function != nil {
		name, libraryTyped = m.Function.Name, libraryType(m.Function.Type)
	}
	t, err := libwrap.EntryFor(m.IR, name, libraryTyped)
	m.Wrapped = t.Wrapped
	var le *libwrap.Error
	var do *libwrap.DataOnlyError
	var ne *libwrap.NoEntryError
	switch {
	case errors.As(err, &le):
		r := pipeline.Fail(le.Code, le.Detail, le.Error())
		r.Data = map[string]string{"function_kind": "library", "library_kind": string(le.Kind), "library_function": le.Function}
		return nil, air.EntryPoint{}, r, false
	case errors.As(err, &do):
		// Nothing to translate: neither a failure nor a pass.
		r := pipeline.UnjudgedBecause(do.Error())
		r.Code, r.Detail = codes.TranslateDataOnly, do.Detail
		return nil, air.EntryPoint{}, r, false
	case errors.As(err, &ne):
		return nil, air.EntryPoint{}, pipeline.Fail(codes.TranslateNoEntryPoint, ne.Detail, ne.Reason), false
	case err != nil:
		return nil, air.EntryPoint{}, pipeline.Fail(codes.TranslateNoEntryPoint, "metadata", err.Error()), false
	}
	return t.Module, t.EntryPoint, pipeline.Result{}, true
}

// libraryType reports whether a container function type names a library
// function rather than a stage's entry point.
func libraryType(t uint8) bool {
	return t == mtlb.FunctionUnqualified || t == mtlb.FunctionVisible || t == mtlb.FunctionExtern
}

// libraryData marks a library function's result: function_kind=library,
// how the module declares it, its name, the wrapper's entry and ABI.
func libraryData(m *Module, r *pipeline.Result) {
	if r.Data == nil {
		r.Data = map[string]string{}
	}
	r.Data["function_kind"] = "library"
	r.Data["library_kind"] = string(m.Wrapped.Kind)
	r.Data["library_function"] = m.Wrapped.Function.Name
	r.Data["wrapper_entry"] = libwrap.Entry
	r.Data["wrapper_abi"] = libwrap.ABIVersion
}

// translateFailure is the result of a translation that returned err: its
// missing features when something is missing (a library function is set
// aside as unjudged), else an internal error of the translator, which has its
// own code: it is neither a missing feature nor spirv-val's verdict.
func translateFailure(err error) pipeline.Result {
	var miss *translate.MissingError
	if !errors.As(err, &miss) || len(miss.Missing) == 0 {
		return pipeline.Fail(codes.TranslateInternalError, "translator", err.Error())
	}
	if len(miss.Missing) == 1 && miss.Missing[0].Code == translate.CodeLibraryFunction {
		r := pipeline.UnjudgedBecause("an air.visible library function, not an entry point: Metal links it into a caller at pipeline time")
		r.Code = translate.CodeLibraryFunction
		return r
	}
	r := pipeline.Fail(miss.Missing[0].Code, miss.Missing[0].Detail, miss.Error())
	for _, f := range miss.Missing {
		r.Missing = append(r.Missing, pipeline.Finding{Code: f.Code, Detail: f.Detail})
	}
	return r
}
