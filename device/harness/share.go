package harness

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// requestKey names everything a device is given by q (Options.ShareRuns):
// the device, entry point, SPIR-V, grid, interface, draw or capture, and each
// input buffer's index and bytes — not the request's name.
func requestKey(q Request) (string, error) {
	h := sha256.New()
	put := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
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
	put(meta)
	put(q.SPIRV)
	for _, in := range q.Buffers {
		put(binary.LittleEndian.AppendUint64(nil, uint64(in.Index)))
		put(in.Bytes)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
