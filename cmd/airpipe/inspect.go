package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

const inspectDescription = `Prints everything a Metal library container holds: the header, every function's
tags (known and unknown), the header extension, the dynamic header, variable and
imported-symbol lists, public and private metadata tags, and the embedded source
archive's entries. With FUNCTION, only that function (by name or index).

Examples:
  airpipe inspect default.metallib
  airpipe inspect --json default.metallib | jq '.functions[].name'
  airpipe inspect default.metallib blit_vs
  airpipe inspect --ll default.metallib blit_vs     # the module as LLVM text (our own reader)`

func inspectCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("inspect", "inspect [--json | --ll] FILE [FUNCTION]", inspectDescription, stdout)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	asLL := fs.Bool("ll", false, "print FUNCTION's module as LLVM text, read by airpipe's own bitcode reader")
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
		case *asLL:
			return writeLL(f, stdout, stderr)
		case *asJSON:
			return writeJSON(stdout, stderr, f)
		}
		return writeOrFail(f.WriteText(stdout), stderr)
	}
	if *asLL {
		fmt.Fprintln(stderr, "airpipe inspect: --ll needs FUNCTION")
		return 2
	}
	if *asJSON {
		return writeJSON(stdout, stderr, lib)
	}
	return writeOrFail(lib.WriteText(stdout), stderr)
}

// writeLL prints a function's module as LLVM text with airpipe's reader.
func writeLL(f *mtlb.Function, stdout, stderr io.Writer) int {
	raw, err := f.RawBitcode()
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	m, err := bitcode.ReadModule(raw)
	if err != nil {
		fmt.Fprintf(stderr, "airpipe inspect: %v\n", err)
		return 1
	}
	return writeOrFail(bitcode.WriteLL(stdout, m), stderr)
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
