package analytics

import "testing"

// TestOutcomeSkippedStage checks where a module ends when the user excluded
// a stage: a later stage's failure or set-aside ends it there (the report
// counts it with the failures its failed_stage names), and a module that
// passed everything else ends skipped.
func TestOutcomeSkippedStage(t *testing.T) {
	base := mkRow("a.metallib", "f", "s01", "kernel", "compile", "", "", "")
	for _, c := range []struct {
		name             string
		emulator, device string
		stage, status    string
	}{
		{"device failed after a skipped emulator", "skipped", "failed", "device", "failed"},
		{"device unjudged after a skipped emulator", "skipped", "unjudged", "device", "unjudged"},
		{"device passed after a skipped emulator", "skipped", "passed", "emulator", "skipped"},
		{"emulator unjudged before the device", "unjudged", "not-run", "emulator", "unjudged"},
		{"every stage passed", "passed", "passed", "", "passed"},
	} {
		r := withStatus(withStatus(base, "emulator", c.emulator, ""), "device", c.device, "")
		if st, status := r.Outcome(); st != c.stage || status != c.status {
			t.Errorf("%s: Outcome() = (%q, %q), want (%q, %q)", c.name, st, status, c.stage, c.status)
		}
	}
}

// TestReportDeviceFailureAfterSkippedEmulator builds the report of a GPU
// host's run (--skip-stages emulator) with a device failure: the failure
// table and the count of failed modules agree, so it prints.
func TestReportDeviceFailureAfterSkippedEmulator(t *testing.T) {
	rows := []Row{
		withStatus(withStatus(mkRow("a.metallib", "ok", "s01", "kernel", "compile", "", "", ""), "emulator", "skipped", "excluded by --skip-stages"), "device", "passed", ""),
		withStatus(withStatus(mkRow("a.metallib", "bad", "s02", "kernel", "compile", "device", "device/mismatch", "buffer 0 word 3"), "emulator", "skipped", "excluded by --skip-stages"), "device", "failed", ""),
	}
	if _, err := BuildReport(sampleRun(t, rows), ReportOptions{}); err != nil {
		t.Fatal(err)
	}
}
