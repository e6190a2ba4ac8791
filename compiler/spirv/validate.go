package spirv

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/proc"
)

// TargetEnv is the environment modules are validated for.
const TargetEnv = "vulkan1.2"

// ErrNoValidator reports that spirv-val (or spirv-dis) is not installed here.
var ErrNoValidator = errors.New("spirv: spirv-tools binary not found")

// ValidationError is spirv-val's rejection of a module. Output is the
// validator's text, kept as data for the record; nothing parses it.
type ValidationError struct {
	Output string
}

func (e *ValidationError) Error() string {
	return "spirv-val rejected the module: " + firstLine(e.Output)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Validate runs spirv-val --target-env vulkan1.2 on the module's bytes.
// It returns nil when the validator accepts, a *ValidationError when it
// rejects, and an error wrapping ErrNoValidator when the tool is absent.
func Validate(ctx context.Context, module []byte) error {
	_, err := runTool(ctx, "spirv-val", module, "--target-env", TargetEnv, "-")
	return err
}

// Disassemble returns spirv-dis's text for the module (no header comments,
// raw ids), for golden files and the inspect command.
func Disassemble(ctx context.Context, module []byte) (string, error) {
	out, err := runTool(ctx, "spirv-dis", module, "--no-header", "--raw-id", "--no-color", "-")
	var v *ValidationError
	if errors.As(err, &v) {
		return "", fmt.Errorf("spirv-dis failed: %s", firstLine(v.Output))
	}
	return out, err
}

// ToolFailure is a validator or disassembler that did not finish: it
// crashed, ran out of memory or time (Code is "crash", "oom" or "timeout").
// It is no verdict on the module.
type ToolFailure struct {
	Tool string
	Code codes.Code
	Msg  string
}

func (e *ToolFailure) Error() string { return e.Tool + ": " + string(e.Code) + ": " + e.Msg }

// runTool runs a SPIRV-Tools program contained (its own process group,
// killed at the context's end, at most 2 GiB of memory, output capped).
func runTool(ctx context.Context, name string, input []byte, args ...string) (string, error) {
	o, err := proc.Run(ctx, proc.Spec{Path: name, Args: args, Stdin: input, MemoryLimit: 2 << 30, MaxOutput: 1 << 20})
	switch {
	case errors.Is(err, proc.ErrNotFound):
		return "", fmt.Errorf("%w: %s: %v", ErrNoValidator, name, err)
	case err != nil:
		return "", fmt.Errorf("spirv: running %s: %w", name, err)
	case o.Cancelled:
		return "", fmt.Errorf("spirv: running %s: %w", name, ctx.Err())
	case o.Code() != "":
		return "", &ToolFailure{Tool: name, Code: o.Code(), Msg: o.Describe() + ": " + o.Tail(3)}
	}
	text := string(o.Stdout) + string(o.Stderr)
	if o.ExitCode != 0 {
		return "", &ValidationError{Output: text}
	}
	return string(o.Stdout), nil
}
