package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

const inspectDescription = `Prints everything a Metal library container holds: the header, every function's
tags (known and unknown), the header extension, the dynamic header, variable and
imported-symbol lists, public and private metadata tags, and the embedded source
archive's entries. With FUNCTION, only that function (by name or index).

Examples:
  airpipe inspect default.metallib
  airpipe inspect --format json default.metallib | jq '.functions[].name'
  airpipe inspect default.metallib blit_vs
  airpipe inspect --ll default.metallib blit_vs     # the module as LLVM text (our own reader)
  airpipe inspect --spirv -o blit.spv default.metallib blit_vs   # SPIR-V disassembly + reflection`

func inspectCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("inspect", "inspect [--format text|json | --ll | --spirv [-o FILE.spv]] FILE [FUNCTION]", inspectDescription, stdout)
	asJSON := new(bool)
	jsonFormatFlag(fs, asJSON, "output format: text or json")
	asLL := fs.Bool("ll", false, "print FUNCTION's module as LLVM text, read by airpipe's own bitcode reader")
	asSPIRV := fs.Bool("spirv", false, "translate FUNCTION to SPIR-V and print its disassembly (spirv-dis) and reflection")
	spvOut := fs.StringP("output", "o", "", "with --spirv: also write the SPIR-V binary to this file")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprintln(stderr, "airpipe inspect: want FILE [FUNCTION] (see 'airpipe inspect --help')")
		return 2
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	lib, err := mtlb.Parse(data)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	if fs.NArg() == 2 {
		f := findFunction(lib, fs.Arg(1))
		if f == nil {
			fmt.Fprintf(stderr, "airpipe inspect: %s has no function %q\n", fs.Arg(0), fs.Arg(1))
			return 1
		}
		switch {
		case *asSPIRV:
			return writeSPIRV(f, *spvOut, stdout, stderr)
		case *asLL:
			return writeLL(f, stdout, stderr)
		case *asJSON:
			return writeJSON(stdout, stderr, f)
		}
		return writeOrFail(f.WriteText(stdout), stderr)
	}
	if *asLL || *asSPIRV {
		fmt.Fprintln(stderr, "airpipe inspect: --ll and --spirv need FUNCTION")
		return 2
	}
	if *asJSON {
		return writeJSON(stdout, stderr, lib)
	}
	return writeOrFail(lib.WriteText(stdout), stderr)
}

// writeLL prints a function's module as LLVM text with airpipe's reader.
func writeLL(f *mtlb.Function, stdout, stderr io.Writer) int {
	m, err := readFunction(f)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	return writeOrFail(bitcode.WriteLL(stdout, m), stderr)
}

// readFunction reads a function's module with airpipe's own reader.
func readFunction(f *mtlb.Function) (*air.Module, error) {
	raw, err := f.RawBitcode()
	if err != nil {
		return nil, err
	}
	return bitcode.ReadModule(raw)
}

// writeSPIRV translates a function's entry point and prints the SPIR-V
// disassembly, the validator's verdict and the reflection.
func writeSPIRV(f *mtlb.Function, out string, stdout, stderr io.Writer) int {
	m, err := readFunction(f)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	eps, err := air.EntryPoints(m)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	var ep *air.EntryPoint
	for i := range eps {
		if eps[i].Function != nil && (eps[i].Function.Name == f.Name || len(eps) == 1) {
			ep = &eps[i]
		}
	}
	if ep == nil {
		fmt.Fprintf(stderr, "airpipe inspect: the module names no entry point %q\n", f.Name)
		return 1
	}
	tr, err := translate.Translate(m, *ep)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		var miss *translate.MissingError
		if errors.As(err, &miss) {
			for _, x := range miss.Missing {
				fmt.Fprintf(stderr, "  missing %s %s\n", x.Code, x.Detail)
			}
		}
		return 1
	}
	if out != "" {
		if err := writeAtomic(out, tr.SPIRV); err != nil {
			fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
			return 1
		}
	}
	ctx := context.Background()
	text, err := spirv.Disassemble(ctx, tr.SPIRV)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, text)
	verdict := "spirv-val: accepted (vulkan1.2)"
	if err := spirv.Validate(ctx, tr.SPIRV); err != nil {
		verdict = err.Error()
	}
	fmt.Fprintf(stdout, "; %s\n; reflection:\n", verdict)
	return writeJSON(stdout, stderr, tr.Reflection)
}

// findFunction finds a function by name, or by index when no name matches.
func findFunction(lib *mtlb.Library, which string) *mtlb.Function {
	for i := range lib.Functions {
		if lib.Functions[i].Name == which {
			return &lib.Functions[i]
		}
	}
	var idx int
	if _, err := fmt.Sscanf(which, "%d", &idx); err == nil && fmt.Sprint(idx) == which && idx >= 0 && idx < len(lib.Functions) {
		return &lib.Functions[idx]
	}
	return nil
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return writeOrFail(enc.Encode(v), stderr)
}

func writeOrFail(err error, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintf(stderr, "airpipe: %v\n", err)
		return 1
	}
	return 0
}
