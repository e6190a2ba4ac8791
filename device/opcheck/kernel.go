package opcheck

import (
	"fmt"
	"strings"
)

// Threads is the threadgroup width of every opcheck dispatch; invocations
// are padded to a multiple of it (the padding repeats the first
// invocation and is not judged).
const Threads = 64

const (
	dataLayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
	triple     = "air64-apple-macosx14.0.0"
)

// wordBits is how wide a buffer element holding an element of t is: every
// element is stored in a 32-bit word (a 64-bit one for i64), so the
// kernel needs no 8- or 16-bit storage.
func wordBits(t Type) int {
	if t.Bits == 64 {
		return 64
	}
	return 32
}

// buffers lists op's kernel buffers in AIR index order: one per argument,
// then one per result (the return value first, then each pointer
// output), each holding lanes elements per invocation.
func buffers(op *Op) []Type {
	b := append([]Type(nil), op.Args...)
	b = append(b, op.Ret)
	return append(b, op.Outs...)
}

// KernelLL is the AIR kernel, as LLVM text, that evaluates op once per
// thread: thread i reads element i·lanes+c of each argument buffer,
// builds the arguments, calls the operation and writes each result lane
// to its buffer the same way.
func KernelLL(op *Op) string {
	var b strings.Builder
	fmt.Fprintf(&b, "; opcheck kernel for %s\ntarget datalayout = %q\ntarget triple = %q\n\n", op.Name, dataLayout, triple)
	bufs := buffers(op)
	var params []string
	for k := range bufs {
		params = append(params, fmt.Sprintf("ptr addrspace(1) %%b%d", k))
	}
	fmt.Fprintf(&b, "define void @opcheck(%s, i32 %%gid) {\n  %%i = zext i32 %%gid to i64\n", strings.Join(params, ", "))
	n := 0
	tmp := func() string { n++; return fmt.Sprintf("%%t%d", n) }
	load := func(k int, t Type) string {
		e := t.Elem()
		w := fmt.Sprintf("i%d", wordBits(e))
		var lanes []string
		for c := range t.Lanes {
			idx, p, v := tmp(), tmp(), tmp()
			fmt.Fprintf(&b, "  %s = mul i64 %%i, %d\n  %s = add i64 %s, %d\n", idx+"m", t.Lanes, idx, idx+"m", c)
			fmt.Fprintf(&b, "  %s = getelementptr %s, ptr addrspace(1) %%b%d, i64 %s\n  %s = load %s, ptr addrspace(1) %s, align 4\n", p, w, k, idx, v, w, p)
			lanes = append(lanes, fromWord(&b, tmp, e, v))
		}
		if t.Lanes == 1 {
			return lanes[0]
		}
		vec := "poison"
		for c, l := range lanes {
			nv := tmp()
			fmt.Fprintf(&b, "  %s = insertelement %s %s, %s %s, i32 %d\n", nv, t.LLVM(), vec, e.LLVM(), l, c)
			vec = nv
		}
		return vec
	}
	store := func(k int, t Type, v string) {
		e := t.Elem()
		w := fmt.Sprintf("i%d", wordBits(e))
		for c := range t.Lanes {
			l := v
			if t.Lanes > 1 {
				l = tmp()
				fmt.Fprintf(&b, "  %s = extractelement %s %s, i32 %d\n", l, t.LLVM(), v, c)
			}
			word := toWord(&b, tmp, e, l)
			idx, p := tmp(), tmp()
			fmt.Fprintf(&b, "  %s = mul i64 %%i, %d\n  %s = add i64 %s, %d\n", idx+"m", t.Lanes, idx, idx+"m", c)
			fmt.Fprintf(&b, "  %s = getelementptr %s, ptr addrspace(1) %%b%d, i64 %s\n  store %s %s, ptr addrspace(1) %s, align 4\n", p, w, k, idx, w, word, p)
		}
	}
	var args []string
	for k, t := range op.Args {
		args = append(args, t.LLVM()+" "+load(k, t))
	}
	var outs []string
	for j, t := range op.Outs {
		p := fmt.Sprintf("%%o%d", j)
		fmt.Fprintf(&b, "  %s = alloca %s, align 4\n", p, t.LLVM())
		outs = append(outs, p)
		args = append(args, "ptr "+p)
	}
	flags := ""
	if op.Fast {
		flags = "fast "
	}
	fmt.Fprintf(&b, "  %%r = call %s%s @%s(%s)\n", flags, op.Ret.LLVM(), op.Name, strings.Join(args, ", "))
	store(len(op.Args), op.Ret, "%r")
	for j, t := range op.Outs {
		v := tmp()
		fmt.Fprintf(&b, "  %s = load %s, ptr %s, align 4\n", v, t.LLVM(), outs[j])
		store(len(op.Args)+1+j, t, v)
	}
	b.WriteString("  ret void\n}\n\n")
	fmt.Fprintf(&b, "declare %s @%s(%s)\n\n", op.Ret.LLVM(), op.Name, strings.TrimSuffix(strings.TrimPrefix(op.Signature(), op.Ret.LLVM()+" ("), ")"))
	b.WriteString("!air.kernel = !{!0}\n!0 = !{ptr @opcheck, !1, !2}\n!1 = !{}\n")
	var md []string
	for k := range bufs {
		md = append(md, fmt.Sprintf("!%d", k+3))
	}
	md = append(md, fmt.Sprintf("!%d", len(bufs)+3))
	fmt.Fprintf(&b, "!2 = !{%s}\n", strings.Join(md, ", "))
	for k, t := range bufs {
		size := wordBits(t.Elem()) / 8
		name := "uint"
		if size == 8 {
			name = "ulong"
		}
		fmt.Fprintf(&b, "!%d = !{i32 %d, !\"air.buffer\", !\"air.location_index\", i32 %d, i32 1, !\"air.read_write\", !\"air.arg_type_size\", i32 %d, !\"air.arg_type_align_size\", i32 %d, !\"air.arg_type_name\", !%q, !\"air.arg_name\", !\"b%d\"}\n", k+3, k, k, size, size, name, k)
	}
	fmt.Fprintf(&b, "!%d = !{i32 %d, !\"air.thread_position_in_grid\", !\"air.arg_type_name\", !\"uint\", !\"air.arg_name\", !\"gid\"}\n", len(bufs)+3, len(bufs))
	return b.String()
}

// fromWord turns a loaded buffer word into an element of type e.
func fromWord(b *strings.Builder, tmp func() string, e Type, w string) string {
	switch {
	case e.Kind == 'f' && e.Bits == 32:
		v := tmp()
		fmt.Fprintf(b, "  %s = bitcast i32 %s to float\n", v, w)
		return v
	case e.IsFloat():
		h, v := tmp(), tmp()
		fmt.Fprintf(b, "  %s = trunc i32 %s to i16\n  %s = bitcast i16 %s to %s\n", h, w, v, h, e.LLVM())
		return v
	case e.Bits < 32:
		v := tmp()
		fmt.Fprintf(b, "  %s = trunc i32 %s to %s\n", v, w, e.LLVM())
		return v
	}
	return w
}

// toWord turns an element of type e into the buffer word that holds it.
func toWord(b *strings.Builder, tmp func() string, e Type, v string) string {
	switch {
	case e.Kind == 'f' && e.Bits == 32:
		w := tmp()
		fmt.Fprintf(b, "  %s = bitcast float %s to i32\n", w, v)
		return w
	case e.IsFloat():
		h, w := tmp(), tmp()
		fmt.Fprintf(b, "  %s = bitcast %s %s to i16\n  %s = zext i16 %s to i32\n", h, e.LLVM(), v, w, h)
		return w
	case e.Bits < 32:
		w := tmp()
		fmt.Fprintf(b, "  %s = zext %s %s to i32\n", w, e.LLVM(), v)
		return w
	}
	return v
}
