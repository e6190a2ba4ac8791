package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Printing calls and the debug records that calls of debug intrinsics
// print as.

func (p *printer) callOperands(i *air.Call) {
	if i.CallingConv != 0 {
		p.b(' ')
		p.callingConv(i.CallingConv)
	}
	if len(i.Attrs.Ret) > 0 {
		p.b(' ')
		p.attrSet(i.Attrs.Ret)
	}
	p.b(' ')
	if i.Sig.VarArg {
		p.s(p.ty(i.Sig))
	} else {
		p.s(p.ty(i.Sig.Ret))
	}
	p.b(' ')
	p.valueRef(i.Callee)
	p.b('(')
	for k, a := range i.Args {
		if k > 0 {
			p.s(", ")
		}
		p.s(p.ty(a.Type()))
		if as := i.Attrs.Param(k); len(as) > 0 {
			p.b(' ')
			p.attrSet(as)
		}
		p.b(' ')
		p.valueRef(a)
	}
	p.b(')')
	if len(i.Attrs.Fn) > 0 {
		p.s(" #")
		p.i(p.attrSlotOf(i.Attrs.Fn))
	}
	if len(i.Bundles) > 0 {
		p.bundles(i.Bundles)
	}
}

// bundles prints a call's operand bundles: [ "tag"(ty v, ...), ... ].
func (p *printer) bundles(bs []air.Bundle) {
	p.s(" [ ")
	for k, bd := range bs {
		if k > 0 {
			p.s(", ")
		}
		p.b('"')
		p.s(air.EscapeString(bd.Tag))
		p.s("\"(")
		for j, a := range bd.Args {
			if j > 0 {
				p.s(", ")
			}
			p.typedValue(a)
		}
		p.b(')')
	}
	p.s(" ]")
}

// dbgRecord prints a call of a debug intrinsic as the debug record LLVM 19
// reads it into and llvm-dis-19 prints: #dbg_value(value, !var, !expr, !loc).
func (p *printer) dbgRecord(c *air.Call) bool {
	fn := c.Called()
	kind := fn.Name[len("llvm.dbg."):]
	if kind == "addr" || len(c.Args) < 1 || c.Loc == nil {
		return false
	}
	p.s("    #dbg_")
	p.s(kind)
	p.b('(')
	for i, a := range c.Args {
		if i > 0 {
			p.s(", ")
		}
		mv, ok := a.(*air.MetadataValue)
		if !ok {
			p.typedValue(a)
			continue
		}
		p.mdRef(mv.MD)
	}
	p.s(", ")
	p.mdRef(p.locNode(c.Loc))
	p.s(")\n")
	return true
}
