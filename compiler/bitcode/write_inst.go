package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

func (p *printer) fastMath(f air.FastMath) {
	if f == 0 {
		return
	}
	if f&0xFE == 0xFE {
		p.s(" fast")
		return
	}
	for _, n := range fastMathNames {
		if f&n.bit != 0 {
			p.s(n.name)
		}
	}
}

// fastMathNames are the fast-math flags in the order llvm-dis prints them.
var fastMathNames = [...]struct {
	bit  air.FastMath
	name string
}{
	{air.AllowReassoc, " reassoc"}, {air.NoNaNs, " nnan"}, {air.NoInfs, " ninf"}, {air.NoSignedZeros, " nsz"},
	{air.AllowReciprocal, " arcp"}, {air.AllowContract, " contract"}, {air.ApproxFunc, " afn"},
}

func (p *printer) wrapFlags(f air.WrapFlags) {
	for _, n := range wrapFlagNames {
		if f&n.bit != 0 {
			p.s(n.name)
		}
	}
}

// wrapFlagNames are the integer wrap flags in the order llvm-dis prints them.
var wrapFlagNames = [...]struct {
	bit  air.WrapFlags
	name string
}{
	{air.Disjoint, " disjoint"}, {air.NUW, " nuw"}, {air.NSW, " nsw"}, {air.Exact, " exact"}, {air.NonNeg, " nneg"},
}

// operands lists an instruction's operands in LLVM's operand order
// (blocks included where LLVM keeps them as operands).
func operands(in air.Instruction) []air.Value {
	switch i := in.(type) {
	case *air.BinOp:
		return []air.Value{i.X, i.Y}
	case *air.UnaryOp:
		return []air.Value{i.X}
	case *air.Freeze:
		return []air.Value{i.X}
	case *air.Cast:
		return []air.Value{i.X}
	case *air.Alloca:
		return []air.Value{i.Count}
	case *air.Load:
		return []air.Value{i.Ptr}
	case *air.Store:
		return []air.Value{i.Val, i.Ptr}
	case *air.GEP:
		return append([]air.Value{i.Base}, i.Indices...)
	case *air.Cmp:
		return []air.Value{i.X, i.Y}
	case *air.Phi:
		out := make([]air.Value, len(i.Incoming))
		for k, x := range i.Incoming {
			out[k] = x.Value
		}
		return out
	case *air.Select:
		return []air.Value{i.Cond, i.X, i.Y}
	case *air.Call:
		out := append([]air.Value(nil), i.Args...)
		for _, b := range i.Bundles {
			out = append(out, b.Args...)
		}
		return append(out, i.Callee)
	case *air.Ret:
		if i.X == nil {
			return nil
		}
		return []air.Value{i.X}
	case *air.Br:
		if i.Cond == nil {
			return []air.Value{i.True}
		}
		return []air.Value{i.Cond, i.False, i.True}
	case *air.Switch:
		out := []air.Value{i.Cond, i.Default}
		for _, c := range i.Cases {
			out = append(out, c.Value, c.Dest)
		}
		return out
	case *air.ExtractElement:
		return []air.Value{i.Vec, i.Index}
	case *air.InsertElement:
		return []air.Value{i.Vec, i.Elem, i.Index}
	case *air.ShuffleVector:
		return []air.Value{i.X, i.Y}
	case *air.ExtractValue:
		return []air.Value{i.Agg}
	case *air.InsertValue:
		return []air.Value{i.Agg, i.Val}
	case *air.AtomicRMW:
		return []air.Value{i.Ptr, i.Val}
	case *air.CmpXchg:
		return []air.Value{i.Ptr, i.Cmp, i.New}
	}
	return nil
}

// align prints ", align N" when the alignment is given.
func (p *printer) align(a uint64) {
	if a != 0 {
		p.s(", align ")
		p.u(a)
	}
}

// ordered prints an atomic's sync scope and ordering.
func (p *printer) ordered(scope uint64, o air.Ordering) {
	p.syncScope(scope)
	p.b(' ')
	p.s(o.String())
}

// accessKind prints " atomic" and " volatile" after load or store.
func (p *printer) accessKind(o air.Ordering, volatile bool) {
	if o != air.NotAtomic {
		p.s(" atomic")
	}
	if volatile {
		p.s(" volatile")
	}
}

// accessTail prints a load's or store's sync scope and ordering, when atomic, and alignment.
func (p *printer) accessTail(scope uint64, o air.Ordering, align uint64) {
	if o != air.NotAtomic {
		p.ordered(scope, o)
	}
	p.align(align)
}

// indexList prints extractvalue/insertvalue member indices as ", i, j".
func (p *printer) indexList(idx []uint32) {
	for _, x := range idx {
		p.s(", ")
		p.u(uint64(x))
	}
}

func (p *printer) syncScope(id uint64) {
	if id == 1 || id >= uint64(len(p.m.SyncScopes)) {
		return // system scope
	}
	p.quoted(" syncscope(\"", p.m.SyncScopes[id], "\")")
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

func (p *printer) inst(in air.Instruction) {
	if c, ok := in.(*air.Call); ok && c.Called() != nil && isDbgIntrinsic(c.Called()) && p.dbgRecord(c) {
		return
	}
	base := in.Common()
	p.s("  ")
	if base.Name != "" {
		p.b('%')
		p.s(air.QuoteName(base.Name))
		p.s(" = ")
	} else if air.HasResult(in) {
		p.b('%')
		p.i(p.local[in])
		p.s(" = ")
	}
	if c, ok := in.(*air.Call); ok {
		switch c.Tail {
		case air.MustTail:
			p.s("musttail ")
		case air.Tail:
			p.s("tail ")
		case air.NoTailCall:
			p.s("notail ")
		}
	}
	p.s(in.Opcode().String())
	switch i := in.(type) {
	case *air.Load:
		p.accessKind(i.Ordering, i.Volatile)
	case *air.Store:
		p.accessKind(i.Ordering, i.Volatile)
	case *air.CmpXchg:
		if i.Weak {
			p.s(" weak")
		}
		if i.Volatile {
			p.s(" volatile")
		}
	case *air.AtomicRMW:
		if i.Volatile {
			p.s(" volatile")
		}
	}
	// optimisation flags
	switch i := in.(type) {
	case *air.BinOp:
		p.fastMath(i.FastMath)
		p.wrapFlags(i.Flags)
	case *air.UnaryOp:
		p.fastMath(i.FastMath)
	case *air.Cast:
		p.fastMath(i.FastMath)
		p.wrapFlags(i.Flags)
	case *air.Cmp:
		p.fastMath(i.FastMath)
	case *air.Select:
		p.fastMath(i.FastMath)
	case *air.Phi:
		p.fastMath(i.FastMath)
	case *air.Call:
		p.fastMath(i.FastMath)
	case *air.GEP:
		if i.InBounds {
			p.s(" inbounds")
		} else if i.NUSW {
			p.s(" nusw")
		}
		if i.NUW {
			p.s(" nuw")
		}
	}
	if c, ok := in.(*air.Cmp); ok {
		p.b(' ')
		p.s(c.Pred.String())
	}
	if a, ok := in.(*air.AtomicRMW); ok {
		p.b(' ')
		p.s(a.Op.String())
	}
	switch i := in.(type) {
	case *air.Br:
		p.b(' ')
		if i.Cond != nil {
			p.typedValue(i.Cond)
			p.s(", ")
			p.typedValue(i.True)
			p.s(", ")
			p.typedValue(i.False)
		} else {
			p.typedValue(i.True)
		}
	case *air.Switch:
		p.b(' ')
		p.typedValue(i.Cond)
		p.s(", ")
		p.typedValue(i.Default)
		p.s(" [")
		for _, c := range i.Cases {
			p.s("\n    ")
			p.typedValue(c.Value)
			p.s(", ")
			p.typedValue(c.Dest)
		}
		p.s("\n  ]")
	case *air.Phi:
		p.b(' ')
		p.s(p.ty(i.Typ))
		p.b(' ')
		for k, x := range i.Incoming {
			if k > 0 {
				p.s(", ")
			}
			p.s("[ ")
			p.valueRef(x.Value)
			p.s(", ")
			p.valueRef(x.Block)
			p.s(" ]")
		}
	case *air.ExtractValue:
		p.b(' ')
		p.typedValue(i.Agg)
		p.indexList(i.Indices)
	case *air.InsertValue:
		p.b(' ')
		p.typedValue(i.Agg)
		p.s(", ")
		p.typedValue(i.Val)
		p.indexList(i.Indices)
	case *air.Ret:
		if i.X == nil {
			p.s(" void")
		} else {
			p.b(' ')
			p.typedValue(i.X)
		}
	case *air.Unreachable, *air.Fence:
	case *air.Call:
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
			p.s(" [ ")
			for k, bd := range i.Bundles {
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
	case *air.Alloca:
		p.b(' ')
		if i.InAlloca {
			p.s("inalloca ")
		}
		if i.SwiftErr {
			p.s("swifterror ")
		}
		p.s(p.ty(i.Elem))
		ci, isConst := i.Count.(*air.ConstInt)
		if !isConst || ci.Bits != 1 || ci.Typ.Bits != 32 {
			p.s(", ")
			p.typedValue(i.Count)
		}
		p.align(i.Align)
		if i.AddrSpace != 0 {
			p.s(", addrspace(")
			p.i(i.AddrSpace)
			p.b(')')
		}
	case *air.Cast:
		p.b(' ')
		p.typedValue(i.X)
		p.s(" to ")
		p.s(p.ty(i.Typ))
	default:
		ops := operands(in)
		if g, ok := in.(*air.GEP); ok {
			p.b(' ')
			p.s(p.ty(g.SourceElem))
			p.b(',')
		} else if l, ok := in.(*air.Load); ok {
			p.b(' ')
			p.s(p.ty(l.Typ))
			p.b(',')
		}
		all := false
		switch in.(type) {
		case *air.Select, *air.Store, *air.ShuffleVector, *air.CmpXchg, *air.AtomicRMW:
			all = true
		default:
			for _, o := range ops[1:] {
				if !p.sameType(o.Type(), ops[0].Type()) {
					all = true
					break
				}
			}
		}
		if !all && len(ops) > 0 {
			p.b(' ')
			p.s(p.ty(ops[0].Type()))
		}
		p.b(' ')
		for k, o := range ops {
			if k > 0 {
				p.s(", ")
			}
			if all {
				p.typedValue(o)
			} else {
				p.valueRef(o)
			}
		}
	}
	switch i := in.(type) {
	case *air.Load:
		p.accessTail(i.SyncScope, i.Ordering, i.Align)
	case *air.Store:
		p.accessTail(i.SyncScope, i.Ordering, i.Align)
	case *air.CmpXchg:
		p.ordered(i.SyncScope, i.Success)
		p.b(' ')
		p.s(i.Failure.String())
		p.align(i.Align)
	case *air.AtomicRMW:
		p.ordered(i.SyncScope, i.Ordering)
		p.align(i.Align)
	case *air.Fence:
		p.ordered(i.SyncScope, i.Ordering)
	case *air.ShuffleVector:
		p.s(", <")
		p.i(len(i.Mask))
		p.s(" x i32> ")
		allZero, allPoison := true, true
		for _, x := range i.Mask {
			if x != 0 {
				allZero = false
			}
			if x != -1 {
				allPoison = false
			}
		}
		switch {
		case allZero:
			p.s("zeroinitializer")
		case allPoison:
			p.s("poison")
		default:
			p.b('<')
			for k, x := range i.Mask {
				if k > 0 {
					p.s(", ")
				}
				p.s("i32 ")
				if x == -1 {
					p.s("poison")
				} else {
					p.i(x)
				}
			}
			p.b('>')
		}
	}
	if l := p.loc(in); l != nil {
		p.s(", !dbg ")
		p.mdRef(p.locNode(l))
	}
	p.attachments(base.Attached, ", ")
	p.b('\n')
}
