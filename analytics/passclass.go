package analytics

import "strings"

// Pass classes of a judged stage (emulator, device): how a pass was reached.
const (
	// PassBitExact: every compared word equal as its element type.
	PassBitExact = "bit-exact"
	// PassWithinBound: float words of order-only operations (dot, mix ...)
	// within the stated ULP bound (data words_within_bound).
	PassWithinBound = "within-ulp-bound"
	// PassApproximate: the device's results of approximate operations
	// substituted into the reference, each checked against its MSL §8.4
	// bound (data pass_class=approximate-substituted).
	PassApproximate = "approximate-substituted"
)

// PassClass is the class of a row's pass at stage (emulator or device),
// from the stage's data: its pass_class, else within-ulp-bound when some
// word needed the bound, else bit-exact.
func (r *Row) PassClass(stage string) string {
	class, within := "", false
	for _, d := range r.Data {
		rest, ok := strings.CutPrefix(d, stage+".")
		if !ok {
			continue
		}
		if v, ok := strings.CutPrefix(rest, "pass_class="); ok {
			class = v
		}
		if v, ok := strings.CutPrefix(rest, "words_within_bound="); ok && v != "0" {
			within = true
		}
	}
	switch {
	case class != "":
		return class
	case within:
		return PassWithinBound
	}
	return PassBitExact
}

// passClassTable counts the emulator's and the device's passes by class:
// bit-exact passes apart from those within a stated bound or with the
// device's approximate results substituted.
func passClassTable(rows []Row) *Table {
	type key struct{ stage, class string }
	c := newCounter[key]()
	var passed int64 // counted from the status columns, apart from the classes
	for i := range rows {
		r := &rows[i]
		if r.EmulatorStatus == "passed" {
			passed++
		}
		if r.DeviceStatus == "passed" {
			passed++
		}
		for _, s := range []string{"emulator", "device"} {
			if r.Status(s) == "passed" {
				c.add(key{s, r.PassClass(s)}, 1)
			}
		}
	}
	t := &Table{
		Name: "pass_classes", Title: "How passes were reached",
		Note:    "passes of the emulator and device stages: bit-exact; within-ulp-bound (order-only operations, words within the stated ULP bound); approximate-substituted (the device's approximate results, each within its MSL §8.4 bound, substituted into the reference)",
		Columns: []string{"stage", "pass class", "modules"},
		Sums:    []Sum{{Column: 2, Total: passed, What: "the emulator and device passes"}},
	}
	for _, k := range c.ranked(func(a, b key) bool {
		if a.stage != b.stage {
			return stageIndex(a.stage) < stageIndex(b.stage)
		}
		return a.class < b.class
	}) {
		t.Rows = append(t.Rows, []any{k.stage, k.class, c.n[k]})
	}
	return t
}
