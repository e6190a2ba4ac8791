package mtlb

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteTextGolden compares each small library's text dump with
// testdata/<name>.txt (rewritten with -update).
func TestWriteTextGolden(t *testing.T) {
	for _, name := range []string{"one_kernel", "three_functions", "old_style", "modern_style"} {
		lib, err := Parse(readTestdata(t, name+".metallib"))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := lib.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", name+".txt")
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: text dump differs from %s:\n%s", name, golden, buf.Bytes())
		}
	}
}

func TestJSON(t *testing.T) {
	lib, err := Parse(readTestdata(t, "modern_style.metallib"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(lib)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Functions []map[string]any `json:"functions"`
		Unknown   []string         `json:"unknown"`
		Extension struct {
			UUID string `json:"uuid"`
		} `json:"extension"`
		Source struct {
			Archives []map[string]any `json:"archives"`
		} `json:"source"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	f := got.Functions[0]
	if f["name"] != "main0" || f["type_name"] != "kernel" || f["hash_matches"] != true || f["bitcode_bytes"] != float64(lib.Functions[0].BitcodeSize) {
		t.Errorf("function JSON = %v", f)
	}
	if f["bitcode_sha256"] != lib.Functions[0].BitcodeSHA256() || f["hash"] != lib.Functions[0].BitcodeSHA256() {
		t.Errorf("hash fields = %v / %v", f["bitcode_sha256"], f["hash"])
	}
	for what, raw := range map[string][]byte{
		"bitcode":        lib.Functions[0].Bitcode,
		"source archive": lib.Source.Archives[0].Compressed,
		"tag content":    lib.Functions[0].Tags[2].Data,
	} {
		if strings.Contains(string(b), base64.StdEncoding.EncodeToString(raw)) {
			t.Errorf("JSON holds the raw bytes of the %s", what)
		}
	}
	if got.Extension.UUID == "" || len(got.Unknown) == 0 || len(got.Source.Archives) != 1 {
		t.Errorf("JSON = %s", b)
	}
}

func TestFunctionWriteText(t *testing.T) {
	lib, err := Parse(readTestdata(t, "modern_style.metallib"))
	if err != nil {
		t.Fatal(err)
	}
	var all, one bytes.Buffer
	if err := lib.WriteText(&all); err != nil {
		t.Fatal(err)
	}
	if err := lib.Functions[1].WriteText(&one); err != nil {
		t.Fatal(err)
	}
	if one.Len() == 0 || !bytes.Contains(all.Bytes(), one.Bytes()) || !strings.HasPrefix(one.String(), "  [1] mesh0 (mesh?)") {
		t.Errorf("function text not part of the library's:\n%s", one.Bytes())
	}
}
