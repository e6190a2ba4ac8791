// Package oracle compares compiler/bitcode's printed module with the text
// llvm-dis-19 prints for the same bitcode.
//
// Normalisation, applied to both texts before they are compared line by
// line (see README.md):
//
//   - the "; ModuleID = ..." line is dropped (it names llvm-dis's input file);
//   - llvm-dis's "source_filename = ..." line is dropped when it names the
//     temporary input file (LLVM defaults the source file name to the
//     module identifier when the bitcode has no SOURCE_FILENAME record;
//     our printer then prints no source_filename line);
//   - function attribute groups are dropped: "; Function Attrs: ..."
//     comment lines, "attributes #N = { ... }" lines, and the " #N"
//     references after a function header or a call. LLVM upgrades old
//     function attributes (readnone, argmemonly, ...) into memory(...)
//     while reading; the translation reads none of them. Return and
//     parameter attributes are kept and compared.
//   - the final newline of each text is ignored; nothing else is changed:
//     declaration order, metadata numbering, value numbering, types,
//     constants, flags, alignments and predecessor comments must agree.
package oracle

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/airpipe/airpipe/internal/proc"
)

// Tool is the reference disassembler.
const Tool = "llvm-dis-19"

// Verdict is the result of one comparison.
type Verdict struct {
	// Agrees is true when the normalised texts are equal.
	Agrees bool
	// Line is the first differing line (1-based, in the normalised texts); 0 when they agree.
	Line int
	// Ours and Theirs are that line in our text and in llvm-dis's ("" past the end).
	Ours, Theirs string
	// OracleFailed is true when llvm-dis could not read the module;
	// OracleMessage then holds its message. That is neither a pass nor our failure.
	OracleFailed  bool
	OracleMessage string
}

// ErrNoTool is returned when llvm-dis-19 is not installed.
var ErrNoTool = errors.New("oracle: " + Tool + " not found in PATH")

// Available reports whether llvm-dis-19 can be run.
func Available() bool {
	_, err := exec.LookPath(Tool)
	return err == nil
}

// LLVMDis runs llvm-dis-19 on bitcode and compares its normalised output
// with ours (our printer's text for the same module).
func LLVMDis(ctx context.Context, bitcode []byte, ours string) (Verdict, error) {
	if !Available() {
		return Verdict{}, ErrNoTool
	}
	dir, err := os.MkdirTemp("", "airpipe-oracle-")
	if err != nil {
		return Verdict{}, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "module.bc")
	if err := os.WriteFile(in, bitcode, 0o600); err != nil {
		return Verdict{}, err
	}
	// Contained: its own process group, killed with ctx, 4 GiB at most.
	o, err := proc.Run(ctx, proc.Spec{Path: Tool, Args: []string{"-o", "-", in}, MemoryLimit: 4 << 30, MaxOutput: 256 << 20})
	switch {
	case err != nil:
		return Verdict{}, fmt.Errorf("oracle: running %s: %w", Tool, err)
	case o.Cancelled || o.TimedOut:
		return Verdict{}, fmt.Errorf("oracle: %s %s", Tool, o.Describe())
	case o.Truncated:
		return Verdict{}, fmt.Errorf("oracle: %s printed more than 256 MiB", Tool)
	case o.ExitCode != 0:
		// llvm-dis could not read it (or crashed on it): not our failure,
		// not our pass.
		msg := strings.TrimSpace(string(o.Stderr))
		if o.Signal != "" {
			msg = o.Describe() + ": " + msg
		}
		return Verdict{OracleFailed: true, OracleMessage: msg}, nil
	}
	return Compare(ours, string(o.Stdout), in), nil
}

// Compare normalises both texts (inputPath is the file name llvm-dis was
// given, for its default source_filename) and returns the first difference.
func Compare(ours, theirs, inputPath string) Verdict {
	a := Normalise(ours, "")
	b := Normalise(theirs, inputPath)
	n := len(a)
	if len(b) > n {
		n = len(b)
	}
	for i := 0; i < n; i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y || i >= len(a) || i >= len(b) {
			return Verdict{Line: i + 1, Ours: x, Theirs: y}
		}
	}
	return Verdict{Agrees: true}
}

var attrRef = regexp.MustCompile(` #[0-9]+`)

// Normalise returns text's lines after the normalisation documented on the package.
func Normalise(text, inputPath string) []string {
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	out := lines[:0:0]
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "; ModuleID = "):
			continue
		case inputPath != "" && l == `source_filename = "`+inputPath+`"`:
			continue
		case strings.HasPrefix(l, "; Function Attrs: "):
			continue
		case strings.HasPrefix(l, "attributes #"):
			continue
		}
		if strings.HasPrefix(l, "define ") || strings.HasPrefix(l, "declare ") || strings.Contains(l, "call ") {
			l = stripAttrRefs(l)
		}
		out = append(out, l)
	}
	// dropping attribute lines can leave two blank lines in a row where the
	// attributes section was; keep one
	res := out[:0]
	for i, l := range out {
		if l == "" && i > 0 && out[i-1] == "" {
			continue
		}
		res = append(res, l)
	}
	// and a blank line at the end where the section was the module's last
	for len(res) > 0 && res[len(res)-1] == "" {
		res = res[:len(res)-1]
	}
	return res
}

// stripAttrRefs removes " #N" attribute-group references outside quoted
// strings and metadata.
func stripAttrRefs(l string) string {
	if !strings.Contains(l, " #") {
		return l
	}
	var b strings.Builder
	inQuote := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '"' {
			inQuote = !inQuote
		}
		if !inQuote && c == ' ' && i+1 < len(l) && l[i+1] == '#' {
			if loc := attrRef.FindStringIndex(l[i:]); loc != nil && loc[0] == 0 {
				i += loc[1] - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
