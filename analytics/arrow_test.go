package analytics

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// arrowType maps the documented type names to arrow's own type strings.
var arrowType = map[string]string{
	"string":             "utf8",
	"int32":              "int32",
	"int64":              "int64",
	"timestamp[ms, UTC]": "timestamp[ms, tz=UTC]",
	"list<string>":       "list<element: utf8>",
	"list<struct<code: string, detail: string>>": "list<element: struct<code: utf8, detail: utf8>>",
	"map<string, string>":                        "map<utf8, utf8, items_non_nullable>",
}

// TestArrowReadsParts reads part files with arrow-go's Parquet reader, an
// implementation independent of the parquet-go writer, and checks every
// column's name and type against Columns (the documented schema), and the
// values of the rows, list columns included.
func TestArrowReadsParts(t *testing.T) {
	out := t.TempDir()
	rows := manyRows(40)
	dir := writeRun(t, out, testMeta("arrow"), 25, rows)

	var offset int
	for _, part := range []string{"part-00000.parquet", "part-00001.parquet"} {
		tbl := readArrow(t, filepath.Join(dir, part))
		sch := tbl.Schema()
		if sch.NumFields() != len(Columns) {
			t.Fatalf("%s: arrow sees %d columns, Columns documents %d", part, sch.NumFields(), len(Columns))
		}
		for i, c := range Columns {
			fld := sch.Field(i)
			want, ok := arrowType[c.Type]
			if !ok {
				t.Fatalf("column %s: documented type %q has no arrow mapping", c.Name, c.Type)
			}
			if fld.Name != c.Name || fld.Type.String() != want {
				t.Errorf("column %d: arrow reads %s %s, documented %s %s", i, fld.Name, fld.Type, c.Name, want)
			}
		}
		tr := array.NewTableReader(tbl, 1000)
		for tr.Next() {
			rec := tr.RecordBatch()
			for i := 0; i < int(rec.NumRows()); i++ {
				checkArrowRow(t, rec, i, rows[offset])
				offset++
			}
		}
		tr.Release()
		tbl.Release()
	}
	if offset != len(rows) {
		t.Fatalf("arrow read %d rows, wrote %d", offset, len(rows))
	}
}

func readArrow(t *testing.T, path string) arrow.Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatalf("arrow: %s: %v", path, err)
	}
	return tbl
}

// checkArrowRow compares a few scalar columns and every list column of
// arrow's row i with the row that was written.
func checkArrowRow(t *testing.T, rec arrow.RecordBatch, i int, want Row) {
	t.Helper()
	col := func(name string) arrow.Array {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) != 1 {
			t.Fatalf("no column %s", name)
		}
		return rec.Column(idx[0])
	}
	str := func(name string) string { return col(name).(*array.String).Value(i) }
	if got := str("run_id"); got != "arrow" {
		t.Errorf("row %d run_id %q", i, got)
	}
	if got := col("run_started").(*array.Timestamp).Value(i); int64(got) != testStart.UnixMilli() {
		t.Errorf("row %d run_started %d", i, got)
	}
	if got := str("function"); got != want.Function {
		t.Errorf("row %d function %q want %q", i, got, want.Function)
	}
	if got := str("translate_status"); got != want.TranslateStatus {
		t.Errorf("row %d translate_status %q want %q", i, got, want.TranslateStatus)
	}
	if got := col("bitcode_bytes").(*array.Int64).Value(i); got != want.BitcodeBytes {
		t.Errorf("row %d bitcode_bytes %d", i, got)
	}
	strList := func(name string) []string {
		l := col(name).(*array.List)
		s, e := l.ValueOffsets(i)
		vals := l.ListValues().(*array.String)
		var out []string
		for j := s; j < e; j++ {
			out = append(out, vals.Value(int(j)))
		}
		return out
	}
	if got := strings.Join(strList("features"), ","); got != strings.Join(want.Features, ",") {
		t.Errorf("row %d features %q", i, got)
	}
	m := col("data").(*array.Map)
	ms, me := m.ValueOffsets(i)
	keys, items := m.Keys().(*array.String), m.Items().(*array.String)
	var data []string
	for j := ms; j < me; j++ {
		data = append(data, keys.Value(int(j))+"="+items.Value(int(j)))
	}
	sort.Strings(data)
	if got := strings.Join(data, ","); got != strings.Join(want.Data, ",") {
		t.Errorf("row %d data %q, want %q", i, got, want.Data)
	}
	l := col("missing").(*array.List)
	s, e := l.ValueOffsets(i)
	st := l.ListValues().(*array.Struct)
	codes, details := st.Field(0).(*array.String), st.Field(1).(*array.String)
	if int(e-s) != len(want.Missing) {
		t.Fatalf("row %d missing: %d entries, want %d", i, e-s, len(want.Missing))
	}
	for j := s; j < e; j++ {
		m := want.Missing[j-s]
		if codes.Value(int(j)) != m.Code || details.Value(int(j)) != m.Detail {
			t.Errorf("row %d missing[%d] = %s %s, want %v", i, j-s, codes.Value(int(j)), details.Value(int(j)), m)
		}
	}
}
