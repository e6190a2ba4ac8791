package analytics

import "testing"

// TestPassClasses: each pass is counted in its class, and the table sums to
// the passes of the status columns.
func TestPassClasses(t *testing.T) {
	rows := []Row{
		{EmulatorStatus: "passed", Data: []string{"emulator.words_compared=8"}},
		{EmulatorStatus: "passed", Data: []string{"emulator.words_within_bound=3"}},
		{EmulatorStatus: "passed", DeviceStatus: "passed", Data: []string{"emulator.pass_class=approximate-substituted", "device.words_within_bound=0"}},
		{EmulatorStatus: "failed", DeviceStatus: "passed", Data: []string{"emulator.pass_class=approximate-substituted", "device.pass_class=approximate-substituted"}},
		{EmulatorStatus: "unjudged"},
	}
	want := map[[2]string]int64{
		{"emulator", PassBitExact}: 1, {"emulator", PassWithinBound}: 1, {"emulator", PassApproximate}: 1,
		{"device", PassBitExact}: 1, {"device", PassApproximate}: 1,
	}
	tab := passClassTable(rows)
	if err := CheckAll([]*Table{tab}); err != nil {
		t.Fatal(err)
	}
	got := map[[2]string]int64{}
	for _, r := range tab.Rows {
		got[[2]string{r[0].(string), r[1].(string)}] = r[2].(int64)
	}
	if len(got) != len(want) {
		t.Fatalf("classes %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%v: %d, want %d", k, got[k], n)
		}
	}
	// A row whose class cannot be counted (a passed status the loop misses)
	// makes the table refuse: the planted count.
	tab.Rows[0][2] = tab.Rows[0][2].(int64) + 1
	if err := CheckAll([]*Table{tab}); err == nil {
		t.Fatal("a class count off by one was not refused")
	}
}
