package cpuref

import (
	"encoding/binary"
	"encoding/hex"
	"hash/maphash"
	"os"
	"path/filepath"
	"strings"
)

// A run of this build's harness computes its outputs from what it is given
// and nothing else: the kernel's object, the spec (grid, flush, memory
// limit, schedule) and the bytes of its input buffers and substitution
// records. Library variants that share a kernel object (buildKey) run it on
// the same inputs again and again: on the share, 4,954 of 8,978 runs repeat
// one before them. So a process keeps each successful run's outputs (and
// the counts a substituting run writes) by runKey, and a run with the same
// key reads them back instead of running (runResults, at most
// runResultBytes, the oldest first). A run that fails (a timeout, a trap, a
// race) is never kept: it runs again and says so itself.

// runResultBytes bounds the run results kept in memory.
const runResultBytes = 48 << 20

// runResults is the process's kept run results.
var runResults = &byteCache{max: runResultBytes}

// runKeySeeds seed the two halves of a run's key: keys live only in this
// process, so a hash seeded per process serves, at a third of SHA-256's
// cost over the megabytes of input a run can have (4.8 against 1.6 GB/s on
// this machine), in two independent 64-bit halves: a false hit among 10⁴
// kept runs has odds near 10⁻³¹.
var runKeySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// runKey names a run of the object at kernel with spec (written for dir:
// dir's paths are set aside) over inputs and the substitution's records
// (nil: none). ok is false if the object cannot be read.
func runKey(dir, kernel, spec string, inputs []Data, sub *Substitution) (string, bool) {
	obj, err := os.ReadFile(kernel)
	if err != nil {
		return "", false
	}
	var h [2]maphash.Hash
	h[0].SetSeed(runKeySeeds[0])
	h[1].SetSeed(runKeySeeds[1])
	write := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		for i := range h {
			h[i].Write(n[:])
			h[i].Write(b)
		}
	}
	write(obj)
	write([]byte(strings.ReplaceAll(spec, dir+string(filepath.Separator), "")))
	for _, in := range inputs {
		write(binary.LittleEndian.AppendUint64(nil, uint64(in.Index)))
		write(in.Bytes)
	}
	if sub != nil {
		write(sub.Words)
	}
	return hex.EncodeToString(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, h[0].Sum64()), h[1].Sum64())), true
}

// keptRun is the kept result of a run (the outputs, each as long as its
// input, then what the harness wrote to approx.out when approx), with
// approx.out written back into dir; ok is false if none is kept.
func keptRun(key, dir string, inputs []Data, approx bool) ([]Data, bool, error) {
	b, ok := runResults.get(key)
	if !ok {
		return nil, false, nil
	}
	outs := make([]Data, len(inputs))
	for i, in := range inputs {
		if len(b) < len(in.Bytes) {
			return nil, false, nil
		}
		outs[i] = Data{Index: in.Index, Bytes: append([]byte(nil), b[:len(in.Bytes)]...)}
		b = b[len(in.Bytes):]
	}
	if approx {
		if err := os.WriteFile(filepath.Join(dir, "approx.out"), b, 0o644); err != nil {
			return nil, false, err
		}
	}
	return outs, true, nil
}

// keepRun keeps a successful run's outputs (and dir's approx.out when
// approx) as key's.
func keepRun(key, dir string, outs []Data, approx bool) {
	var b []byte
	for _, o := range outs {
		b = append(b, o.Bytes...)
	}
	if approx {
		stats, err := os.ReadFile(filepath.Join(dir, "approx.out"))
		if err != nil {
			return
		}
		b = append(b, stats...)
	}
	runResults.put(key, b)
}
