package bitcode

import (
	"regexp"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// Upgrades the reader applies, as LLVM 19's reader does, so that the IR
// (and its printed text) is what LLVM itself would build:
//
//   - intrinsic names mangled with typed pointers (llvm.foo.p1i8) are
//     renamed to their opaque-pointer mangling (llvm.foo.p1); the
//     declaration moves to the end of the function list;
//   - the old five-argument llvm.memcpy / llvm.memmove / llvm.memset
//     (with an i32 alignment argument) become the four-argument form with
//     align attributes on the pointer arguments; the new call has no tail
//     marker and no metadata attachments (LLVM builds a fresh call), and the
//     new declaration carries the intrinsic's parameter attributes;
//   - a declaration of an intrinsic of intrinsicAttrs gets LLVM's own
//     return and parameter attributes (llvm.assume's noundef, say), as
//     LLVM replaces them whatever the bitcode gave.

var typedMangling = regexp.MustCompile(`\.p([0-9]+)(i[0-9]+|f[0-9]+|f16|v[0-9]+[if][0-9]+|s_[^.]*s|a[0-9]+[if][0-9]+)`)

func (r *reader) upgradeIntrinsics() {
	m := r.m
	var kept, moved []*air.Function
	for _, f := range m.Functions {
		if !f.IsDeclaration() || !strings.HasPrefix(f.Name, "llvm.") {
			kept = append(kept, f)
			continue
		}
		if nf := r.upgradeMemIntrinsic(f); nf != nil {
			moved = append(moved, nf)
			continue
		}
		if nn := typedMangling.ReplaceAllString(f.Name, ".p$1"); nn != f.Name {
			f.Name = nn
			moved = append(moved, f)
			continue
		}
		kept = append(kept, f)
	}
	if len(moved) > 0 {
		m.Functions = append(kept, moved...)
	}
	for _, f := range m.Functions {
		if f.IsDeclaration() && strings.HasPrefix(f.Name, "llvm.") {
			setIntrinsicAttrs(f)
		}
	}
}

// intrinsicAttrs are the parameter attributes LLVM 19 declares these
// intrinsics with (none on their results); TestIntrinsicAttrs checks each
// against llvm-as-19. An entry without attributes is listed too: LLVM
// drops whatever the bitcode gave.
var intrinsicAttrs = map[string][]air.AttrSet{
	"llvm.assume":         {{{Kind: "noundef"}}},
	"llvm.lifetime.start": {{{Kind: "immarg"}}, {{Kind: "nocapture"}}},
	"llvm.lifetime.end":   {{{Kind: "immarg"}}, {{Kind: "nocapture"}}},
	"llvm.memcpy":         memParamAttrs["llvm.memcpy"],
	"llvm.memmove":        memParamAttrs["llvm.memmove"],
	"llvm.memset":         memParamAttrs["llvm.memset"],
	"llvm.abs":            {nil, {{Kind: "immarg"}}},
	"llvm.ctlz":           {nil, {{Kind: "immarg"}}},
	"llvm.cttz":           {nil, {{Kind: "immarg"}}},
	"llvm.ctpop":          nil, "llvm.fabs": nil, "llvm.fma": nil, "llvm.fmuladd": nil,
	"llvm.fshl": nil, "llvm.fshr": nil, "llvm.maxnum": nil, "llvm.minnum": nil,
	"llvm.smax": nil, "llvm.smin": nil, "llvm.umax": nil, "llvm.umin": nil, "llvm.expect": nil,
}

// overloadSuffix is the mangling of an intrinsic's overloaded types
// (.p1, .i32, .f16, .bf16, .v4f32), so that llvm.memcpy.p0.p0.i64 is
// llvm.memcpy and llvm.memcpy.inline.p0.p0.i64 is not.
var overloadSuffix = regexp.MustCompile(`^(\.(p[0-9]+|i[0-9]+|bf16|f[0-9]+|v[0-9]+(i[0-9]+|bf16|f[0-9]+|p[0-9]+)))*$`)

// setIntrinsicAttrs gives a declaration of a listed intrinsic LLVM's own
// return and parameter attributes, as LLVM's reader replaces them
// (UpgradeIntrinsicFunction sets Intrinsic::getAttributes). Function
// attributes are kept: the oracle does not compare them and the
// translation reads none.
func setIntrinsicAttrs(f *air.Function) {
	name := f.Name
	for {
		attrs, ok := intrinsicAttrs[name]
		if ok && overloadSuffix.MatchString(f.Name[len(name):]) {
			if len(attrs) <= len(f.Sig.Params) {
				f.Attrs.Ret, f.Attrs.Params = nil, attrs
			}
			return
		}
		i := strings.LastIndexByte(name, '.')
		if i <= len("llvm") {
			return
		}
		name = name[:i]
	}
}

// memParamAttrs are the parameter attributes LLVM declares the intrinsics with.
var memParamAttrs = map[string][]air.AttrSet{
	"llvm.memcpy":  {{{Kind: "noalias"}, {Kind: "nocapture"}, {Kind: "writeonly"}}, {{Kind: "noalias"}, {Kind: "nocapture"}, {Kind: "readonly"}}, nil, {{Kind: "immarg"}}},
	"llvm.memmove": {{{Kind: "nocapture"}, {Kind: "writeonly"}}, {{Kind: "nocapture"}, {Kind: "readonly"}}, nil, {{Kind: "immarg"}}},
	"llvm.memset":  {{{Kind: "nocapture"}, {Kind: "writeonly"}}, nil, nil, {{Kind: "immarg"}}},
}

func (r *reader) upgradeMemIntrinsic(f *air.Function) *air.Function {
	base := ""
	for b := range memParamAttrs {
		if strings.HasPrefix(f.Name, b+".") {
			base = b
		}
	}
	sig := f.Sig
	if base == "" || len(sig.Params) != 5 {
		return nil
	}
	if it, ok := sig.Params[3].(*air.IntType); !ok || it.Bits != 32 {
		return nil
	}
	nf := &air.Function{Sig: &air.FunctionType{Ret: sig.Ret, Params: []air.Type{sig.Params[0], sig.Params[1], sig.Params[2], sig.Params[4]}}}
	nf.GlobalCommon = f.GlobalCommon
	nf.Name = typedMangling.ReplaceAllString(f.Name, ".p$1")
	nf.Attrs = air.AttributeList{Fn: f.Attrs.Fn, Params: memParamAttrs[base], Group: -1}
	nf.CallingConv = f.CallingConv
	nf.SetPointerType(f.Type().(*air.PointerType))
	nf.Args = make([]*air.Argument, 4)
	for i, t := range nf.Sig.Params {
		nf.Args[i] = &air.Argument{Typ: t, Index: i, Func: nf}
	}
	for _, g := range r.m.Functions {
		for _, b := range g.Blocks {
			for k, in := range b.Insts {
				c, ok := in.(*air.Call)
				if !ok || c.Callee != air.Value(f) {
					continue
				}
				b.Insts[k] = upgradeMemCall(c, nf)
			}
		}
	}
	return nf
}

func upgradeMemCall(c *air.Call, nf *air.Function) *air.Call {
	n := &air.Call{Callee: nf, Sig: nf.Sig, Args: []air.Value{c.Args[0], c.Args[1], c.Args[2], c.Args[4]}, CallingConv: c.CallingConv}
	n.Typ = c.Typ
	n.Name = c.Name
	n.Parent = c.Parent
	n.Loc = c.Loc
	p := func(i int) air.AttrSet { return append(air.AttrSet(nil), c.Attrs.Param(i)...) }
	params := []air.AttrSet{p(0), p(1), p(2), p(4)}
	if al, ok := c.Args[3].(*air.ConstInt); ok && al.Bits != 0 {
		isSet := strings.HasPrefix(nf.Name, "llvm.memset")
		for i := 0; i < 2; i++ {
			if i == 1 && isSet {
				break
			}
			params[i] = append(params[i], air.Attribute{Kind: "align", HasInt: true, Int: al.Bits})
			sortAttrs(params[i])
		}
	}
	n.Attrs = air.AttributeList{Fn: c.Attrs.Fn, Ret: c.Attrs.Ret, Params: params, Group: -1}
	return n
}

// upgradeModuleFlags rewrites the behaviour of the module flags LLVM 19's
// reader upgrades (UpgradeModuleFlags), each flag an !{i32 behaviour,
// !"key", value} of !llvm.module.flags: "PIC Level" from Error (1) or Max
// (7) to Min (8), "PIE Level" from Error to Max, and
// "branch-target-enforcement" and "sign-return-address*" from Error to
// Min. The flag becomes a new node in the list, as in LLVM. The
// Objective-C flags LLVM also rewrites are not mirrored (Metal has none).
func (r *reader) upgradeModuleFlags() {
	nm := r.m.NamedMetadata("llvm.module.flags")
	if nm == nil {
		return
	}
	for i, md := range nm.Nodes {
		n, ok := md.(*air.MDNode)
		if !ok || len(n.Ops) != 3 {
			continue
		}
		key, ok1 := air.StringOp(n, 1)
		b, ok2 := air.IntOp(n, 0)
		if !ok1 || !ok2 {
			continue
		}
		to := flagUpgrade(key, b)
		if to == b {
			continue
		}
		old := n.Ops[0].(*air.MDValue).Value.(*air.ConstInt)
		nm.Nodes[i] = &air.MDNode{Ops: []air.Metadata{&air.MDValue{Value: &air.ConstInt{Typ: old.Typ, Bits: uint64(to)}}, n.Ops[1], n.Ops[2]}}
	}
}

// The module flag behaviours.
const (
	flagError = 1
	flagMax   = 7
	flagMin   = 8
)

func flagUpgrade(key string, b int64) int64 {
	switch {
	case key == "PIC Level" && (b == flagError || b == flagMax):
		return flagMin
	case key == "PIE Level" && b == flagError:
		return flagMax
	case (key == "branch-target-enforcement" || strings.HasPrefix(key, "sign-return-address")) && b == flagError:
		return flagMin
	}
	return b
}
