package cpuref

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/airpipe/airpipe/internal/memo"
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

// The inputs of those runs are the input families' fills (refill), and they
// repeat as often: familyBytes keeps them too.

// runResultBytes bounds the run results kept in memory.
const runResultBytes = 48 << 20

// runResults is the process's kept run results.
var runResults = &byteCache{max: runResultBytes}

// runKey names a run of prog's kernel object with spec (written for dir:
// dir's paths are set aside) over inputs and the substitution's records
// (nil: none) under timeout (a run that finished under one timeout may
// not under a shorter one): a key of this process (memo.Key). ok is false
// if the object cannot be read.
func runKey(dir string, prog program, spec string, inputs []Data, sub *Substitution, timeout time.Duration) (string, bool) {
	obj := prog.object
	if obj == nil {
		var err error
		if obj, err = os.ReadFile(prog.kernel); err != nil {
			return "", false
		}
	}
	var k memo.Key
	k.Part(obj)
	k.Part([]byte(strings.ReplaceAll(spec, dir+string(filepath.Separator), "")))
	k.Int(int(timeout))
	for _, in := range inputs {
		k.Int(in.Index)
		k.Part(in.Bytes)
	}
	if sub != nil {
		k.Part(sub.Words)
	}
	return k.String(), true
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
	var stats []byte
	if approx {
		var err error
		if stats, err = os.ReadFile(filepath.Join(dir, "approx.out")); err != nil {
			return
		}
	}
	n := len(stats)
	for _, o := range outs {
		n += len(o.Bytes)
	}
	b := make([]byte, 0, n)
	for _, o := range outs {
		b = append(b, o.Bytes...)
	}
	runResults.put(key, append(b, stats...))
}

// filledInputs keeps the bytes familyBytes made, by family, buffer and size:
// library variants and function-constant searches fill the same buffers
// again and again (the fills were 6% of airpipe's CPU on the share).
var filledInputs = &byteCache{max: 16 << 20}

// familyBytes is family InputFamilies[fam]'s size bytes for buffer b (its
// Typed fill where it has one, which reads b's element type and members,
// else its Fill of b's index), a copy of the kept bytes when kept.
func familyBytes(fam int, b Buffer, size int64) []byte {
	f := InputFamilies[fam]
	fill := func() []byte { return f.Fill(b.Index, size) }
	// What the fill reads of b: its index, or for a typed fill its type.
	var desc []byte
	if f.Typed != nil {
		fill = func() []byte { return f.Typed(b, size) }
		var err error
		if desc, err = json.Marshal(struct {
			Index, ElementSize int
			TypeName           string
			Members            []Member
		}{b.Index, b.ElementSize, b.TypeName, b.Members}); err != nil {
			return fill() // not kept: no key names it
		}
	} else {
		desc = strconv.AppendInt(nil, int64(b.Index), 10)
	}
	key := fmt.Sprintf("%d %d %s", fam, size, desc)
	if kept, ok := filledInputs.get(key); ok {
		return append([]byte(nil), kept...)
	}
	v := fill()
	filledInputs.put(key, append([]byte(nil), v...))
	return v
}
