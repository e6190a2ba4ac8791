package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Printing branches, switches and phis.

func (p *printer) brOperands(i *air.Br) {
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
}

func (p *printer) switchOperands(i *air.Switch) {
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
}

func (p *printer) phiOperands(i *air.Phi) {
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
}
