package stages

import (
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestAsDeviceKeepsAgreement: the device stage's renaming of the emulator's
// keys keeps the key that compares the two stages recognisable.
func TestAsDeviceKeepsAgreement(t *testing.T) {
	r := asDevice(pipeline.Result{Code: codes.EmulatorMismatch, Data: map[string]string{"matches_emulator": "same", "emulator_device": "NVIDIA H200", "output_sha256": "x"},
		Missing: []pipeline.Finding{{Code: codes.EmulatorNoReference, Detail: "approximate-op air.fast_pow.f32"}}})
	if r.Code != "device/mismatch" || r.Data["matches_emulator"] != "same" || r.Data["device"] != "NVIDIA H200" || r.Data["output_sha256"] != "x" {
		t.Fatalf("asDevice: %s %v", r.Code, r.Data)
	}
	if len(r.Missing) != 1 || r.Missing[0] != (pipeline.Finding{Code: "device/no-reference", Detail: "approximate-op air.fast_pow.f32"}) {
		t.Fatalf("asDevice missing: %+v", r.Missing)
	}
}
