package cpuref

import (
	"regexp"
	"strings"
)

// A defined function of the host module is internal (rewrite), but a symbol
// of its own name can still be what llc's code calls: at -O0 an llvm.memset
// becomes a call of memset@PLT, which the assembler binds to a local
// function named memset — a kernel called memset then calls itself. So
// every internal function is renamed into a namespace no C library or
// compiler runtime symbol uses before the host module is compiled.

// internalPrefix starts the name of every internal function of a compiled
// host module.
const internalPrefix = "airpipe.internal."

// internalDefine matches a define line of an internal function, capturing
// its name (bare or quoted).
var internalDefine = regexp.MustCompile(`(?m)^define internal [^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(`)

// globalName matches a global identifier: @"quoted" or @bare.
var globalName = regexp.MustCompile(`@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)`)

// renameInternal gives every internal function of host the name
// internalPrefix+name, in its definition and every reference to it.
func renameInternal(host string) string {
	internal := map[string]bool{}
	for _, m := range internalDefine.FindAllStringSubmatch(host, -1) {
		internal[unquoteName(m[1])] = true
	}
	if len(internal) == 0 {
		return host
	}
	return globalName.ReplaceAllStringFunc(host, func(tok string) string {
		name := unquoteName(tok[1:])
		if !internal[name] {
			return tok
		}
		return `@"` + internalPrefix + name + `"`
	})
}

// unquoteName is an identifier's name as LLVM reads it, escapes kept as
// written (two spellings of one name with different escapes are not
// expected in llvm-dis output).
func unquoteName(id string) string {
	if strings.HasPrefix(id, `"`) {
		return strings.TrimSuffix(strings.TrimPrefix(id, `"`), `"`)
	}
	return id
}
