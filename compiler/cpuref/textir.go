package cpuref

import (
	"fmt"
	"strconv"
	"strings"
)

// textModule is what the reference reads off llvm-dis-19's text of a module:
// its lines, its numbered and named metadata, and its function headers. The
// reference never uses airpipe's own bitcode reader, so that LLVM — not the
// code under test — says what the shader is.
type textModule struct {
	lines []string
	// md maps "!14" to the operands of !14 = !{...}.
	md map[string][]string
	// named maps "air.kernel" to the operands of !air.kernel = !{...}.
	named map[string][]string
	// fcWords, when set, replaces the contract's word of the function
	// constants it lists, by index (fcsearch.go's chosen assignment).
	fcWords map[int]uint32
}

// parseText indexes llvm-dis output.
func parseText(ll string) *textModule {
	t := &textModule{lines: strings.Split(ll, "\n"), md: map[string][]string{}, named: map[string][]string{}}
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "!") {
			continue
		}
		name, body, ok := strings.Cut(l, " = ")
		if !ok {
			continue
		}
		body = strings.TrimPrefix(strings.TrimSpace(body), "distinct ")
		if !strings.HasPrefix(body, "!{") || !strings.HasSuffix(body, "}") {
			continue
		}
		ops := splitTop(body[2 : len(body)-1])
		if n := name[1:]; n != "" && (n[0] < '0' || n[0] > '9') {
			t.named[n] = ops
		} else {
			t.md[name] = ops
		}
	}
	return t
}

// splitTop splits s at commas outside brackets, braces, parentheses, angle
// brackets and quotes, trimming each part.
func splitTop(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted:
			if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == ')' || c == ']' || c == '}' || c == '>':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" || len(out) > 0 {
		out = append(out, rest)
	}
	return out
}

// mdString returns the string of a !"..." operand.
func mdString(op string) (string, bool) {
	if strings.HasPrefix(op, `!"`) && strings.HasSuffix(op, `"`) && len(op) >= 3 {
		return op[2 : len(op)-1], true
	}
	return "", false
}

// mdInt returns the value of an "iN v" operand.
func mdInt(op string) (int64, bool) {
	ty, v, ok := strings.Cut(op, " ")
	if !ok || !strings.HasPrefix(ty, "i") {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// function is one "define" line: the function's name and its parameters'
// types, in order.
type function struct {
	Name   string
	Line   int
	Params []string
}

// defined finds the definition of the function named name.
func (t *textModule) defined(name string) (*function, error) {
	for i, l := range t.lines {
		if !strings.HasPrefix(l, "define ") {
			continue
		}
		at := strings.Index(l, "@")
		if at < 0 {
			continue
		}
		n, rest, ok := symbolAt(l[at+1:])
		if !ok || n != name || !strings.HasPrefix(rest, "(") {
			continue
		}
		end := matching(rest, 0)
		if end < 0 {
			return nil, fmt.Errorf("cpuref: define line %d: unbalanced parameter list", i+1)
		}
		return &function{Name: n, Line: i, Params: paramTypes(rest[1:end])}, nil
	}
	return nil, fmt.Errorf("cpuref: no definition of @%s in the module", name)
}

// paramTypes is the types of a define or declare line's parameter list (the text between
// its parentheses), in order; nil when it has none.
func paramTypes(list string) []string {
	var ts []string
	for _, p := range splitTop(list) {
		if p != "" {
			ts = append(ts, paramType(p))
		}
	}
	return ts
}

// symbolAt reads a symbol name at the start of s (after '@'): a plain name
// or a quoted one. It returns the name and the text after it.
func symbolAt(s string) (string, string, bool) {
	if strings.HasPrefix(s, `"`) {
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return "", "", false
		}
		return s[1 : end+1], s[end+2:], true
	}
	i := 0
	for i < len(s) && (isIdent(s[i])) {
		i++
	}
	return s[:i], s[i:], i > 0
}

func isIdent(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// matching returns the index of the bracket closing the one at s[open].
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// paramType cuts the type off a parameter ("ptr addrspace(1) noalias %0",
// "<2 x i32> %1", "i16 zeroext %3").
func paramType(p string) string {
	switch {
	case strings.HasPrefix(p, "<"):
		if e := matching(p, 0); e > 0 {
			return p[:e+1]
		}
	case strings.HasPrefix(p, "ptr addrspace("):
		if e := strings.IndexByte(p, ')'); e > 0 {
			return p[:e+1]
		}
	}
	ty, _, _ := strings.Cut(p, " ")
	return ty
}
