package spirv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
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

func runTool(ctx context.Context, name string, input []byte, args ...string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrNoValidator, name, err)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err = cmd.Run()
	if err == nil {
		return out.String(), nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && ctx.Err() == nil {
		return "", &ValidationError{Output: out.String()}
	}
	return "", fmt.Errorf("spirv: running %s: %w", name, err)
}
