package bitcode

import (
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// createSlot numbers a node and, depth first, the nodes it refers to (as
// LLVM's slot tracker does). Strings and values are printed inline.
func (p *printer) createSlot(md air.Metadata) {
	switch n := md.(type) {
	case *air.MDNode:
		if _, ok := p.mdSlot[n]; ok {
			return
		}
		p.mdSlot[n] = len(p.mdOrder)
		p.mdOrder = append(p.mdOrder, n)
		for _, o := range n.Ops {
			switch o.(type) {
			case *air.MDNode, *air.DINode:
				p.createSlot(o)
			}
		}
	case *air.DINode:
		if n.Kind == "DIExpression" {
			return
		}
		if _, ok := p.mdSlot[n]; ok {
			return
		}
		p.mdSlot[n] = len(p.mdOrder)
		p.mdOrder = append(p.mdOrder, n)
		for _, o := range p.diOperands(n) {
			switch o.(type) {
			case *air.MDNode, *air.DINode:
				p.createSlot(o)
			}
		}
	}
}

func (p *printer) numberModuleMD() {
	for _, g := range p.m.Globals {
		for _, a := range p.sortedAttachments(g.Attached) {
			p.createSlot(a.Node)
		}
	}
	for _, nm := range p.namedMD() {
		for _, n := range nm.Nodes {
			p.createSlot(n)
		}
	}
}

// numberFunctionMD numbers the metadata a function uses, in the order
// LLVM's slot tracker meets it when the function is printed.
func (p *printer) numberFunctionMD(f *air.Function) {
	for _, a := range p.sortedAttachments(f.Attached) {
		p.createSlot(a.Node)
	}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if c, ok := in.(*air.Call); ok && !p.skipped(in) {
				if fn := c.Called(); fn != nil && strings.HasPrefix(fn.Name, "llvm.") {
					for _, a := range air.LLVMOperands(in) {
						if mv, ok := a.(*air.MetadataValue); ok {
							switch mv.MD.(type) {
							case *air.MDNode, *air.DINode:
								p.createSlot(mv.MD)
							}
						}
					}
				}
			}
			if p.skipped(in) {
				continue
			}
			base := in.Common()
			if l := p.loc(in); l != nil {
				p.createSlot(p.locNode(l))
			}
			for _, a := range p.sortedAttachments(base.Attached) {
				p.createSlot(a.Node)
			}
		}
	}
}

// locNode returns the (uniqued) DILocation node of a debug location.
func (p *printer) locNode(l *air.DebugLoc) air.Metadata {
	if p.locs == nil {
		p.locs = map[air.DebugLoc]*air.DINode{}
		p.locRefs = map[*air.DINode][2]air.Metadata{}
	}
	if n, ok := p.locs[*l]; ok {
		return n
	}
	// LLVM uniques DILocations: an instruction's location that equals a
	// uniqued DILocation of the metadata block (one in loop metadata, say)
	// is that node.
	if p.mdLocs == nil {
		p.mdLocs = p.indexMDLocations()
	}
	if n, ok := p.mdLocs[locKey{l.Line, l.Col, l.Scope, l.InlinedAt, l.Implicit}]; ok {
		p.locs[*l] = n
		return n
	}
	n := &air.DINode{Kind: "DILocation", Ops: []uint64{l.Line, l.Col}}
	p.locs[*l] = n
	p.locRefs[n] = [2]air.Metadata{l.Scope, l.InlinedAt}
	return n
}

// locKey is a DILocation's contents, as LLVM uniques them.
type locKey struct {
	line, col        uint64
	scope, inlinedAt air.Metadata
	implicit         bool
}

// indexMDLocations finds the uniqued DILocation nodes of the module's
// metadata (reachable from named metadata, attachments and metadata
// operands of calls), by contents.
func (p *printer) indexMDLocations() map[locKey]*air.DINode {
	idx := map[locKey]*air.DINode{}
	seen := map[air.Metadata]bool{}
	var walk func(md air.Metadata)
	walk = func(md air.Metadata) {
		if md == nil || seen[md] {
			return
		}
		seen[md] = true
		switch n := md.(type) {
		case *air.MDNode:
			for _, o := range n.Ops {
				walk(o)
			}
		case *air.DINode:
			if n.Kind == "DILocation" && !n.Distinct && len(n.Refs) > 4 {
				k := locKey{diOp(n, 1), diOp(n, 2), n.Refs[3], n.Refs[4], diOp(n, 5) != 0}
				if _, ok := idx[k]; !ok {
					idx[k] = n
				}
			}
			for _, o := range n.Refs {
				walk(o)
			}
		}
	}
	attached := func(att []air.Attachment) {
		for _, a := range att {
			walk(a.Node)
		}
	}
	for _, nm := range p.m.NamedMD {
		for _, n := range nm.Nodes {
			walk(n)
		}
	}
	for _, g := range p.m.Globals {
		attached(g.Attached)
	}
	for _, f := range p.m.Functions {
		attached(f.Attached)
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				attached(in.Common().Attached)
				for _, o := range air.LLVMOperands(in) {
					if mv, ok := o.(*air.MetadataValue); ok {
						walk(mv.MD)
					}
				}
			}
		}
	}
	return idx
}

// mdRef prints a reference to metadata: !N for nodes, inline otherwise.
func (p *printer) mdRef(md air.Metadata) {
	switch n := md.(type) {
	case nil:
		p.s("null")
	case *air.MDNode, *air.DINode:
		if k, ok := p.mdSlot[md]; ok {
			p.b('!')
			p.i(k)
			return
		}
		p.mdBody(md)
	case *air.MDString:
		p.quoted("!\"", n.Value, "\"")
	case *air.MDValue:
		p.typedValue(n.Value)
	}
}

// mdOperandInline prints metadata used as a call operand.
func (p *printer) mdOperandInline(md air.Metadata) {
	p.mdRef(md)
}

func (p *printer) mdBody(md air.Metadata) {
	switch n := md.(type) {
	case *air.MDNode:
		if n.Distinct {
			p.s("distinct ")
		}
		p.s("!{")
		for i, o := range n.Ops {
			if i > 0 {
				p.s(", ")
			}
			p.mdRef(o)
		}
		p.b('}')
	case *air.DINode:
		if n.Kind == "DILocation" {
			line, col, implicit := diOp(n, 1), diOp(n, 2), diOp(n, 5) != 0
			if _, ok := p.locRefs[n]; ok {
				line, col, implicit = n.Ops[0], n.Ops[1], false
			}
			ops := p.diOperands(n)
			if n.Distinct {
				p.s("distinct ")
			}
			p.s("!DILocation(line: ")
			p.s(strconv.FormatUint(line, 10))
			if col != 0 {
				p.s(", column: ")
				p.s(strconv.FormatUint(col, 10))
			}
			p.s(", scope: ")
			p.mdRef(ops[0])
			if ops[1] != nil {
				p.s(", inlinedAt: ")
				p.mdRef(ops[1])
			}
			if implicit {
				p.s(", isImplicitCode: true")
			}
			p.b(')')
			return
		}
		if p.diBody(n) {
			return
		}
		// Specialised debug-info nodes are kept raw; their LLVM syntax is not printed.
		p.s("!")
		p.s(n.Kind)
		p.s("(<not printed>)")
	default:
		p.mdRef(md)
	}
}
