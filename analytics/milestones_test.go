package analytics

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestDefaultMilestonesParse(t *testing.T) {
	ms, err := LoadMilestones("")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 6 || ms[0].ID != "M0" || ms[4].ID != "M4" || ms[5].ID != "M5" {
		t.Fatalf("%+v", ms)
	}
}

func TestMilestonesConfigErrors(t *testing.T) {
	for _, tc := range []struct{ cfg, want string }{
		{`{"milestones": []}`, "no milestones"},
		{`{"milestones": [{"id": "A", "stage": "linker", "target_count": 1}]}`, "stage \"linker\""},
		{`{"milestones": [{"id": "A", "stage": "reader"}]}`, "exactly one"},
		{`{"milestones": [{"id": "A", "stage": "reader", "target_count": 1, "target_percent": 5}]}`, "exactly one"},
		{`{"milestones": [{"id": "A", "stage": "reader", "target_percent": 120}]}`, "not in (0, 100]"},
		{`{"milestones": [{"id": "A", "stage": "reader", "target_count": 1}, {"id": "A", "stage": "reader", "target_count": 1}]}`, "duplicate"},
		{`{"milestones": [{"id": "A", "stage": "reader", "target_count": 1, "colour": "red"}]}`, "unknown field"},
	} {
		if _, err := ParseMilestones([]byte(tc.cfg)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		p, s string
		want bool
	}{
		{"call:air.*", "call:air.fast_acos.f32", true},
		{"call:air.*", "meta:air.vertex", false},
		{"call:air.*texture*", "call:air.sample_texture_2d.v4f32", true},
		{"*x*", "abc", false},
		{"a*a", "a", false},
		{"a*a", "aa", true},
		{"fragment", "fragment", true},
	} {
		if got := glob(tc.p, tc.s); got != tc.want {
			t.Errorf("glob(%q, %q) = %v", tc.p, tc.s, got)
		}
	}
}

// milestoneRuns makes three runs a day apart in which the fragment
// shaders progress.
func milestoneRuns(t *testing.T) []Run {
	t.Helper()
	var runs []Run
	for day, reached := range []string{"reader", "compile", "device"} {
		rows := []Row{
			mkRow("a", "clear", "s1", "fragment", reached, "", "", ""),
			mkRow("a", "k", "s2", "kernel", "reader", "translate", "translate/unhandled-intrinsic", "air.atomic"),
			mkRow("a", "vis", "s3", "visible", "container", "reader", "reader/unknown-record", "X"),
		}
		rows[1].Features = []string{"call:air.atomic.add"}
		if day == 0 {
			rows[1].StageReached, rows[1].FailedStage = "container", "reader"
			rows[1].setStatus("reader", "failed", 1)
			rows[1].setStatus("translate", "not-run", 0)
		}
		m := testMeta("day" + string(rune('0'+day)))
		m.Started = testStart.Add(time.Duration(day) * 24 * time.Hour)
		runs = append(runs, Run{Meta: m, Rows: rows})
		runs[day].Meta.Complete = true
		runs[day].Meta.Rows = int64(len(rows))
	}
	return runs
}

func TestMilestonesAcrossRuns(t *testing.T) {
	ms, _ := LoadMilestones("")
	runs := milestoneRuns(t)
	res, err := EvaluateMilestones(ms, runs)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]MilestoneResult{}
	for _, r := range res {
		by[r.Milestone.ID] = r
	}
	// M0: 2 of 3 reach reader in the latest run; never all.
	if m := by["M0"]; m.Latest.Met || m.Latest.Reached != 2 || m.Latest.Selected != 3 || m.FirstMet != nil {
		t.Errorf("M0: %+v", m)
	}
	// M1: the fragment shader reaches the emulator on day 2.
	if m := by["M1"]; !m.Latest.Met || m.FirstMet == nil || m.FirstMet.RunID != "day2" {
		t.Errorf("M1: %+v", m)
	}
	// M2: entry points without air.* calls: only "clear"; it reaches compile from day 1.
	if m := by["M2"]; !m.Latest.Met || m.Latest.Selected != 1 || m.FirstMet.RunID != "day1" {
		t.Errorf("M2: %+v", m)
	}
	// M3: no module calls a texture function: nothing selected is never met.
	if m := by["M3"]; m.Latest.Met || m.Latest.Selected != 0 {
		t.Errorf("M3: %+v", m)
	}
	var b bytes.Buffer
	if err := Render(&b, MilestonesDocument(res, runs, nil), FormatText); err != nil {
		t.Fatal(err)
	}
	golden(t, "milestones.txt", b.Bytes())

	// A row that does not add up is refused.
	tb := MilestonesTable(res)
	tb.Rows[0][6] = int64(7)
	if err := tb.Check(); err == nil || !strings.Contains(err.Error(), `"milestones"`) {
		t.Fatalf("broken row accepted: %v", err)
	}
}

// FuzzParseMilestones feeds arbitrary bytes to the milestones parser,
// seeded with the default file: it must return milestones that pass its own
// checks, or an error, and never panic.
func FuzzParseMilestones(f *testing.F) {
	f.Add(DefaultMilestonesJSON)
	f.Add([]byte(`{"milestones": [{"id": "A", "stage": "reader", "target_count": 1}]}`))
	f.Add([]byte(`{"milestones": [{"id": "A", "stage": "reader", "target_percent": 0.5, "where": {"with_feature": ["**"]}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := ParseMilestones(b)
		if err != nil {
			return
		}
		runs := []Run{{Rows: manyRows(20)}}
		runs[0].Rows[0].Features = []string{"call:air.sample_texture_2d"}
		res, err := EvaluateMilestones(ms, runs)
		if err != nil {
			t.Fatal(err)
		}
		if err := MilestonesTable(res).Check(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestMilestoneStageNotInRun(t *testing.T) {
	ms, _ := LoadMilestones("")
	runs := milestoneRuns(t)
	runs[2].Meta.Stages = []string{"container"}
	res, err := EvaluateMilestones(ms, runs)
	if err != nil {
		t.Fatal(err)
	}
	if l := res[1].Latest; l.Met || !l.StageNotRun {
		t.Fatalf("M1 on a container-only run: %+v", l)
	}
	if !strings.Contains(MilestonesTable(res).Rows[1][3].(string), "stage not in run") {
		t.Fatal("table does not say the stage was not run")
	}
}
