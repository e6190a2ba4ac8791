package bitcode

import "github.com/airpipe/airpipe/compiler/air"

// typeFinder discovers identified struct types in the order LLVM's
// TypeFinder does, so that the printer lists and numbers them alike.
// Typed pointers are walked as LLVM 19 sees them: opaque, without pointee.
type typeFinder struct {
	p       *printer
	types   map[air.Type]bool
	consts  map[air.Constant]bool
	mds     map[air.Metadata]bool
	structs []*air.StructType
}

func (p *printer) findTypes() {
	tf := &typeFinder{p: p, types: map[air.Type]bool{}, consts: map[air.Constant]bool{}, mds: map[air.Metadata]bool{}}
	m := p.m
	for _, g := range m.Globals {
		tf.typ(g.ValueType)
		if g.Init != nil {
			tf.value(g.Init)
		}
	}
	for _, f := range m.Functions {
		tf.typ(f.Sig)
		tf.attrs(f.Attrs)
		for _, c := range []air.Constant{f.Prefix, f.Prologue, f.Personality} {
			if c != nil {
				tf.value(c)
			}
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				tf.typ(in.Type())
				for _, o := range air.LLVMOperands(in) {
					if _, isInst := o.(air.Instruction); !isInst && o != nil {
						tf.value(o)
					}
				}
				switch i := in.(type) {
				case *air.GEP:
					tf.typ(i.SourceElem)
				case *air.Alloca:
					tf.typ(i.Elem)
				case *air.Call:
					tf.attrs(i.Attrs)
				}
				for _, a := range p.sortedAttachments(in.Common().Attached) {
					tf.md(a.Node)
				}
			}
		}
	}
	for _, nm := range p.namedMD() {
		for _, n := range nm.Nodes {
			tf.md(n)
		}
	}
	n := 0
	for _, st := range tf.structs {
		if st.Name == "" {
			p.structNo[st] = n
			n++
		}
		p.structs = append(p.structs, st)
	}
}

func (tf *typeFinder) typ(t air.Type) {
	if t == nil || tf.types[t] {
		return
	}
	tf.types[t] = true
	work := []air.Type{t}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		if st, ok := t.(*air.StructType); ok && !st.Literal {
			tf.structs = append(tf.structs, st)
		}
		subs := subtypes(t)
		for i := len(subs) - 1; i >= 0; i-- {
			if s := subs[i]; !tf.types[s] {
				tf.types[s] = true
				work = append(work, s)
			}
		}
	}
}

func subtypes(t air.Type) []air.Type {
	switch t := t.(type) {
	case *air.StructType:
		return t.Fields
	case *air.ArrayType:
		return []air.Type{t.Elem}
	case *air.VectorType:
		return []air.Type{t.Elem}
	case *air.FunctionType:
		return append([]air.Type{t.Ret}, t.Params...)
	}
	return nil
}

func (tf *typeFinder) attrs(l air.AttributeList) {
	sets := append([]air.AttrSet{l.Fn, l.Ret}, l.Params...)
	for _, s := range sets {
		for _, a := range s {
			if a.Type != nil {
				tf.typ(a.Type)
			}
		}
	}
}

func (tf *typeFinder) value(v air.Value) {
	switch x := v.(type) {
	case *air.MetadataValue:
		switch md := x.MD.(type) {
		case *air.MDNode:
			tf.md(md)
		case *air.MDValue:
			tf.value(md.Value)
		}
		return
	case *air.GlobalVariable, *air.Function:
		return
	case air.Constant:
		if tf.consts[x] {
			return
		}
		tf.consts[x] = true
		tf.typ(x.Type())
		switch c := x.(type) {
		case *air.ConstAggregate:
			if isDataSequential(c) {
				return
			}
			for _, e := range c.Elems {
				tf.value(e)
			}
		case *air.ConstExpr:
			if c.Op == air.OpGetElementPtr {
				tf.typ(c.SourceElem)
			}
			for _, e := range c.Ops {
				tf.value(e)
			}
		}
	}
}

// isDataSequential reports whether LLVM keeps c as a ConstantDataArray or
// Vector (simple integer or float elements), which has no operands.
func isDataSequential(c *air.ConstAggregate) bool {
	var et air.Type
	switch t := c.Typ.(type) {
	case *air.ArrayType:
		et = t.Elem
	case *air.VectorType:
		et = t.Elem
	default:
		return false
	}
	switch e := et.(type) {
	case *air.IntType:
		if e.Bits != 8 && e.Bits != 16 && e.Bits != 32 && e.Bits != 64 {
			return false
		}
	case *air.FloatType:
		if e.Kind != air.Half && e.Kind != air.BFloat && e.Kind != air.Float && e.Kind != air.Double {
			return false
		}
	default:
		return false
	}
	for _, x := range c.Elems {
		switch x.(type) {
		case *air.ConstInt, *air.ConstFloat:
		default:
			return false
		}
	}
	return true
}

func (tf *typeFinder) md(md air.Metadata) {
	n, ok := md.(*air.MDNode)
	if !ok || tf.mds[n] {
		return
	}
	tf.mds[n] = true
	for _, o := range n.Ops {
		switch x := o.(type) {
		case *air.MDNode:
			tf.md(x)
		case *air.MDValue:
			if c, ok := x.Value.(air.Constant); ok {
				tf.value(c)
			}
		}
	}
}
