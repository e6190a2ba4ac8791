package stages

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/memo"
	"github.com/airpipe/airpipe/pipeline"
)

// compileVersion changes whenever the compile stage's verdicts change.
const compileVersion = "1"

// CompileOptions configure the compile stage.
type CompileOptions struct {
	// Targets are the compile targets (device.ParseTargets); empty means
	// device.DefaultTargets: RADV's null device for navi21, and lavapipe.
	Targets []string
	// ChildArgv starts a compile child (a program whose main runs
	// device.ServeCompileChild), e.g. {airpipe, "__compile-child"}. Every
	// compile runs in one, so a driver crash fails only its module.
	ChildArgv []string
	// Timeout bounds one compile.
	Timeout time.Duration
}

// Compile is the compile stage: a real driver builds the pipeline of every
// translated entry point on each target. It passes only when every target
// accepts it; a target absent here makes the stage unavailable, with the
// reason, never passed. ISA statistics go to the row's data.
func Compile(o CompileOptions) pipeline.Stage[*Module] {
	if len(o.Targets) == 0 {
		o.Targets = append([]string(nil), device.DefaultTargets...)
	}
	pools := make([]*device.CompilerPool, len(o.Targets))
	for i, t := range o.Targets {
		pools[i] = device.NewCompilerPool(t, o.ChildArgv, o.Timeout)
	}
	built := &memo.Answers[compiled]{} // one run's compiles, by target and SPIR-V (memo, samespirv.go)
	return pipeline.Stage[*Module]{
		Name: "compile", Version: compileVersion + "+" + strings.Join(o.Targets, ","),
		Needs: []string{ArtifactTranslation},
		Run:   func(ctx context.Context, m *Module) pipeline.Result { return compileModule(ctx, m, pools, built) },
		// Compiling leaves nothing in memory for later stages.
		Restore: func(context.Context, *Module, pipeline.Result) error { return nil },
	}
}

// compiled is one target's answer on one SPIR-V module: its statistics,
// or the error that stopped it.
type compiled struct {
	name  string
	stats device.Stats
	err   error
}

func compileModule(_ context.Context, m *Module, pools []*device.CompilerPool, built *memo.Answers[compiled]) pipeline.Result {
	tr := m.Translation
	if tr == nil {
		return pipeline.Fail(codes.TranslateNoIR, "translate", "no SPIR-V in memory: the translate stage did not run (--skip-stages)")
	}
	data := map[string]string{}
	var names []string
	wg := workgroupOf(m)
	for _, p := range pools {
		key := spirvKey(tr.SPIRV, p.Target(), string(tr.Reflection.Stage), tr.Entry, fmt.Sprint(wg))
		got, _ := built.Do(key, func() (compiled, bool) {
			c, err := p.Get()
			if err != nil {
				return compiled{err: err}, false
			}
			stats, err := device.CompileEntry(c, string(tr.Reflection.Stage), tr.SPIRV, tr.Entry, wg)
			p.Put(c)
			// A driver's acceptance is kept; a rejection, crash or loss
			// is compiled again by the next module that needs it.
			return compiled{name: c.Target().Name, stats: stats, err: err}, err == nil
		})
		if got.name == "" {
			return pipeline.Unavailablef("compile target %s: %v", p.Target(), got.err)
		}
		name, stats := got.name, got.stats
		if got.err != nil {
			return compileFailure(name, got.err)
		}
		names = append(names, name)
		for _, k := range stats.Keys() {
			data[name+"."+k] = stats[k]
		}
	}
	r := pipeline.Pass()
	data["targets"] = strings.Join(names, ",")
	r.Data = data
	return r
}

// workgroupOf is the kernel's default local size from the reflection.
func workgroupOf(m *Module) [3]uint32 {
	if w := m.Translation.Reflection.Workgroup; w != nil {
		return w.Default
	}
	return [3]uint32{}
}

// compileFailure turns a device error into the module's failure.
func compileFailure(target string, err error) pipeline.Result {
	var de *device.DriverError
	var ce *device.CrashError
	var se *device.SPIRVError
	var ae *device.ArgumentError
	switch {
	case errors.As(err, &de):
		return pipeline.Fail(codes.CompileDriverRejected, fmt.Sprintf("%s %s %d", target, de.Call, de.Result), err.Error())
	case errors.As(err, &ce):
		code := codes.CompileDriverCrash
		if ce.Timeout {
			code = pipeline.CodeTimeout
		}
		return pipeline.Fail(code, target, err.Error())
	case errors.As(err, &se):
		return pipeline.Fail(codes.CompileSPIRVRejected, target, err.Error())
	case errors.As(err, &ae):
		return pipeline.Fail(codes.CompileBadArgument, target, err.Error())
	case errors.Is(err, device.ErrUnavailable):
		// The target went away under the run (its child could not start
		// again): no verdict on the module.
		return pipeline.Unavailablef("compile target %s: %v", target, err)
	}
	// Anything else is no driver's verdict on the module, nor a misuse of
	// the API by the module: airpipe's own failure, by its own code.
	return pipeline.Fail(codes.CompileInternalError, target, err.Error())
}
