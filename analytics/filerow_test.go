package analytics

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// writeV1Run writes rows as a complete run of schema version 1 (data as
// list<string>), the way airpipe wrote runs before version 2.
func writeV1Run(t testing.TB, out string, meta RunMeta, rows []Row) string {
	t.Helper()
	dir := filepath.Join(out, meta.RunID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	v1 := make([]v1Row, len(rows))
	for i, r := range rows {
		r.RunID, r.RunStarted, r.SchemaVersion = meta.RunID, meta.Started.UnixMilli(), 1
		v1[i] = v1Row{Row: r, Data: r.Data}
		v1[i].Row.Data = nil
	}
	if err := parquet.WriteFile(filepath.Join(dir, "part-00000.parquet"), v1); err != nil {
		t.Fatal(err)
	}
	meta.SchemaVersion, meta.Complete = 1, true
	meta.Parts = []PartInfo{{File: "part-00000.parquet", Rows: int64(len(rows))}}
	meta.Rows = int64(len(rows))
	meta.Counts.Modules = meta.Rows
	if err := writeMeta(dir, meta); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadsSchemaVersion1 reads a version-1 run (data a list) and a
// version-2 run (data a map) of the same rows, and gets the same rows.
func TestReadsSchemaVersion1(t *testing.T) {
	out := t.TempDir()
	rows := manyRows(30)
	rows[3].Data = []string{"compile.radv-navi21.Pre-Sched VGPRs=40", "compile.radv-navi21.VGPRs=24"}
	d1 := writeV1Run(t, out, testMeta("v1"), rows)
	d2 := writeRun(t, out, testMeta("v2"), 100, rows)
	m1, r1, err := ReadRun(d1)
	if err != nil {
		t.Fatal(err)
	}
	_, r2, err := ReadRun(d2)
	if err != nil {
		t.Fatal(err)
	}
	if m1.SchemaVersion != 1 || len(r1) != len(rows) || len(r2) != len(rows) {
		t.Fatalf("v1 meta %d, rows %d and %d", m1.SchemaVersion, len(r1), len(r2))
	}
	for i := range rows {
		a, b := normal(r1[i]), normal(r2[i])
		if a.SchemaVersion != 1 || b.SchemaVersion != 2 {
			t.Fatalf("row %d schema versions %d, %d", i, a.SchemaVersion, b.SchemaVersion)
		}
		a.RunID, a.SchemaVersion = b.RunID, b.SchemaVersion
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("row %d:\nv1 %+v\nv2 %+v", i, a, b)
		}
	}
	if got := strings.Join(r2[3].Data, ","); got != "compile.radv-navi21.Pre-Sched VGPRs=40,compile.radv-navi21.VGPRs=24" {
		t.Errorf("v2 data read back as %q", got)
	}
}

// TestWriterRefusesAmbiguousData: a data entry a map cannot hold (no "=",
// a key twice) is refused by name, never dropped.
func TestWriterRefusesAmbiguousData(t *testing.T) {
	for _, c := range []struct {
		data []string
		want string
	}{
		{[]string{"compile.x=1", "compile.x=2"}, `data key "compile.x" given twice`},
		{[]string{"no-equals"}, `data entry "no-equals" is not key=value`},
	} {
		w, err := NewWriter(t.TempDir(), testMeta("amb"))
		if err != nil {
			t.Fatal(err)
		}
		r := manyRows(1)[0]
		r.Data = c.data
		if err := w.Write(r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.data, err, c.want)
		}
	}
}
