package cpuref

import (
	"fmt"
	"regexp"
	"strings"
)

// SIMD-groups (harness_c.txt runs them).
//
// Options.SIMDWidth is the device's SIMD-group width W (a Vulkan device's
// subgroupSize: lavapipe 8, an NVIDIA GPU 32). The lanes of one simdgroup
// are taken to be W consecutive threads of the threadgroup by linear index
// (thread_index_in_threadgroup): thread_index_in_simdgroup = index mod W,
// simdgroup_index_in_threadgroup = index / W, threads_per_simdgroup = W,
// simdgroups_per_threadgroup = ⌈threads / W⌉. Vulkan does not promise that
// layout (the mapping of invocations to subgroups is the implementation's;
// the device package does not ask for full subgroups either, by
// VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT or a required
// subgroup size); Mesa's lavapipe and NVIDIA's driver lay out compute
// subgroups that way, and a device that did not would show as a mismatch,
// not a pass. Where the layout cannot hold at all — a threadgroup whose size
// is not a multiple of W, so a simdgroup is partial — a kernel using
// SIMD-group values or operations is set aside (KindSIMDGroup "partial
// simdgroup"), as it is when no width is given ("SIMD width unknown").
//
// Each SIMD-group operation is a rendezvous of the W lanes of a simdgroup:
// a lane calling one deposits its operand with the harness
// (airpipe_simd, with the call site: the rewrite gives every call a last
// operand, its line) and yields; once every lane of the simdgroup waits at
// the same call site, each lane gets every lane's operand and its
// definition below computes its result from them, with Metal's meaning as
// compiler/translate/simd.go and its ABI.md section ("SIMD-group
// functions") implement it:
//
//   - simd_shuffle(x, i), simd_broadcast(x, i): lane i's x; simd_shuffle_xor(x,
//     m): lane (lane ^ m)'s; a lane outside the simdgroup is undefined in
//     Metal and in SPIR-V (the run stops: KindSIMDGroup "shuffle lane out of
//     range").
//   - simd_shuffle_down(x, d): lane + d's x, or the lane's own x where lane
//     + d ≥ W; simd_shuffle_up(x, d): lane − d's, own x where lane < d;
//     simd_shuffle_rotate_down/up: (lane ± d) mod W.
//   - simd_broadcast_first(x): the lowest active lane's (lane 0: every lane
//     is active at a rendezvous); simd_is_first: lane 0.
//   - simd_sum, product, min, max, and, or, xor: folded over lanes 0…W−1
//     in order; simd_prefix_inclusive_sum/product over lanes 0…lane,
//     simd_prefix_exclusive_* over 0…lane−1 (lane 0: 0 for a sum, 1 for a
//     product). Integer min and max take their signedness from the name's
//     s/u token (a name without one is set aside); float min and max are
//     llvm.minnum/maxnum (fmin/fmax: a NaN operand yields the other; the
//     sign of a zero result of min(−0, +0) is open in Metal and SPIR-V alike).
//     Float sums and products (and their scans) fix their operands but not
//     the order of their roundings: they are order-only operations, named in
//     Result.Approximate (orderonly.go), the rest are exact.
//   - simd_all(b), simd_any(b): every / any lane's b; simd_ballot(b): bit i
//     set for each lane i whose b holds, as the declared i64 or i32 (lanes
//     0–31); simd_active_threads_mask: W bits set; simd_vote_all(v): v &
//     active == active (a rendezvous: active is the simdgroup's lanes);
//     simd_vote_any(v): v ≠ 0 (no rendezvous: it depends on v alone).
//   - is_uniform(x) of an integer or bool: every lane's x equal to lane 0's.
//   - simdgroup_barrier(flags, scope): a rendezvous with no operand. Its
//     mem_flags do not order memory for the write-conflict check (only a
//     threadgroup barrier's do), so two lanes writing one byte on either
//     side of it are a write conflict: set aside, never passed.
//
// The call site is the immediate caller's, as for barriers: an operation in
// a helper function called from two places is one site to the rendezvous.
//
// A simdgroup some of whose lanes wait at a SIMD-group operation while
// others finished, wait at a barrier or at another call site would run the
// operation over a subset of active lanes, which Metal defines and the
// reference does not imitate: KindSIMDDivergence. Quad-group functions,
// simd_shuffle_and_fill_* and async copies stay set
// aside (KindSIMDGroup), as do SIMD-group operations in fragment and vertex
// functions.

// simdRoles are the SIMD-group built-in arguments the reference gives, by
// their slot in the harness's ids (the harness computes them from W).
var simdRoles = map[string]int{
	"air.thread_index_in_simdgroup":      24,
	"air.simdgroup_index_in_threadgroup": 25,
	"air.threads_per_simdgroup":          26,
	"air.simdgroups_per_threadgroup":     27,
}

// MaxSIMDWidth is the widest SIMD-group the reference runs (a simd_vote is
// 64 bits).
const MaxSIMDWidth = 64

// usesSIMD reports whether the kernel takes a SIMD-group built-in.
func (k *Kernel) usesSIMD() bool {
	for _, p := range k.Params {
		if _, ok := simdRoles[p.Role]; ok {
			return true
		}
	}
	return false
}

// isSIMDName reports the air.* names of SIMD-group and quad-group functions.
func isSIMDName(n string) bool {
	return isSIMDMatrixName(n) || strings.HasPrefix(n, "air.simd_") || strings.HasPrefix(n, "air.quad_") || strings.HasPrefix(n, "air.is_uniform") || n == "air.simdgroup.barrier"
}

// simdSited reports whether defineOp gives the declaration of n an extra
// call-site operand (every SIMD-group operation the reference defines but
// simd_vote_any, which needs no other lane).
func simdSited(n string) bool {
	return isSIMDName(n) && !strings.HasPrefix(n, "air.quad_") && !strings.HasPrefix(n, "air.simd_vote_any")
}

// simdGrid is the grid a kernel using SIMD-group values or operations is
// dispatched over when Options.Grid is zero: threadgroups of max(32, 2W)
// threads in a line (two simdgroups at least, several of lavapipe's 8-lane
// batches), 2 of them along each dimension the kernel's position built-ins
// have. The threadgroups are one-dimensional because only there is a lane's
// place certain: a simdgroup is W consecutive x positions. lavapipe lays
// the lanes of a 4×4×2 threadgroup out otherwise than by linear id (a
// thread_index_in_simdgroup of 0 where the linear id gives 4), so a
// multi-dimensional threadgroup is set aside (simdThreadgroupShape).
func simdGrid(dims int, w uint32) Grid {
	n := max(32, 2*w)
	switch dims {
	case 2:
		return Grid{Groups: [3]uint32{2, 2, 1}, Threads: [3]uint32{n, 1, 1}}
	case 3:
		return Grid{Groups: [3]uint32{2, 2, 2}, Threads: [3]uint32{n, 1, 1}}
	}
	return Grid{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{n, 1, 1}}
}

// simdThreadgroupShape sets aside a SIMD-group kernel dispatched with a
// threadgroup of more than one dimension: how a device lays simdgroups out
// over such a threadgroup is its own (simdGrid).
func simdThreadgroupShape(g Grid) error {
	if g.Threads[1] == 1 && g.Threads[2] == 1 {
		return nil
	}
	return notJudgeable(KindSIMDGroup, "multi-dimensional threadgroup", "the kernel uses SIMD-group values or operations over a %dx%dx%d threadgroup: how a device lays simdgroups out over more than one dimension is its own, so the reference cannot know each lane's place", g.Threads[0], g.Threads[1], g.Threads[2])
}

// simdCall finds a call of an air.* function.
var simdCall = regexp.MustCompile(`@(air\.[A-Za-z0-9_.]+)\(`)

// addSite gives a call line of a sited operation (air.wg.barrier and the
// SIMD-group operations of simdSited) its site operand: the line's index.
func addSite(l string, line int) string {
	if !strings.HasPrefix(l, "  ") {
		return l
	}
	m := simdCall.FindStringSubmatchIndex(l)
	if m == nil {
		return l
	}
	name := l[m[2]:m[3]]
	if name != "air.wg.barrier" && !simdSited(name) {
		return l
	}
	open := m[1] - 1
	end := matching(l, open)
	if end < 0 {
		return l
	}
	sep := ", "
	if strings.TrimSpace(l[open+1:end]) == "" {
		sep = ""
	}
	return fmt.Sprintf("%s%si32 %d%s", l[:end], sep, line, l[end:])
}

// simdOp defines a SIMD-group operation (see the top of the file), or says
// why the reference does not.
func simdOp(d declaration) (string, error) {
	n := d.Name
	refuse := func(why string) (string, error) {
		return "", notJudgeable(KindSIMDGroup, n, "%s: %s", n, why)
	}
	if isSIMDMatrixName(n) {
		return simdMatrixOp(d) // simdmatrix.go
	}
	if n == "air.simdgroup.barrier" {
		if d.Ret != "void" || len(d.Params) != 2 || d.Params[0] != "i32" || d.Params[1] != "i32" {
			return refuse(fmt.Sprintf("declared as %s(%s), not void(i32, i32)", d.Ret, strings.Join(d.Params, ", ")))
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("")
			return ""
		}), nil
	}
	if strings.HasPrefix(n, "air.quad_") {
		return refuse("quad-group functions are not run by the reference")
	}
	op := strings.TrimPrefix(n, "air.")
	parts := strings.Split(op, ".")
	base := strings.TrimPrefix(parts[0], "simd_")
	sign := ""
	if len(parts) > 2 && (parts[1] == "s" || parts[1] == "u") {
		sign = parts[1]
	}
	if !allSane(d.Params) || (d.Ret != "void" && !sane(d.Ret)) {
		return refuse("operand types the reference does not define")
	}
	one := len(d.Params) == 1 && d.Params[0] == d.Ret && simdValue(d.Ret)
	switch base {
	case "shuffle", "broadcast", "shuffle_xor", "shuffle_down", "shuffle_up", "shuffle_rotate_down", "shuffle_rotate_up":
		if len(d.Params) != 2 || d.Params[0] != d.Ret || !simdValue(d.Ret) || !laneType(d.Params[1]) {
			break
		}
		return simdDefine(d, func(b *simdBody) string { return b.shuffle(base) }), nil
	case "broadcast_first":
		if !one {
			break
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous(d.Ret)
			return b.laneValue("0")
		}), nil
	case "is_first", "active_threads_mask":
		if len(d.Params) != 0 || (base == "is_first" && d.Ret != "i1") || (base == "active_threads_mask" && d.Ret != "i64" && d.Ret != "i32") {
			break
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("")
			if base == "is_first" {
				return b.emit("icmp eq i32 %lane, 0")
			}
			return b.activeMask(d.Ret)
		}), nil
	case "vote_all":
		if len(d.Params) != 1 || (d.Params[0] != "i64" && d.Params[0] != "i32") || d.Ret != "i1" {
			break
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("")
			act := b.activeMask(d.Params[0])
			and := b.emit(fmt.Sprintf("and %s %%a0, %s", d.Params[0], act))
			return b.emit(fmt.Sprintf("icmp eq %s %s, %s", d.Params[0], and, act))
		}), nil
	case "vote_any":
		if len(d.Params) != 1 || (d.Params[0] != "i64" && d.Params[0] != "i32") || d.Ret != "i1" {
			break
		}
		return fmt.Sprintf("define internal i1 @%q(%s %%a0) {\n  %%r = icmp ne %s %%a0, 0\n  ret i1 %%r\n}\n", n, d.Params[0], d.Params[0]), nil
	case "ballot":
		if len(d.Params) != 1 || d.Params[0] != "i1" || (d.Ret != "i64" && d.Ret != "i32") {
			break
		}
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("i1")
			acc := b.fold("i64", "0", "0", "%w", func(acc, i string) string {
				v := b.emit("zext i1 " + b.laneValueAt("i1", i) + " to i64")
				sh := b.emit("zext i32 " + i + " to i64")
				bit := b.emit("shl i64 " + v + ", " + sh)
				return b.emit("or i64 " + acc + ", " + bit)
			})
			if d.Ret == "i32" {
				return b.emit("trunc i64 " + acc + " to i32")
			}
			return acc
		}), nil
	case "all", "any":
		if !(len(d.Params) == 1 && d.Params[0] == "i1" && d.Ret == "i1") {
			break
		}
		inst := map[string]string{"all": "and", "any": "or"}[base]
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous("i1")
			return b.fold("i1", b.laneValue("0"), "1", "%w", func(acc, i string) string {
				return b.emit(fmt.Sprintf("%s i1 %s, %s", inst, acc, b.laneValueAt("i1", i)))
			})
		}), nil
	case "is_uniform":
		if len(d.Params) != 1 || d.Ret != "i1" || strings.HasPrefix(d.Params[0], "<") || isFloatType(d.Params[0]) || elemBits(d.Params[0]) == 0 {
			if len(d.Params) == 1 && isFloatType(d.Params[0]) {
				return refuse("is_uniform of a float: whether −0 and +0, or two NaNs, are equal is not fixed")
			}
			break
		}
		t := d.Params[0]
		return simdDefine(d, func(b *simdBody) string {
			b.rendezvous(t)
			first := b.laneValue("0")
			return b.fold("i1", "true", "1", "%w", func(acc, i string) string {
				eq := b.emit(fmt.Sprintf("icmp eq %s %s, %s", t, first, b.laneValueAt(t, i)))
				return b.emit("and i1 " + acc + ", " + eq)
			})
		}), nil
	default:
		if !one {
			break
		}
		scan := ""
		kind := base
		for _, s := range []string{"prefix_inclusive_", "prefix_exclusive_"} {
			if strings.HasPrefix(kind, s) {
				scan, kind = strings.TrimSuffix(strings.TrimPrefix(s, "prefix_"), "_"), strings.TrimPrefix(kind, s)
			}
		}
		if scan != "" && kind != "sum" && kind != "product" {
			return refuse("Metal's prefix functions are sums and products only")
		}
		combine, ok := simdCombine(kind, d.Ret, sign)
		if !ok {
			if (kind == "min" || kind == "max") && !isFloatType(d.Ret) && sign == "" {
				return refuse("an integer min or max without the s/u token saying its signedness")
			}
			break
		}
		return simdDefine(d, func(b *simdBody) string { return b.reduce(kind, scan, combine) }), nil
	}
	return refuse(fmt.Sprintf("not a SIMD-group operation the reference defines in this form (%s(%s))", d.Ret, strings.Join(d.Params, ", ")))
}

// simdValue reports a type a SIMD-group operation carries: a scalar or a
// vector of at most 4 integers (1 to 64 bits) or floats (half, float, double).
func simdValue(t string) bool {
	if lanes(t) < 1 || lanes(t) > 4 {
		return false
	}
	switch elem(t) {
	case "i1", "i8", "i16", "i32", "i64", "half", "float", "double":
		return true
	}
	return false
}

// laneType reports a lane number or delta's type (Metal's ushort, or an int).
func laneType(t string) bool { return t == "i8" || t == "i16" || t == "i32" }

// simdCombine is the two-operand instruction (or intrinsic call) of a
// reduction on type t, as an IR line producing a value from a and b.
func simdCombine(kind, t, sign string) (func(a, b string) string, bool) {
	fl := isFloatType(t)
	boolean := elem(t) == "i1"
	bin := func(inst string) func(a, b string) string {
		return func(a, b string) string { return fmt.Sprintf("%s %s %s, %s", inst, t, a, b) }
	}
	switch {
	case kind == "sum" && fl:
		return bin("fadd"), true
	case kind == "sum" && !boolean:
		return bin("add"), true
	case kind == "product" && fl:
		return bin("fmul"), true
	case kind == "product" && !boolean:
		return bin("mul"), true
	case (kind == "min" || kind == "max") && fl:
		in := map[string]string{"min": "minnum", "max": "maxnum"}[kind]
		return func(a, b string) string {
			return fmt.Sprintf("call %s @llvm.%s.%s(%s %s, %s %s)", t, in, mangle(t), t, a, t, b)
		}, true
	case (kind == "min" || kind == "max") && !boolean && sign != "":
		in := map[string]string{"mins": "smin", "minu": "umin", "maxs": "smax", "maxu": "umax"}[kind+sign]
		return func(a, b string) string {
			return fmt.Sprintf("call %s @llvm.%s.%s(%s %s, %s %s)", t, in, mangle(t), t, a, t, b)
		}, true
	case (kind == "and" || kind == "or" || kind == "xor") && !fl:
		return bin(kind), true
	}
	return nil, false
}

// simdBody writes the body of one SIMD-group operation's definition.
type simdBody struct {
	b    strings.Builder
	d    declaration
	n    int    // values named so far
	all  string // the type of the exchanged operand ("" for none)
	loop int    // loops written so far
	// block is the label of the block being written.
	block string
}

// emit writes "%vN = inst" and returns %vN.
func (b *simdBody) emit(inst string) string {
	b.n++
	v := fmt.Sprintf("%%v%d", b.n)
	fmt.Fprintf(&b.b, "  %s = %s\n", v, inst)
	return v
}

// size is the in-memory size of t, as an i32 constant expression.
func size(t string) string {
	return fmt.Sprintf("ptrtoint (ptr getelementptr (%s, ptr null, i32 1) to i32)", t)
}

// rendezvous waits for every lane of the simdgroup at this call site,
// exchanging %a0 of type t ("" exchanges nothing); %lane is the lane, %w the
// width, %all every lane's operand.
func (b *simdBody) rendezvous(t string) {
	b.all = t
	if t == "" {
		b.b.WriteString("  %lane = call i32 @airpipe_simd(i32 %site, ptr null, i32 0, ptr null)\n")
	} else {
		fmt.Fprintf(&b.b, "  %%src = alloca %s\n  store %s %%a0, ptr %%src\n  %%all = alloca [%d x %s]\n", t, t, MaxSIMDWidth, t)
		fmt.Fprintf(&b.b, "  %%lane = call i32 @airpipe_simd(i32 %%site, ptr %%src, i32 %s, ptr %%all)\n", size(t))
	}
	b.b.WriteString("  %w = call i32 @airpipe_simd_width()\n")
}

// laneValue loads lane i's operand (i an i32 value or constant).
func (b *simdBody) laneValue(i string) string { return b.laneValueAt(b.all, i) }

func (b *simdBody) laneValueAt(t, i string) string {
	p := b.emit(fmt.Sprintf("getelementptr [%d x %s], ptr %%all, i32 0, i32 %s", MaxSIMDWidth, t, i))
	return b.emit(fmt.Sprintf("load %s, ptr %s", t, p))
}

// activeMask is the simdgroup's lanes as a ballot of type t (i64, or i32
// holding lanes 0–31).
func (b *simdBody) activeMask(t string) string {
	w := b.emit("zext i32 %w to i64")
	one := b.emit("shl i64 1, " + w)
	m := b.emit("sub i64 " + one + ", 1")
	full := b.emit("icmp uge i64 " + w + ", 64")
	m = b.emit("select i1 " + full + ", i64 -1, i64 " + m)
	if t == "i32" {
		return b.emit("trunc i64 " + m + " to i32")
	}
	return m
}

// fold computes acc = step(acc, i) for i from start to end−1 (i32 values),
// starting from init, and returns the result (init when the range is
// empty).
func (b *simdBody) fold(t, init, start, end string, step func(acc, i string) string) string {
	b.loop++
	l := b.loop
	from := b.block
	fmt.Fprintf(&b.b, "  %%more%d = icmp ult i32 %s, %s\n  br i1 %%more%d, label %%loop%d, label %%done%d\n", l, start, end, l, l, l)
	fmt.Fprintf(&b.b, "loop%d:\n  %%i%d = phi i32 [ %s, %%%s ], [ %%next%d, %%tail%d ]\n  %%acc%d = phi %s [ %s, %%%s ], [ %%step%d, %%tail%d ]\n",
		l, l, start, from, l, l, l, t, init, from, l, l)
	b.block = fmt.Sprintf("loop%d", l)
	r := step(fmt.Sprintf("%%acc%d", l), fmt.Sprintf("%%i%d", l))
	fmt.Fprintf(&b.b, "  br label %%tail%d\ntail%d:\n  %%step%d = phi %s [ %s, %%%s ]\n  %%next%d = add i32 %%i%d, 1\n  %%again%d = icmp ult i32 %%next%d, %s\n  br i1 %%again%d, label %%loop%d, label %%done%d\n",
		l, l, l, t, r, b.block, l, l, l, l, end, l, l, l)
	fmt.Fprintf(&b.b, "done%d:\n  %%fold%d = phi %s [ %s, %%%s ], [ %%step%d, %%tail%d ]\n", l, l, t, init, from, l, l)
	b.block = fmt.Sprintf("done%d", l)
	return fmt.Sprintf("%%fold%d", l)
}

// reduce folds the lanes' operands with combine: over every lane (scan ""),
// lanes 0…lane ("inclusive") or 0…lane−1 ("exclusive", lane 0 the identity).
func (b *simdBody) reduce(kind, scan string, combine func(a, b string) string) string {
	t := b.d.Ret
	b.rendezvous(t)
	end := "%w"
	switch scan {
	case "inclusive":
		end = b.emit("add i32 %lane, 1")
	case "exclusive":
		end = "%lane"
	}
	first := b.laneValue("0")
	r := b.fold(t, first, "1", end, func(acc, i string) string {
		return b.emit(combine(acc, b.laneValue(i)))
	})
	if scan != "exclusive" {
		return r
	}
	id := "0"
	if isFloatType(t) {
		id = "0.0"
	}
	if kind == "product" {
		id = "1"
		if isFloatType(t) {
			id = "1.0"
		}
	}
	c := id
	if elem(t) == "half" {
		c = map[string]string{"0.0": "0xH0000", "1.0": "0xH3C00"}[id]
	}
	if strings.HasPrefix(t, "<") {
		c = "<" + strings.TrimSuffix(strings.Repeat(elem(t)+" "+c+", ", lanes(t)), ", ") + ">"
	}
	z := b.emit("icmp eq i32 %lane, 0")
	return b.emit(fmt.Sprintf("select i1 %s, %s %s, %s %s", z, t, c, t, r))
}

// shuffle reads another lane's operand (see the top of the file).
func (b *simdBody) shuffle(kind string) string {
	t := b.d.Ret
	b.rendezvous(t)
	n := b.emit(fmt.Sprintf("zext %s %%a1 to i64", b.d.Params[1]))
	l := b.emit("zext i32 %lane to i64")
	w := b.emit("zext i32 %w to i64")
	var src string
	check := false
	switch kind {
	case "shuffle", "broadcast":
		src, check = n, true
	case "shuffle_xor":
		src, check = b.emit("xor i64 "+l+", "+n), true
	case "shuffle_down":
		s := b.emit("add i64 " + l + ", " + n)
		in := b.emit("icmp ult i64 " + s + ", " + w)
		src = b.emit("select i1 " + in + ", i64 " + s + ", i64 " + l)
	case "shuffle_up":
		in := b.emit("icmp uge i64 " + l + ", " + n)
		s := b.emit("sub i64 " + l + ", " + n)
		src = b.emit("select i1 " + in + ", i64 " + s + ", i64 " + l)
	case "shuffle_rotate_down":
		m := b.emit("urem i64 " + n + ", " + w)
		src = b.emit("urem i64 " + b.emit("add i64 "+l+", "+m) + ", " + w)
	case "shuffle_rotate_up":
		m := b.emit("urem i64 " + n + ", " + w)
		up := b.emit("sub i64 " + b.emit("add i64 "+l+", "+w) + ", " + m)
		src = b.emit("urem i64 " + up + ", " + w)
	}
	if check {
		ok := b.emit("icmp ult i64 " + src + ", " + w)
		b.b.WriteString("  br i1 " + ok + ", label %read, label %undefined\nundefined:\n  call void @airpipe_simd_undefined(i32 %site)\n  unreachable\nread:\n")
		b.block = "read"
	}
	i := b.emit("trunc i64 " + src + " to i32")
	return b.laneValue(i)
}

// simdDefine writes the definition of d, whose body build writes (with
// rendezvous) and whose result it returns ("" for void).
func simdDefine(d declaration, build func(*simdBody) string) string {
	b := &simdBody{d: d, block: "entry"}
	b.b.WriteString("entry:\n")
	r := build(b)
	var ps []string
	for i, p := range d.Params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
	}
	ps = append(ps, "i32 %site")
	ret := "  ret void\n"
	if d.Ret != "void" {
		ret = fmt.Sprintf("  ret %s %s\n", d.Ret, r)
	}
	return fmt.Sprintf("define internal %s @%q(%s) {\n%s%s}\n", d.Ret, d.Name, strings.Join(ps, ", "), b.b.String(), ret)
}

// simdOrderOnly reports the SIMD-group operations whose float results Metal
// fixes only up to the order of their roundings: float sums, products and
// prefix scans.
func simdOrderOnly(d declaration) bool {
	if simdMatrixOrderOnly(d) {
		return true
	}
	if !strings.HasPrefix(d.Name, "air.simd_") || !isFloatType(d.Ret) {
		return false
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(d.Name, "air.simd_"), ".")
	base = strings.TrimPrefix(strings.TrimPrefix(base, "prefix_inclusive_"), "prefix_exclusive_")
	return base == "sum" || base == "product"
}
