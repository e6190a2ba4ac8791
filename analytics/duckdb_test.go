package analytics

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// duckScript runs one SQL statement with DuckDB's Node API and prints the
// result rows as JSON.
const duckScript = `import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const r = await con.runAndReadAll(process.argv[2]);
console.log(JSON.stringify(r.getRowObjectsJson()));
`

// TestSchemaDocQueriesRunInDuckDB runs every SQL example of docs/schema.md
// with DuckDB against results this test writes (two runs, one of them in
// two shards), and checks their answers. DuckDB is an independent reader:
// it comes from npm (@duckdb/node-api); set AIRPIPE_DUCKDB_NODE_MODULES to
// a node_modules directory holding it, or the test skips.
func TestSchemaDocQueriesRunInDuckDB(t *testing.T) {
	mods := os.Getenv("AIRPIPE_DUCKDB_NODE_MODULES")
	node, err := exec.LookPath("node")
	if mods == "" || err != nil {
		t.Skip("set AIRPIPE_DUCKDB_NODE_MODULES to a node_modules with @duckdb/node-api (npm install @duckdb/node-api), and have node on PATH")
	}
	if _, err := os.Stat(filepath.Join(mods, "@duckdb", "node-api")); err != nil {
		t.Skipf("no @duckdb/node-api under %s", mods)
	}
	script := filepath.Join(filepath.Dir(mods), "airpipe-duckdb-test.mjs")
	if err := os.WriteFile(script, []byte(duckScript), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(script)

	out := t.TempDir()
	o, n := diffRuns()
	n.Rows[2].Missing = []Finding{f("translate/unhandled-metadata", "air.arg_type_align_size")}
	n.Rows[3].Missing = []Finding{f("translate/unhandled-intrinsic", "air.fast_asin.f32"), f("translate/unhandled-intrinsic", "air.fast_acos.f32")}
	// A mismatch carries itself as its one missing entry, as stages.Record
	// writes it.
	n.Rows[1].Missing = []Finding{f("emulator/mismatch", "output[1]")}
	n.Rows[0].Data = []string{"compile.radv-navi21.Pre-Sched VGPRs=40", "compile.radv-navi21.VGPRs=24", "compile.targets=radv-navi21"}
	n.Rows[5].Data = []string{"compile.radv-navi21.VGPRs=8"}
	writeRun(t, out, o.Meta, 2, o.Rows)
	a, b := n.Meta, n.Meta
	a.Shard, b.Shard = "m1", "m2"
	writeRun(t, out, a, 2, n.Rows[:3])
	writeRun(t, out, b, 2, n.Rows[3:])
	// A run written by schema version 1 (data a list of key=value).
	v1rows := append([]Row(nil), n.Rows[:2]...)
	v1rows[1].Data = []string{"compile.radv-navi21.VGPRs=16"}
	writeV1Run(t, out, testMeta("v1"), v1rows)

	doc, err := os.ReadFile("../docs/schema.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sql\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) != 1 {
		t.Fatalf("docs/schema.md: %d sql blocks, want 1", len(blocks))
	}
	var stmts []string
	for _, s := range strings.Split(blocks[0][1], ";") {
		if strings.TrimSpace(stripComments(s)) != "" {
			stmts = append(stmts, s)
		}
	}
	if len(stmts) != 5 {
		t.Fatalf("want the funnel, sole-blocker, regression and two data queries, found %d statements", len(stmts))
	}
	run := func(sql string) []map[string]any {
		sql = strings.NewReplacer("OUT/", out+"/", "<run_id>", "new", "<old>", "old", "<new>", "new", "<v1_run>", "v1").Replace(sql)
		cmd := exec.Command(node, script, sql)
		cmd.Dir = filepath.Dir(mods)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("duckdb: %v\n%s\n%s", err, sql, errText(err))
		}
		var rows []map[string]any
		if err := json.Unmarshal(b, &rows); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		return rows
	}
	// The funnel: 14 rows in all over the three runs, version 1 included.
	var total float64
	for _, r := range run(stmts[0]) {
		total += toNum(r["modules"])
	}
	if total != 14 {
		t.Errorf("funnel over all runs counts %v modules, want 14", total)
	}
	// Sole blockers in the new run: the documented query agrees with
	// RankFeatures, feature by feature (the metadata key and the mismatch;
	// "other" misses two features).
	sole := run(stmts[1])
	if len(sole) != 2 || toNum(sole[0]["unlocks"]) != 1 {
		t.Errorf("sole blockers: %v", sole)
	}
	want := map[string]float64{}
	for _, fr := range RankFeatures(n.Rows, 0) {
		if fr.Unlocks > 0 {
			want[fr.Code+" "+fr.Detail] = float64(fr.Unlocks)
		}
	}
	got := map[string]float64{}
	for _, r := range sole {
		got[r["code"].(string)+" "+r["detail"].(string)] = toNum(r["unlocks"])
	}
	if !maps.Equal(got, want) {
		t.Errorf("documented sole-blocker query says %v, RankFeatures %v", got, want)
	}
	// Regressions: worse (compile -> reader) and gpu (device -> emulator, set aside).
	reg := run(stmts[2])
	var fns []string
	for _, r := range reg {
		fns = append(fns, r["function"].(string))
	}
	if strings.Join(fns, ",") != "gpu,worse" && strings.Join(fns, ",") != "worse,gpu" {
		t.Errorf("regressions: %v", reg)
	}
	// data is a map: an exact key, a number, no Pre-Sched VGPRs; and the
	// version-1 run's list converted the documented way.
	for i, c := range []struct {
		sql  string
		want string
	}{{stmts[3], "same=24,new=8"}, {stmts[4], "same=24,better=16"}} {
		var parts []string
		for _, r := range run(c.sql) {
			parts = append(parts, fmt.Sprintf("%s=%v", r["function"], toNum(r["vgprs"])))
		}
		if got := strings.Join(parts, ","); got != c.want {
			t.Errorf("data query %d: %s, want %s", i, got, c.want)
		}
	}
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func toNum(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		var f float64
		json.Unmarshal([]byte(x), &f)
		return f
	}
	return 0
}

func errText(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
