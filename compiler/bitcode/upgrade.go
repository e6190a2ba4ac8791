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
//     new declaration carries the intrinsic's parameter attributes.

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
			// the new declaration carries the intrinsic's own parameter attributes
			for prefix, attrs := range intrinsicParamAttrs {
				if strings.HasPrefix(nn, prefix) {
					f.Attrs.Params = attrs
				}
			}
			moved = append(moved, f)
			continue
		}
		kept = append(kept, f)
	}
	if len(moved) > 0 {
		m.Functions = append(kept, moved...)
	}
}

// intrinsicParamAttrs are the parameter attributes LLVM declares these
// remangled intrinsics with.
var intrinsicParamAttrs = map[string][]air.AttrSet{
	"llvm.lifetime.start.": {{{Kind: "immarg"}}, {{Kind: "nocapture"}}},
	"llvm.lifetime.end.":   {{{Kind: "immarg"}}, {{Kind: "nocapture"}}},
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
