package cpuref

import (
	"regexp"
	"strings"
	"unicode/utf8"
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

// globalName matches a global identifier: @"quoted" or @bare.
var globalName = regexp.MustCompile(`@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)`)

// renameInternal gives every internal function of host the name
// internalPrefix+name, in its definition and every reference to it.
func renameInternal(host string) string {
	internal := map[string]bool{}
	for _, name := range internalDefines(host) {
		internal[unquoteName(name)] = true
	}
	if len(internal) == 0 {
		return host
	}
	return replaceGlobalNames(host, func(tok string) string {
		name := unquoteName(tok[1:])
		if !internal[name] {
			return tok
		}
		return `@"` + internalPrefix + name + `"`
	})
}

// internalDefines lists the names (bare or quoted, without the '@') that
// the define lines of internal functions give, in order: a line starting
// "define internal ", whose first '@' starts a global name followed at once
// by '('. It is the regexp
//
//	(?m)^define internal [^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(
//
// by hand (the regexp over every module's text cost 2.4 s of airpipe's CPU
// on the share); FuzzInternalDefines holds the two to the same matches.
func internalDefines(host string) []string {
	const prefix = "define internal "
	var names []string
	for i := 0; i < len(host); {
		line := host[i:]
		next := len(host)
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			next = i + nl + 1
			line = line[:nl]
		}
		if strings.HasPrefix(line, prefix) {
			if at := strings.IndexByte(line, '@'); at >= 0 {
				// The name may not run past the line: a quoted one
				// stops at a newline, a bare one at any other byte.
				if end := globalNameEnd(host, i+at); end > 0 && end < len(host) && host[end] == '(' {
					names = append(names, host[i+at+1:end])
				}
			}
		}
		i = next
	}
	return names
}

// replaceGlobalNames is globalName.ReplaceAllStringFunc(s, f) by hand (the
// regexp over every module's whole text was a tenth of airpipe's own CPU):
// every match, leftmost first and not overlapping, replaced by f of it.
func replaceGlobalNames(s string, f func(tok string) string) string {
	var b strings.Builder
	last, replaced := 0, false
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '@')
		if j < 0 {
			break
		}
		at := i + j
		end := globalNameEnd(s, at)
		if end < 0 {
			i = at + 1
			continue
		}
		if !replaced {
			b.Grow(len(s) + len(s)/8)
			replaced = true
		}
		b.WriteString(s[last:at])
		b.WriteString(f(s[at:end]))
		last, i = end, end
	}
	if !replaced {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// globalNameEnd is where the globalName match starting at s[at] (an '@')
// ends, or -1 when none starts there: a quoted name runs to its closing
// quote, over any byte but a backslash, which takes the next character
// with it unless that is a newline (the regexp's `\\.`); a bare name is one
// or more of -a-zA-Z$._0-9.
func globalNameEnd(s string, at int) int {
	k := at + 1
	if k < len(s) && s[k] == '"' {
		for k++; k < len(s); {
			switch s[k] {
			case '"':
				return k + 1
			case '\\':
				if k+1 >= len(s) || s[k+1] == '\n' {
					return -1
				}
				_, w := utf8.DecodeRuneInString(s[k+1:])
				k += 1 + w
			default:
				k++
			}
		}
		return -1
	}
	start := k
	for k < len(s) && isBareNameByte(s[k]) {
		k++
	}
	if k == start {
		return -1
	}
	return k
}

// isBareNameByte reports whether c may be in a bare global name.
func isBareNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '$' || c == '.' || c == '_'
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
