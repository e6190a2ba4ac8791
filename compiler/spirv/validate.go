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

// Detail is a short, stable detail of the verdict: its first line without
// the line prefix, ids and numbers (each run of digits one N), at most 120
// bytes, so that rankings group like failures.
func (e *ValidationError) Detail() string {
	line, _, _ := strings.Cut(strings.TrimSpace(e.Output), "\n")
	line = strings.TrimPrefix(line, "error: line ")
	if i := strings.Index(line, ": "); i >= 0 && i < 8 {
		line = line[i+2:]
	}
	var b strings.Builder
	for _, r := range line {
		if r >= '0' && r <= '9' {
			if !strings.HasSuffix(b.String(), "N") {
				b.WriteRune('N')
			}
			continue
		}
		b.WriteRune(r)
	}
	s := b.String()
	if len(s) > 120 {
		s = s[:120]
	}
	return s
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
