package analytics

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestColumnsMatchRow checks Columns against Row's parquet tags, in order.
func TestColumnsMatchRow(t *testing.T) {
	rt := reflect.TypeFor[Row]()
	if rt.NumField() != len(Columns) {
		t.Fatalf("Row has %d fields, Columns documents %d", rt.NumField(), len(Columns))
	}
	for i, c := range Columns {
		tag := strings.Split(rt.Field(i).Tag.Get("parquet"), ",")[0]
		if tag != c.Name {
			t.Errorf("field %d: Row says %q, Columns says %q", i, tag, c.Name)
		}
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
