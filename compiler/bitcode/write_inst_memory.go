package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Printing alloca, loads, stores and the atomics' orderings.

func (p *printer) allocaOperands(i *air.Alloca) {
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

func (p *printer) syncScope(id uint64) {
	if id == 1 || id >= uint64(len(p.m.SyncScopes)) {
		return // system scope
	}
	p.quoted(" syncscope(\"", p.m.SyncScopes[id], "\")")
}
