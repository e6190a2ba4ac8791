package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

const packDescription = `Builds a valid Metal library from LLVM bitcode files, with correct HASH, MDSZ and
OFFT tags, so tests and users can make corpora. Each argument is NAME[:TYPE]=FILE.bc
where TYPE is vertex, fragment, kernel (the default), visible or a number (a "::"
belongs to NAME: ns::f:vertex is the vertex function ns::f).
The output is written atomically (temporary file, then rename).

Examples:
  llvm-as-19 add.ll -o add.bc && airpipe pack -o add.metallib add_kernel=add.bc
  airpipe pack -o lib.metallib --platform ios --os-version 16.0 vs:vertex=v.bc fs:fragment=f.bc`

func packCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("pack", "pack -o OUT.metallib [flags] NAME[:TYPE]=FILE.bc ...", packDescription, stdout)
	out := fs.StringP("output", "o", "", "output library (required)")
	platform := fs.String("platform", "macos", "platform: macos or ios")
	osVersion := fs.String("os-version", "14.0", "target OS version MAJOR.MINOR")
	targetOS := fs.Uint8("target-os", 0x81, "target-OS byte (0x81 macOS, 0x82 iOS, 0x87 iOS Simulator, ...); default: the --platform's own")
	airVersion := fs.String("air-version", "2.6", "AIR version recorded in VERS")
	langVersion := fs.String("language-version", "3.0", "Metal language version recorded in VERS")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "airpipe pack: "+format+"\n", a...)
		return 2
	}
	if *out == "" || fs.NArg() == 0 {
		return fail("need -o OUT.metallib and at least one NAME=FILE.bc (see 'airpipe pack --help')")
	}
	spec := &mtlb.Spec{FormatMajor: 1, FormatMinor: 2, TargetOS: *targetOS}
	switch *platform {
	case "macos":
		spec.Platform = mtlb.PlatformMacOS
	case "ios":
		spec.Platform = mtlb.PlatformIOS
		if !fs.Changed("target-os") {
			spec.TargetOS = 0x82 // iOS
		}
	default:
		return fail("--platform %q: want macos or ios", *platform)
	}
	var err error
	if spec.OSMajor, spec.OSMinor, err = majorMinor(*osVersion); err != nil {
		return fail("--os-version: %v", err)
	}
	airMaj, airMin, err := majorMinor(*airVersion)
	if err != nil {
		return fail("--air-version: %v", err)
	}
	langMaj, langMin, err := majorMinor(*langVersion)
	if err != nil {
		return fail("--language-version: %v", err)
	}
	for _, a := range fs.Args() {
		lhs, file, ok := strings.Cut(a, "=")
		if !ok || lhs == "" || file == "" {
			return fail("%q is not NAME[:TYPE]=FILE.bc", a)
		}
		name, typ := nameAndType(lhs)
		code, err := functionTypeCode(typ)
		if err != nil {
			return fail("%s: %v", a, err)
		}
		bc, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(stderr, "airpipe pack: %v\n", err)
			return 1
		}
		spec.Functions = append(spec.Functions, mtlb.SpecFunction{Name: name, Type: code, Bitcode: bc,
			AIRMajor: airMaj, AIRMinor: airMin, LangMajor: langMaj, LangMinor: langMin})
	}
	var buf bytes.Buffer
	if err := mtlb.Write(&buf, spec); err != nil {
		fmt.Fprintf(stderr, "airpipe pack: %v\n", err)
		return 1
	}
	if err := writeAtomic(*out, buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "airpipe pack: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %d functions, %d bytes\n", *out, len(spec.Functions), buf.Len())
	return 0
}

// nameAndType splits NAME[:TYPE] at its last single colon: a "::" belongs
// to the name (C++ scopes, as in Metal's function names "ns::f"), so
// "ns::f:vertex" is ns::f, vertex and "ns::f" is ns::f with no type.
func nameAndType(s string) (name, typ string) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != ':' {
			continue
		}
		if i > 0 && s[i-1] == ':' {
			i-- // the second colon of a "::"; look further left
			continue
		}
		return s[:i], s[i+1:]
	}
	return s, ""
}

func majorMinor(s string) (uint16, uint16, error) {
	a, b, ok := strings.Cut(s, ".")
	maj, err1 := strconv.ParseUint(a, 10, 16)
	min, err2 := strconv.ParseUint(b, 10, 16)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not MAJOR.MINOR", s)
	}
	return uint16(maj), uint16(min), nil
}

func functionTypeCode(s string) (uint8, error) {
	switch s {
	case "", "kernel":
		return mtlb.FunctionKernel, nil
	case "vertex":
		return mtlb.FunctionVertex, nil
	case "fragment":
		return mtlb.FunctionFragment, nil
	case "visible":
		return mtlb.FunctionVisible, nil
	}
	n, err := strconv.ParseUint(s, 0, 8)
	if err != nil {
		return 0, fmt.Errorf("function type %q: want vertex, fragment, kernel, visible or a number", s)
	}
	return uint8(n), nil
}

// writeAtomic writes data to a temporary file beside path, then renames it.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := io.Copy(tmp, bytes.NewReader(data))
	if werr == nil {
		werr = tmp.Chmod(0o644)
	}
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return werr
	}
	return os.Rename(tmp.Name(), path)
}
