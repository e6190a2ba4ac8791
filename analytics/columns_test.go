package analytics

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestColumnsMatchRow checks Columns against the file row's parquet
// columns (Row's fields, then data as a map), in order.
func TestColumnsMatchRow(t *testing.T) {
	fields := parquet.SchemaOf(fileRow{}).Fields()
	if len(fields) != len(Columns) {
		t.Fatalf("fileRow has %d columns, Columns documents %d", len(fields), len(Columns))
	}
	for i, c := range Columns {
		if fields[i].Name() != c.Name {
			t.Errorf("column %d: fileRow says %q, Columns says %q", i, fields[i].Name(), c.Name)
		}
	}
	// Row's fields are the file's columns but data, which fileRow stores.
	rt := reflect.TypeFor[Row]()
	if rt.NumField() != len(Columns) || rt.Field(rt.NumField()-1).Name != "Data" {
		t.Fatalf("Row has %d fields (last %s); want %d ending in Data", rt.NumField(), rt.Field(rt.NumField()-1).Name, len(Columns))
	}
}

// TestSchemaDocMatchesColumns checks docs/schema.md's column table lists
// exactly Columns, with the same types, in order.
func TestSchemaDocMatchesColumns(t *testing.T) {
	b, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if !strings.Contains(doc, "schema_version "+strconv.Itoa(SchemaVersion)) {
		t.Errorf("docs/schema.md does not state schema_version %d", SchemaVersion)
	}
	sec := doc[strings.Index(doc, "## Columns"):]
	sec = sec[:strings.Index(sec[3:], "\n## ")+3]
	re := regexp.MustCompile("(?m)^\\| `([a-z0-9_]+)` \\| ([^|]+) \\|")
	got := re.FindAllStringSubmatch(sec, -1)
	if len(got) != len(Columns) {
		t.Fatalf("docs/schema.md documents %d columns, Columns has %d", len(got), len(Columns))
	}
	for i, m := range got {
		if m[1] != Columns[i].Name || strings.TrimSpace(m[2]) != Columns[i].Type {
			t.Errorf("doc column %d: %s %s, want %s %s", i, m[1], m[2], Columns[i].Name, Columns[i].Type)
		}
	}
}
