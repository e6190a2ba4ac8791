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

// The printer prints an instruction in parts, as llvm-dis lays it out:
// the result, the opcode, the qualifiers after it, the operands and what
// follows them. The parts particular to a family are printed by
// write_inst_memory.go (alloca, load, store, atomics), write_inst_control.go
// (terminators, phi), write_inst_call.go (calls, debug records) and
// write_inst_vector.go (shufflevector, extractvalue, insertvalue).

func (p *printer) inst(in air.Instruction) {
	if c, ok := in.(*air.Call); ok && c.Called() != nil && isDbgIntrinsic(c.Called()) && p.dbgRecord(c) {
		return
	}
	base := in.Common()
	p.s("  ")
	p.instResult(in, base)
	p.s(in.Opcode().String())
	p.instQualifiers(in)
	p.instOperands(in)
	p.instTail(in)
	if l := p.loc(in); l != nil {
		p.s(", !dbg ")
		p.mdRef(p.locNode(l))
	}
	p.attachments(base.Attached, ", ")
	p.b('\n')
}

// instResult prints "%name = " for an instruction that has a result, and
// a call's tail-call marker.
func (p *printer) instResult(in air.Instruction, base *air.InstBase) {
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
}

// instQualifiers prints what stands between the opcode and the operands:
// access kinds, optimisation flags, a compare's predicate and an
// atomicrmw's operation.
func (p *printer) instQualifiers(in air.Instruction) {
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
		p.b(' ')
		p.s(i.Op.String())
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
		p.b(' ')
		p.s(i.Pred.String())
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
}

// instOperands prints an instruction's operands.
func (p *printer) instOperands(in air.Instruction) {
	switch i := in.(type) {
	case *air.Br:
		p.brOperands(i)
	case *air.Switch:
		p.switchOperands(i)
	case *air.Phi:
		p.phiOperands(i)
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
		p.callOperands(i)
	case *air.Alloca:
		p.allocaOperands(i)
	case *air.Cast:
		p.b(' ')
		p.typedValue(i.X)
		p.s(" to ")
		p.s(p.ty(i.Typ))
	default:
		p.listOperands(in)
	}
}

// listOperands prints the operand list of the instructions that have no
// form of their own: with one type in front when all share it, else each
// with its type; getelementptr and load name their element type first.
func (p *printer) listOperands(in air.Instruction) {
	ops := air.LLVMOperands(in)
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

// instTail prints what follows the operands: orderings and alignment, and
// a shufflevector's mask.
func (p *printer) instTail(in air.Instruction) {
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
		p.shuffleMask(i.Mask)
	}
}
