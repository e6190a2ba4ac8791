package refcache

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/sealed"
)

// TestRefusesDamage: a stored reference is used only when it is exactly
// what this build stored; a flipped byte, an unsealed entry (as builds
// before the checksum wrote them), a link or a FIFO is a counted miss,
// never a reference.
func TestRefusesDamage(t *testing.T) {
	key := "module|k|simd=8"
	body, err := json.Marshal(entry{Key: key, Result: &cpuref.Result{Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1, 2, 3, 4}}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		plant func(t *testing.T, p string)
		hit   bool
	}{
		{"intact", func(t *testing.T, p string) { mustDo(t, sealed.Write(p, body, MaxEntry)) }, true},
		{"flipped byte", func(t *testing.T, p string) {
			mustDo(t, sealed.Write(p, body, MaxEntry))
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, []byte(`"Index":0`))
			b[i+8] = '1' // still JSON: another output index
			mustDo(t, os.WriteFile(p, b, 0o644))
		}, false},
		{"unsealed", func(t *testing.T, p string) { mustDo(t, os.WriteFile(p, body, 0o644)) }, false},
		{"symlink", func(t *testing.T, p string) {
			other := filepath.Join(t.TempDir(), "e")
			mustDo(t, sealed.Write(other, body, MaxEntry))
			mustDo(t, os.Symlink(other, p))
		}, false},
		{"fifo", func(t *testing.T, p string) { mustDo(t, syscall.Mkfifo(p, 0o644)) }, false},
		{"another key", func(t *testing.T, p string) {
			b, _ := json.Marshal(entry{Key: key + "x", Result: &cpuref.Result{}})
			mustDo(t, sealed.Write(p, b, MaxEntry))
		}, false},
		{"neither result nor reason", func(t *testing.T, p string) {
			b, _ := json.Marshal(entry{Key: key})
			mustDo(t, sealed.Write(p, b, MaxEntry))
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Dir(t.TempDir())
			tc.plant(t, d.path(key))
			before := Refused()
			res, hit, err := d.Get(key, "base")
			if hit != tc.hit || err != nil {
				t.Fatalf("hit %v (%v), want %v (%+v)", hit, err, tc.hit, res)
			}
			if hit && res.Outputs[0].Index != 0 {
				t.Fatalf("wrong reference %+v", res)
			}
			if n := Refused() - before; n != map[bool]int64{true: 0, false: 1}[tc.hit] {
				t.Errorf("refused count grew by %d", n)
			}
		})
	}
}

// TestPutByWidth: a reference that uses no SIMD-group is stored under the
// base key and serves every width; one that ran at 8 lanes, or a reason
// that depends on the width, only its own key; an error that is not a
// verdict is not stored.
func TestPutByWidth(t *testing.T) {
	d := Dir(t.TempDir())
	d.Put("k8", "base", &cpuref.Result{Outputs: []cpuref.Data{{Index: 0}}}, nil)
	if _, hit, _ := d.Get("k32", "base"); !hit {
		t.Error("a width-independent reference did not serve another width")
	}
	d = Dir(t.TempDir())
	d.Put("k8", "base", &cpuref.Result{SIMDWidth: 8}, nil)
	if _, hit, _ := d.Get("k32", "base"); hit {
		t.Error("a reference computed at 8 lanes served a device of 32")
	}
	if res, hit, _ := d.Get("k8", "base"); !hit || res.SIMDWidth != 8 {
		t.Error("a reference computed at 8 lanes did not serve 8")
	}
	d = Dir(t.TempDir())
	d.Put("k8", "base", nil, &cpuref.NotJudgeableError{Kind: "texture", SIMD: true})
	if _, hit, err := d.Get("k8", "base"); !hit || err == nil {
		t.Errorf("a stored reason was not returned: %v", err)
	}
	d = Dir(t.TempDir())
	d.Put("k8", "base", nil, os.ErrDeadlineExceeded)
	if _, hit, _ := d.Get("k8", "base"); hit {
		t.Error("an error that is not a verdict was stored")
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPrune: Prune removes the entries whose key keep rejects and those
// whose key cannot be read, and keeps the rest readable.
func TestPrune(t *testing.T) {
	d := Dir(t.TempDir())
	res := &cpuref.Result{Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1, 2, 3, 4}}}}
	d.Put("m|k|build=vcs:aaaa|family=x", "m|k|build=vcs:aaaa|family=x", res, nil)
	d.Put("m|k|build=exe:bbbb", "m|k|build=exe:bbbb", res, nil)
	d.Put("n|k|build=vcs:aaaa", "n|k|build=vcs:aaaa", nil, &cpuref.NotJudgeableError{Kind: cpuref.KindTimeout})
	mustDo(t, os.WriteFile(d.path("unsealed"), []byte(`{"key":"u|build=vcs:aaaa"}`), 0o644))
	p, err := d.Prune(func(key string) bool { return strings.Contains(key, "|build=vcs:aaaa") }, false)
	mustDo(t, err)
	if p.Kept != 2 || p.Removed != 2 {
		t.Errorf("kept %d, removed %d; want 2 and 2", p.Kept, p.Removed)
	}
	if got, hit, err := d.Get("m|k|build=vcs:aaaa|family=x", "m|k|build=vcs:aaaa|family=x"); !hit || err != nil || len(got.Outputs) != 1 {
		t.Errorf("the kept reference: %v %v %+v", hit, err, got)
	}
	if _, hit, _ := d.Get("m|k|build=exe:bbbb", "m|k|build=exe:bbbb"); hit {
		t.Error("the other build's reference is still there")
	}
	for _, head := range []string{`{"key":"k"}`, `{"result":{},"key":"k"}`, `["key","k"]`, `{"key":`} {
		if key, ok := leadingKey([]byte(head)); ok != (head == `{"key":"k"}`) || (ok && key != "k") {
			t.Errorf("leadingKey(%s) = %q, %v", head, key, ok)
		}
	}
}

// FuzzLeadingKey: the key leadingKey finds at the start of a stored entry
// is the entry's key, whatever the key holds; no input makes it panic.
func FuzzLeadingKey(f *testing.F) {
	f.Add("m|k|build=vcs:aaaa", []byte(`{"key":"k"}`))
	f.Add("\"quoted\\\" <&> \u2028", []byte(`{"key":`))
	f.Fuzz(func(t *testing.T, key string, head []byte) {
		leadingKey(head)
		b, err := json.Marshal(entry{Key: key, Result: &cpuref.Result{}})
		if err != nil {
			t.Fatal(err)
		}
		var want entry
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if got, ok := leadingKey(b); !ok || got != want.Key {
			t.Errorf("leadingKey(%s) = %q, %v; want %q", b, got, ok, want.Key)
		}
	})
}
