package analytics

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// EscapedKey is the data entry that names the columns of a row whose text
// was not valid UTF-8 when the row was written: "results.escaped=function,source".
const EscapedKey = "results.escaped"

// escapeUTF8 makes a string that is not valid UTF-8 valid, reversibly:
// every backslash is doubled and every byte that does not begin a valid
// UTF-8 sequence is written \xNN. Valid strings are returned unchanged.
// UnescapeUTF8 undoes it.
func escapeUTF8(s string) (string, bool) {
	if utf8.ValidString(s) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteString(s[i : i+n])
		}
		i += max(n, 1)
	}
	return b.String(), true
}

// UnescapeUTF8 returns the original bytes of a column value that the row's
// EscapedKey entry names (escapeUTF8's inverse).
func UnescapeUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch {
			case s[i+1] == '\\':
				b.WriteByte('\\')
				i++
				continue
			case s[i+1] == 'x' && i+3 < len(s):
				var v byte
				if _, err := fmt.Sscanf(s[i+2:i+4], "%02x", &v); err == nil {
					b.WriteByte(v)
					i += 3
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// validUTF8 escapes, in place, every string of the row that is not valid
// UTF-8 (Parquet's strings are UTF-8; DuckDB refuses a file with one that
// is not) and names the escaped columns in the row's data.
func validUTF8(r *Row) {
	v := reflect.ValueOf(r).Elem()
	if !escapeValue(v, false) {
		return
	}
	// The slices may be shared with the caller's row: escape copies.
	r.Missing, r.Features, r.Data = slices.Clone(r.Missing), slices.Clone(r.Features), slices.Clone(r.Data)
	var escaped []string
	t := v.Type()
	for i := range t.NumField() {
		col, _, _ := strings.Cut(t.Field(i).Tag.Get("parquet"), ",")
		if col == "-" {
			// data is stored by fileRow under its JSON name.
			col, _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
		}
		if escapeValue(v.Field(i), true) {
			escaped = append(escaped, col)
		}
	}
	if len(escaped) > 0 {
		r.Data = append(r.Data, EscapedKey+"="+strings.Join(escaped, ","))
		sort.Strings(r.Data)
	}
}

// escapeValue reports whether a string, or a string in a slice or struct,
// is not valid UTF-8; with apply it escapes them in place.
func escapeValue(f reflect.Value, apply bool) bool {
	changed := false
	switch f.Kind() {
	case reflect.String:
		if s, ok := escapeUTF8(f.String()); ok {
			if apply {
				f.SetString(s)
			}
			changed = true
		}
	case reflect.Slice:
		for j := range f.Len() {
			if escapeValue(f.Index(j), apply) {
				changed = true
			}
		}
	case reflect.Struct:
		for j := range f.NumField() {
			if escapeValue(f.Field(j), apply) {
				changed = true
			}
		}
	}
	return changed
}
