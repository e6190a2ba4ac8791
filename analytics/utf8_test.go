package analytics

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeUTF8(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{`back\slash`, `back\slash`}, // valid strings are never touched
		{"f\xff", `f\xff`},
		{"a\\b\xc3", `a\\b\xc3`},
		{"é\x80z", `é\x80z`},
	} {
		got, _ := escapeUTF8(c.in)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("escapeUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
		if _, escaped := escapeUTF8(c.in); escaped && UnescapeUTF8(got) != c.in {
			t.Errorf("UnescapeUTF8(%q) = %q, want %q", got, UnescapeUTF8(got), c.in)
		}
	}
}

// TestWriterEscapesInvalidUTF8 writes a row whose function name, source and
// a data entry are not UTF-8: the run reads back valid strings, names the
// escaped columns, and the original bytes come back; the caller's slices are
// untouched.
func TestWriterEscapesInvalidUTF8(t *testing.T) {
	out := t.TempDir()
	w, err := NewWriter(out, testMeta("utf8"))
	if err != nil {
		t.Fatal(err)
	}
	r := manyRows(1)[0]
	r.Function, r.Source = "fn\xff\\", "lib\xfe.metallib"
	data := append(make([]string, 0, 8), "a=1", "z=\xc3")
	r.Data = data
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(testMeta("utf8")); err != nil {
		t.Fatal(err)
	}
	if data[0] != "a=1" || data[1] != "z=\xc3" || len(r.Data) != 2 {
		t.Fatalf("the caller's data changed: %q", data)
	}
	_, rows, err := ReadRun(w.Dir())
	if err != nil || len(rows) != 1 {
		t.Fatalf("%v %d", err, len(rows))
	}
	got := rows[0]
	for _, s := range append([]string{got.Function, got.Source}, got.Data...) {
		if !utf8.ValidString(s) {
			t.Errorf("%q is not valid UTF-8", s)
		}
	}
	if UnescapeUTF8(got.Function) != r.Function || UnescapeUTF8(got.Source) != r.Source {
		t.Errorf("function %q source %q do not unescape to the originals", got.Function, got.Source)
	}
	if !slices.Contains(got.Data, EscapedKey+"=source,function,data") {
		t.Errorf("data %q does not name the escaped columns", got.Data)
	}
	if !slices.IsSorted(got.Data) || !strings.HasPrefix(got.Data[0], "a=") {
		t.Errorf("data %q not sorted", got.Data)
	}
}

func FuzzEscapeUTF8(f *testing.F) {
	for _, s := range []string{"", "ok", "\xff", `\x41`, "a\\\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, escaped := escapeUTF8(s)
		if !utf8.ValidString(e) {
			t.Fatalf("escapeUTF8(%q) = %q is not valid UTF-8", s, e)
		}
		if escaped && UnescapeUTF8(e) != s {
			t.Fatalf("round trip of %q: %q", s, UnescapeUTF8(e))
		}
		if !escaped && e != s {
			t.Fatalf("a valid string changed: %q → %q", s, e)
		}
	})
}
