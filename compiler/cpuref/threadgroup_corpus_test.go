package cpuref

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/corpus/corpustest"
)

// TestThreadgroupCorpus runs the reference on every distinct corpus module
// that names air.wg.barrier or threadgroup memory and counts the outcomes by
// kind (a measurement, not a floor: AIRPIPE_TG_CORPUS=1 runs it; it takes
// minutes). Every run must end with a result or a NotJudgeableError. Kernels
// using SIMD-groups run at AIRPIPE_SIMD_WIDTH lanes (default 8, lavapipe's).
func TestThreadgroupCorpus(t *testing.T) {
	if os.Getenv("AIRPIPE_TG_CORPUS") == "" {
		t.Skip("AIRPIPE_TG_CORPUS is not set: the threadgroup corpus count is a measurement")
	}
	corpusCount(t, "air.wg.barrier or air.atomic.local", func(bc []byte) bool {
		return bytes.Contains(bc, []byte("air.wg.barrier")) || bytes.Contains(bc, []byte("air.atomic.local"))
	})
}

// TestSIMDCorpus is TestThreadgroupCorpus over the distinct corpus modules
// naming a SIMD-group function or built-in (AIRPIPE_SIMD_CORPUS=1 runs it).
func TestSIMDCorpus(t *testing.T) {
	if os.Getenv("AIRPIPE_SIMD_CORPUS") == "" {
		t.Skip("AIRPIPE_SIMD_CORPUS is not set: the SIMD-group corpus count is a measurement")
	}
	corpusCount(t, "a SIMD-group function or built-in", func(bc []byte) bool {
		for _, s := range []string{"air.simd", "simdgroup", "air.is_uniform", "air.quad"} {
			if bytes.Contains(bc, []byte(s)) {
				return true
			}
		}
		return false
	})
}

// corpusCount runs the reference on the first entry point of every distinct
// corpus module that pick selects and logs the outcomes by kind.
func corpusCount(t *testing.T, what string, pick func([]byte) bool) {
	needTools(t)
	width := 8
	if w, err := strconv.Atoi(os.Getenv("AIRPIPE_SIMD_WIDTH")); err == nil {
		width = w
	}
	budget := time.Now().Add(20 * time.Minute)
	counts := map[string]int{}
	example := map[string]string{} // the first module of each kind, with its reason
	n := 0
	for _, f := range corpustest.Functions(t) {
		if !pick(f.Bitcode) {
			continue
		}
		if time.Now().After(budget) {
			t.Logf("time box reached after %d modules", n)
			break
		}
		n++
		ll, err := Disassemble(context.Background(), f.Bitcode, time.Minute)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		tm := parseText(ll)
		var entries []string
		for _, stage := range []string{"air.kernel", "air.fragment", "air.vertex"} {
			for _, ref := range tm.named[stage] {
				if node := tm.md[ref]; len(node) > 0 {
					entries = append(entries, strings.Trim(strings.TrimPrefix(strings.TrimPrefix(node[0], "ptr "), "@"), `"`))
				}
			}
		}
		if len(entries) == 0 {
			counts["no entry point"]++
			continue
		}
		_, err = RunText(context.Background(), ll, entries[0], Options{Timeout: 20 * time.Second, SIMDWidth: width})
		var nj *NotJudgeableError
		switch {
		case err == nil:
			counts["runs"]++
		case errors.As(err, &nj):
			if counts[nj.Blocker()] == 0 {
				example[nj.Blocker()] = f.Name + " " + entries[0] + ": " + nj.Reason
			}
			counts[nj.Blocker()]++
		default:
			t.Errorf("%s %s: %v", f.Name, entries[0], err)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	t.Logf("%d distinct modules naming %s (SIMD width %d)", n, what, width)
	for _, k := range keys {
		t.Logf("%5d  %s", counts[k], k)
		if e := example[k]; e != "" && testing.Verbose() {
			t.Logf("       e.g. %.300s", e)
		}
	}
}
