package harness

import (
	"encoding/json"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/memo"
)

// requestKey names everything a device is given by q (Options.ShareRuns):
// the device, entry point, SPIR-V, grid, interface, draw or capture, and each
// input buffer's index and bytes — not the request's name: a key of this
// process (memo.Key).
func requestKey(q Request) (string, error) {
	var k memo.Key
	meta, err := json.Marshal(struct {
		Device, Entry string
		Grid          cpuref.Grid
		Kernel        *cpuref.Kernel
		Draw          *Draw
		Capture       *Capture
	}{q.Device, q.Entry, q.Grid, q.Kernel, q.Draw, q.Capture})
	if err != nil {
		return "", err
	}
	k.Part(meta)
	k.Part(q.SPIRV)
	for _, in := range q.Buffers {
		k.Int(in.Index)
		k.Part(in.Bytes)
	}
	return k.String(), nil
}

// SameRun says whether a and b give a device the same run: everything
// requestKey names, the request's name aside.
func SameRun(a, b Request) bool {
	ka, err := requestKey(a)
	if err != nil {
		return false
	}
	kb, err := requestKey(b)
	return err == nil && ka == kb
}
