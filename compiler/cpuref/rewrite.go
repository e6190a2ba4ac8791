package cpuref

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// Host target the module is retargeted to (x86-64 Linux, as llc-19 and the
// system cc produce).
const (
	hostTriple     = "x86_64-pc-linux-gnu"
	hostDataLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
)

var (
	// fastFlags are fast-math flags after a floating-point opcode or call.
	fastFlags = regexp.MustCompile(`\b(fadd|fsub|fmul|fdiv|frem|fneg|fcmp|call|select|phi|fptrunc|fpext|uitofp|sitofp|fptoui|fptosi)((?: (?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc))+) `)
	// unsafeAttrs are function attributes that license inexact arithmetic.
	unsafeAttrs = regexp.MustCompile(`"(unsafe-fp-math|no-nans-fp-math|no-infs-fp-math|no-signed-zeros-fp-math|approx-func-fp-math|less-precise-fpmad)"="true"`)
	fpmath      = regexp.MustCompile(`, !fpmath ![0-9]+`)
	// linkage is a define line's linkage keyword, when it has one.
	linkage      = regexp.MustCompile(`^define (?:(?:external|weak|weak_odr|linkonce|linkonce_odr|available_externally|common|private|internal) )?`)
	intrinsicUse = regexp.MustCompile(`call ([^@]+?) @(llvm\.[A-Za-z0-9_.]+)\(([^)]*)\)`)
)

// fastFlagWords are the words fastFlags needs one of, each after a space:
// a line without any has nothing for it to replace (the regexp over every
// instruction line was most of rewrite's time).
var fastFlagWords = []string{" fast", " nnan", " ninf", " nsz", " arcp", " contract", " afn", " reassoc"}

// hasFastFlag reports whether l holds one of fastFlagWords.
func hasFastFlag(l string) bool {
	for _, w := range fastFlagWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// fastFlagOps and fastFlagNames are fastFlags' instructions and flags.
var (
	fastFlagOps   = []string{"fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "call", "select", "phi", "fptrunc", "fpext", "uitofp", "sitofp", "fptoui", "fptosi"}
	fastFlagNames = []string{"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"}
)

// stripFastFlags is fastFlags.ReplaceAllString(l, "$1 ") written out (the
// regexp was a quarter of rewrite's time on fast-math modules; held to it
// by FuzzStripFastFlags): each instruction word at a word boundary followed
// by one or more " flag" words and a space loses its flags.
func stripFastFlags(l string) string {
	var b strings.Builder
	done := 0 // l[:done] is written
	for i := 0; i < len(l); i++ {
		if i > 0 && isWordByte(l[i-1]) {
			continue
		}
		op := ""
		for _, o := range fastFlagOps {
			if strings.HasPrefix(l[i:], o) {
				op = o
				break
			}
		}
		if op == "" {
			continue
		}
		j, flags := i+len(op), 0
		for {
			k := -1
			for _, f := range fastFlagNames {
				if strings.HasPrefix(l[j:], " "+f+" ") {
					k = j + 1 + len(f)
					break
				}
			}
			if k < 0 {
				break
			}
			j, flags = k, flags+1
		}
		if flags == 0 {
			continue
		}
		// l[j] is the space after the last flag: the match ends past it.
		b.WriteString(l[done:i])
		b.WriteString(op)
		b.WriteByte(' ')
		done = j + 1
		i = j
	}
	if done == 0 {
		return l
	}
	b.WriteString(l[done:])
	return b.String()
}

// isWordByte reports whether c is a regexp word character ([0-9A-Za-z_]).
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// rewrite turns llvm-dis text of an AIR module into a host module whose
// airpipe_thread(ptr buffers, ptr ids) runs one thread of the kernel.
//
//   - triple and datalayout become x86-64 Linux ones (AIR's vector
//     alignments are LLVM's natural ones, so no offset changes);
//   - fast-math flags, !fpmath and the unsafe-math function attributes are
//     dropped, so llc keeps IEEE arithmetic: the reference is the exact
//     reading of the shader, and the SPIR-V carries no fast-math either;
//   - every defined function becomes internal, and before llc it is
//     renamed out of the C library's namespace (symbols.go), so that a
//     kernel named like a C library function cannot clash;
//   - each air.* declaration is replaced by its definition (ops.go), or the
//     module is not judgeable;
//   - threadgroup (addrspace(3)) globals lose their initializer and go in
//     ThreadgroupSection, which the harness refills per threadgroup
//     (threadgroup.go).
//
// With approx set, the substitutable approximate operations (approx.go)
// are defined as calls of the harness's airpipe_approx, and the approximate
// divisions call functions that do (approxdiv.go).
func rewrite(t *textModule, k *Kernel, approx bool) (string, error) {
	fcGlobals, err := functionConstantGlobals(t)
	if err != nil {
		return "", err
	}
	fcGlobals = predicateCheck(t, k, fcGlobals) // staticinit.go
	if err := refuseFeatures(t, fcGlobals); err != nil {
		return "", err
	}
	if k.ConstexprSamplers, err = constexprSamplers(t); err != nil { // sampler.go
		return "", err
	}
	if _, err := threadgroupUses(t); err != nil {
		return "", err
	}
	decls, err := declarations(t)
	if err != nil {
		return "", err
	}
	drop := map[int]bool{}
	var defs []string
	sort.Slice(decls, func(i, j int) bool { return decls[i].Name < decls[j].Name })
	// Every declaration is tried, so that a module set aside names all the
	// operations it would need, not only the first (NotJudgeableError.Also).
	var first *NotJudgeableError
	for _, d := range decls {
		if approx && substitutableDecl(d) {
			drop[d.Line] = true
			defs = append(defs, approxOp(d))
			continue
		}
		def, err := defineOp(d)
		var nj *NotJudgeableError
		switch {
		case errors.As(err, &nj) && first == nil:
			first = nj
		case nj != nil:
			first.Also = append(first.Also, nj.Blocker())
		case err != nil:
			return "", err
		}
		drop[d.Line] = true
		defs = append(defs, def)
	}
	if first != nil {
		return "", first
	}
	fn, err := t.defined(k.Name)
	if err != nil {
		return "", err
	}
	if k.Stage == "" && !strings.HasPrefix(linkage.ReplaceAllString(t.lines[fn.Line], ""), "void ") {
		return "", notJudgeable(KindMalformed, "return type", "kernel @%s does not return void", k.Name)
	}
	var b strings.Builder
	unread := unreadSIMDCalls(t)   // simdunread.go
	guarded := false               // the threadgroup region's leading guard is written
	divisions := map[string]bool{} // the types of the approximate divisions called (approxdiv.go)
	for i, l := range t.lines {
		switch {
		case drop[i], unread[i]:
			continue
		case fcGlobals[i] != "":
			l = fcGlobals[i]
		case strings.HasPrefix(l, "@") && strings.Contains(l, " addrspace(3) global "):
			l, _, _ = threadgroupGlobal(l) // checked by refuseFeatures
			if !guarded {
				l, guarded = threadgroupGuard("lead")+"\n"+l, true
			}
		case strings.HasPrefix(l, "target triple"):
			l = fmt.Sprintf("target triple = %q", hostTriple)
		case strings.HasPrefix(l, "target datalayout"):
			l = fmt.Sprintf("target datalayout = %q", hostDataLayout)
		case strings.HasPrefix(l, "define "):
			l = linkage.ReplaceAllString(l, "define internal ")
		case strings.HasPrefix(l, "attributes #"):
			l = unsafeAttrs.ReplaceAllString(l, `"$1"="false"`)
		case strings.HasPrefix(l, "  "):
			if approx {
				l = divisionCall(l, divisions)
			}
			if hasFastFlag(l) {
				l = stripFastFlags(l)
			}
			if strings.Contains(l, ", !fpmath !") {
				l = fpmath.ReplaceAllString(l, "")
			}
			l = addSite(l, i)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if guarded {
		b.WriteString(threadgroupGuard("trail") + "\n")
	}
	for _, ty := range slices.Sorted(maps.Keys(divisions)) {
		defs = append(defs, divisionOp(ty))
	}
	for _, d := range defs {
		b.WriteString(d)
	}
	all := strings.Join(defs, "")
	b.WriteString(intrinsicDecls(t, all))
	if len(k.Textures) > 0 || len(k.Samplers) > 0 || len(k.ConstexprSamplers) > 0 || strings.Contains(all, "@airpipe_texel(") || strings.Contains(all, "@airpipe_storage_texel(") {
		b.WriteString(textureSupport(k, all))
	}
	if strings.Contains(all, "@airpipe_atomic(") {
		b.WriteString("declare void @airpipe_atomic(ptr addrspace(1))\n")
	}
	if strings.Contains(all, "@airpipe_approx(") {
		b.WriteString("declare void @airpipe_approx(ptr, ptr, i32, i32, i32, ptr)\n")
	}
	if strings.Contains(all, "@airpipe_discard(") {
		b.WriteString("declare void @airpipe_discard()\n")
	}
	if strings.Contains(all, "@airpipe_barrier(") {
		b.WriteString("declare void @airpipe_barrier(i32, i32)\n")
	}
	if strings.Contains(all, "@airpipe_simd(") {
		b.WriteString("declare i32 @airpipe_simd(i32, ptr, i32, ptr)\ndeclare i32 @airpipe_simd_width()\n")
	}
	if strings.Contains(all, "@airpipe_simd_undefined(") {
		b.WriteString("declare void @airpipe_simd_undefined(i32)\n")
	}
	switch k.Stage {
	case air.Fragment:
		b.WriteString(fragmentWrapper(k))
	case air.Vertex:
		b.WriteString(vertexWrapper(k))
	default:
		b.WriteString(wrapper(k))
	}
	return b.String(), nil
}

// refuseFeatures finds module-level things the reference cannot run. The
// lines of fcGlobals are function-constant globals the rewrite gives values.
func refuseFeatures(t *textModule, fcGlobals map[int]string) error {
	for i, l := range t.lines {
		if !strings.HasPrefix(l, "@") || fcGlobals[i] != "" {
			continue
		}
		switch {
		case strings.Contains(l, "MTL_FC_INIT") || strings.Contains(l, "externally_initialized"):
			return notJudgeable(KindFunctionConstant, "externally initialized global", "an externally initialized global that !air.function_constants does not list: its value is fixed at pipeline creation and the reference has none for it")
		}
		if _, ok, err := threadgroupGlobal(l); ok && err != nil {
			return err
		}
	}
	return nil
}

// intrinsicDecls declares the llvm.* intrinsics the op definitions call and
// the module does not already declare.
func intrinsicDecls(t *textModule, defs string) string {
	have := map[string]bool{}
	for _, l := range t.lines {
		if strings.HasPrefix(l, "declare ") {
			if i := strings.Index(l, "@llvm."); i >= 0 {
				name, _, _ := symbolAt(l[i+1:])
				have[name] = true
			}
		}
	}
	var b strings.Builder
	for _, m := range intrinsicUse.FindAllStringSubmatch(defs, -1) {
		if have[m[2]] {
			continue
		}
		have[m[2]] = true
		var ts []string
		for _, a := range splitTop(m[3]) {
			ts = append(ts, paramType(a))
		}
		fmt.Fprintf(&b, "declare %s @%s(%s)\n", strings.TrimSpace(m[1]), m[2], strings.Join(ts, ", "))
	}
	return b.String()
}

// wrapper is airpipe_thread: it loads each buffer pointer from the array the
// harness passes (by Metal index) and each built-in from the ids array, and
// calls the kernel.
func wrapper(k *Kernel) string {
	var b strings.Builder
	b.WriteString("\ndefine void @airpipe_thread(ptr %bufs, ptr %ids) {\nentry:\n")
	var args []string
	for i, p := range k.Params {
		v := fmt.Sprintf("%%arg%d", i)
		if p.Role == "air.buffer" {
			bufferArg(&b, p, i, v)
			args = append(args, p.Type+" "+v)
			continue
		}
		if p.Role == "air.texture" || p.Role == "air.sampler" {
			resourceArg(&b, p, v)
			args = append(args, p.Type+" "+v)
			continue
		}
		if p.Role == absentRole {
			absentArg(&b, p, v) // conditional.go
			args = append(args, p.Type+" "+v)
			continue
		}
		slot, ok := builtinSlot[p.Role]
		if !ok {
			slot = simdRoles[p.Role]
		}
		n := 1
		if strings.HasPrefix(p.Type, "<") {
			fmt.Sscanf(vecLen(p.Type), "%d", &n)
		}
		e := elem(p.Type)
		cur := "poison"
		for c := range n {
			fmt.Fprintf(&b, "  %%i%d_%d = getelementptr i32, ptr %%ids, i64 %d\n  %%w%d_%d = load i32, ptr %%i%d_%d\n", i, c, slot+c, i, c, i, c)
			x := fmt.Sprintf("%%w%d_%d", i, c)
			if e == "i16" {
				fmt.Fprintf(&b, "  %%t%d_%d = trunc i32 %s to i16\n", i, c, x)
				x = fmt.Sprintf("%%t%d_%d", i, c)
			}
			if n == 1 {
				fmt.Fprintf(&b, "  %s = add %s %s, 0\n", v, e, x)
				break
			}
			next := fmt.Sprintf("%%v%d_%d", i, c)
			if c == n-1 {
				next = v
			}
			fmt.Fprintf(&b, "  %s = insertelement %s %s, %s %s, i32 %d\n", next, p.Type, cur, e, x, c)
			cur = next
		}
		args = append(args, p.Type+" "+v)
	}
	fmt.Fprintf(&b, "  call void @%q(%s)\n  ret void\n}\n", k.Name, strings.Join(args, ", "))
	return b.String()
}

// bufferArg writes the IR that makes v, the argument of parameter i (an air.buffer), from
// the pointer the harness passes for Metal buffer p.Buffer, cast to the parameter's type.
func bufferArg(b *strings.Builder, p Param, i int, v string) {
	fmt.Fprintf(b, "  %%bp%d = getelementptr ptr, ptr %%bufs, i64 %d\n  %%b%d = load ptr, ptr %%bp%d\n", i, p.Buffer, i, i)
	if p.Type == "ptr" {
		fmt.Fprintf(b, "  %s = getelementptr i8, ptr %%b%d, i64 0\n", v, i)
	} else {
		fmt.Fprintf(b, "  %s = addrspacecast ptr %%b%d to %s\n", v, i, p.Type)
	}
}

// callEntry writes the call of a fragment or vertex function with args; what it returns
// is %ret.
func callEntry(b *strings.Builder, k *Kernel, args []string) {
	call := fmt.Sprintf("call %s @%q(%s)", k.Return, k.Name, strings.Join(args, ", "))
	if k.Return == "void" {
		fmt.Fprintf(b, "  %s\n", call)
	} else {
		fmt.Fprintf(b, "  %%ret = %s\n", call)
	}
}

// returnedField is the value of field of what callEntry's call returned: %ret itself when
// field is -1 (the function returns the output alone), else name, extracted from %ret.
func returnedField(b *strings.Builder, k *Kernel, field int, name string) string {
	if field < 0 {
		return "%ret"
	}
	fmt.Fprintf(b, "  %s = extractvalue %s %%ret, %d\n", name, k.Return, field)
	return name
}

// contractFlag finds a floating-point add, subtract or multiply carrying a
// flag that permits contraction.
var contractFlag = regexp.MustCompile(`\b(fadd|fsub|fmul)(?: (?:nnan|ninf|nsz|arcp|afn|reassoc))* (?:fast|contract)\b`)

// contractAllowed reports whether any instruction of the module lets a
// multiply and an add be fused: a flag that permits contraction, or a call
// of llvm.fmuladd, which LLVM defines as fused or not at the code
// generator's choice.
func contractAllowed(t *textModule) bool {
	for _, l := range t.lines {
		// The flag's words prefilter the regexp (a match holds one of them).
		if strings.HasPrefix(l, "  ") && ((strings.Contains(l, "fast") || strings.Contains(l, "contract")) && contractFlag.MatchString(l) || strings.Contains(l, "@llvm.fmuladd.")) {
			return true
		}
	}
	return false
}
