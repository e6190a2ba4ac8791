package cpuref

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// hostText is a host module in llvm-dis's shape: code with a metadata
// attachment, module flags, AIR's named metadata and their nodes.
const hostText = `; ModuleID = 'a.metallib'
source_filename = "a.metal"
target triple = "x86_64-pc-linux-gnu"

define internal void @k(ptr %p) {
  store float 1.0, ptr %p, align 4, !tbaa !3
  ret void
}

!llvm.module.flags = !{!0}
!air.kernel = !{!1}
!air.compile_options = !{!2}
!0 = !{i32 7, !"PIC Level", i32 2}
!1 = !{ptr @k, !5}
!2 = !{!"air.compile.fast_math_enable"}
!3 = !{!4, !4, i64 0}
!4 = !{!"float", !6}
!5 = !{}
!6 = !{!"root"}`

// TestBuildKey: hosts that differ only in what llc never reads (the module
// ID, the source file name, AIR's named metadata and the nodes only they
// reach) have one key; any difference in code, module flags, a node an
// instruction reaches, or fusing, is another key.
func TestBuildKey(t *testing.T) {
	base := buildKey(hostText, false)
	same := []struct{ name, from, to string }{
		{"module ID", "'a.metallib'", "'b.metallib'"},
		{"source file name", `"a.metal"`, `"other/b.metal"`},
		{"AIR metadata", `!{!"air.compile.fast_math_enable"}`, `!{!"air.compile.fast_math_disable"}`},
		{"a node only AIR metadata reaches", "!5 = !{}", `!5 = !{!"x"}`},
		{"another AIR list", "!air.kernel = !{!1}", "!air.kernel = !{!1}\n!air.version = !{!5}"},
		{"a DWARF version flag", "!llvm.module.flags = !{!0}", "!llvm.module.flags = !{!0, !7}\n!7 = !{i32 7, !\"Dwarf Version\", i32 4}"},
		{"an SDK version flag", "!llvm.module.flags = !{!0}", "!llvm.module.flags = !{!7, !0}\n!7 = !{i32 2, !\"SDK Version\", [2 x i32] [i32 14, i32 0]}"},
		{"a debug info version with no debug info", "!llvm.module.flags = !{!0}", "!llvm.module.flags = !{!0, !7}\n!7 = !{i32 2, !\"Debug Info Version\", i32 3}"},
	}
	for _, tc := range same {
		t.Run(tc.name, func(t *testing.T) {
			v := strings.Replace(hostText, tc.from, tc.to, 1)
			if v == hostText {
				t.Fatal("the case changes nothing")
			}
			if buildKey(v, false) != base {
				t.Fatal("another key for a difference llc never reads")
			}
		})
	}
	other := []struct{ name, from, to string }{
		{"code", "store float 1.0", "store float 2.0"},
		{"module flags", `!"PIC Level", i32 2`, `!"PIC Level", i32 1`},
		{"a node an instruction reaches", `!{!"float", !6}`, `!{!"int", !6}`},
		{"a node reached through another", `!6 = !{!"root"}`, `!6 = !{!"other root"}`},
	}
	for _, tc := range other {
		t.Run(tc.name, func(t *testing.T) {
			v := strings.Replace(hostText, tc.from, tc.to, 1)
			if v == hostText {
				t.Fatal("the case changes nothing")
			}
			if buildKey(v, false) == base {
				t.Fatal("the same key for a difference llc reads")
			}
		})
	}
	if buildKey(hostText, true) == base {
		t.Fatal("the fused build has the unfused key")
	}
}

// TestBuildKeyNumbering: nodes numbered otherwise (as another variant's
// extra AIR metadata shifts them) have the key of the original; a node
// number inside a quoted string is text, not a reference.
func TestBuildKeyNumbering(t *testing.T) {
	renumbered := strings.NewReplacer("!tbaa !3", "!tbaa !40", "!3 = !{!4, !4, i64 0}", "!40 = !{!41, !41, i64 0}",
		"!4 = !{!\"float\", !6}", "!41 = !{!\"float\", !6}").Replace(hostText)
	if renumbered == hostText || buildKey(renumbered, false) != buildKey(hostText, false) {
		t.Fatal("renumbered nodes changed the key, or nothing was renumbered")
	}
	a := strings.Replace(hostText, `!6 = !{!"root"}`, `!6 = !{!"root !3"}`, 1)
	b := strings.Replace(hostText, `!6 = !{!"root"}`, `!6 = !{!"root !4"}`, 1)
	if buildKey(a, false) == buildKey(b, false) {
		t.Fatal("two strings that differ in a node number inside them have one key")
	}
}

// debugHost is hostText with debug info: a compile unit, a location on the
// store and a dbg.value call.
const debugHost = `; ModuleID = 'a.metallib'
define internal void @k(ptr %p) !dbg !11 {
  call void @llvm.dbg.value(metadata ptr %p, metadata !8, metadata !DIExpression()), !dbg !9
  store float 1.0, ptr %p, align 4, !dbg !9
  ret void
}
declare void @llvm.dbg.value(metadata, metadata, metadata)
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!7}
!llvm.ident = !{!6}
!0 = !{i32 2, !"Debug Info Version", i32 0}
!6 = !{!"Apple metal version 32023.35"}
!7 = distinct !DICompileUnit(language: DW_LANG_C99, file: !10, producer: "metal 32023.35")
!8 = !DILocalVariable(name: "p", scope: !11, file: !10, line: 3)
!9 = !DILocation(line: 4, column: 2, scope: !11)
!10 = !DIFile(filename: "a.metal", directory: "/src")
!11 = distinct !DISubprogram(name: "k", file: !10, line: 2, unit: !7)`

// TestBuildKeyDebugInfo: in a host with a compile unit (whose debug info
// build strips) the debug locations, intrinsic calls, file names and
// producer strings are no part of the key; without a compile unit a
// location is, and code always is.
func TestBuildKeyDebugInfo(t *testing.T) {
	base := buildKey(debugHost, false)
	for _, tc := range []struct{ from, to string }{
		{`line: 4, column: 2`, `line: 40, column: 7`},
		{`directory: "/src"`, `directory: "/elsewhere"`},
		{`"Apple metal version 32023.35"`, `"Apple metal version 31001.720"`},
		{`producer: "metal 32023.35"`, `producer: "metal 31001.720"`},
		{`name: "p", scope: !11, file: !10, line: 3`, `name: "q", scope: !11, file: !10, line: 5`},
		{`name: "k", file: !10, line: 2`, `name: "k", file: !10, line: 20`}, // reached from the define line only
		{`!"Debug Info Version", i32 0`, `!"Debug Info Version", i32 3`},
	} {
		if v := strings.Replace(debugHost, tc.from, tc.to, 1); v == debugHost || buildKey(v, false) != base {
			t.Errorf("%s → %s: another key, or no change", tc.from, tc.to)
		}
	}
	if buildKey(strings.Replace(debugHost, "store float 1.0", "store float 2.0", 1), false) == base {
		t.Error("a code change kept the key")
	}
	noCU := strings.Replace(debugHost, "!llvm.dbg.cu = !{!7}\n", "", 1)
	if buildKey(strings.Replace(noCU, `line: 4, column: 2`, `line: 40, column: 7`, 1), false) == buildKey(noCU, false) {
		t.Error("without a compile unit, a debug location left the key")
	}
	// Without a compile unit but with debug locations, the version flag
	// decides whether llc-19 keeps them.
	if buildKey(strings.Replace(noCU, `!"Debug Info Version", i32 0`, `!"Debug Info Version", i32 3`, 1), false) == buildKey(noCU, false) {
		t.Error("without a compile unit, the debug info version left the key")
	}
}

// TestByteCache: byte strings are kept up to the byte budget, the oldest
// dropped first, one larger than the budget never.
func TestByteCache(t *testing.T) {
	c := &byteCache{max: 10}
	c.put("a", []byte("aaaa"))
	c.put("b", []byte("bbbb"))
	if b, ok := c.get("a"); !ok || string(b) != "aaaa" {
		t.Fatal("a not kept")
	}
	c.put("c", []byte("cccc")) // 12 bytes: a goes
	if _, ok := c.get("a"); ok {
		t.Fatal("the oldest was kept past the budget")
	}
	if _, ok := c.get("c"); !ok {
		t.Fatal("c not kept")
	}
	c.put("d", bytes.Repeat([]byte("d"), 11))
	if _, ok := c.get("d"); ok || c.size > c.max {
		t.Fatalf("an object over the budget was kept (size %d)", c.size)
	}
}

// freshBuildCache gives the test an empty kernel cache (a test counting
// links must not find an earlier test's builds), the process's back after.
func freshBuildCache(t *testing.T) {
	t.Helper()
	kept := builtKernels
	builtKernels = &byteCache{max: builtKernelBytes}
	t.Cleanup(func() { builtKernels = kept })
}

// TestBuildReused: the fixture run again as another library's module
// (another source file name) builds nothing (its kernel is the first run's)
// and runs nothing (each of its runs repeats one of the first, runmemo.go),
// and gives the same outputs; with other code it builds once and every run
// runs.
func TestBuildReused(t *testing.T) {
	needTools(t)
	freshBuildCache(t)
	kept := runResults
	runResults = &byteCache{max: runResultBytes}
	t.Cleanup(func() { runResults = kept })
	ll := readFixture(t, "testdata/affine.ll")
	first, err := RunText(context.Background(), ll, "affine", Options{})
	if err != nil {
		t.Fatal(err)
	}
	builds, reused := kernelBuilds.Load(), runsReused.Load()
	variant := strings.Replace(ll, `source_filename = "affine"`, `source_filename = "elsewhere/affine.metal"`, 1)
	again, err := RunText(context.Background(), variant, "affine", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := kernelBuilds.Load() - builds; n != 0 {
		t.Errorf("%d builds for a module that differs in its source file name only", n)
	}
	if runsReused.Load() == reused {
		t.Error("no run of the repeated module was reused")
	}
	for i := range first.Outputs {
		if !bytes.Equal(first.Outputs[i].Bytes, again.Outputs[i].Bytes) {
			t.Fatalf("output %d differs", i)
		}
	}
	// The checks can fail: a change in code builds again and runs again.
	code := strings.Replace(ll, "fadd", "fsub", 1)
	if code == ll {
		t.Fatal("no fadd in the fixture to change")
	}
	builds, reused = kernelBuilds.Load(), runsReused.Load()
	if _, err := RunText(context.Background(), code, "affine", Options{}); err != nil {
		t.Fatal(err)
	}
	if n := kernelBuilds.Load() - builds; n != 1 {
		t.Errorf("%d builds for a module whose code changed", n)
	}
	if n := runsReused.Load() - reused; n != 0 {
		t.Errorf("%d runs of a module whose code changed were reused", n)
	}
}
