package air

import "strings"

// QuoteName returns name as LLVM prints it after a sigil (@, %, !): bare
// when it is made only of letters, digits, '-', '$', '.', '_' and does not
// start with a digit, otherwise in double quotes with unprintable bytes,
// '"' and '\' escaped as \XX.
func QuoteName(name string) string {
	if name == "" {
		return `""`
	}
	bare := name[0] < '0' || name[0] > '9'
	for i := 0; i < len(name) && bare; i++ {
		c := name[i]
		bare = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '$' || c == '.' || c == '_'
	}
	if bare {
		return name
	}
	return `"` + EscapeString(name) + `"`
}

// EscapeString escapes s as LLVM text does inside double quotes: printable
// ASCII stays, '\' becomes '\\', '"' and everything else \XX (upper-case hex).
func EscapeString(s string) string {
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			b.WriteString(`\\`)
			continue
		}
		if c >= 0x20 && c < 0x7f && c != '"' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\\')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
