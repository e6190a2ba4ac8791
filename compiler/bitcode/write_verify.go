package bitcode

import "github.com/airpipe/airpipe/compiler/air"

// brokenDebugLocs mirrors the one rule of LLVM's verifier that makes
// LLVM strip a module's debug info in the corpus: a debug location in
// function F (an instruction's !dbg, or a location in its !llvm.loop)
// whose inlined-at scope belongs to a subprogram other than F's.
func brokenDebugLocs(m *air.Module) bool {
	for _, f := range m.Functions {
		var sp air.Metadata
		for _, a := range f.Attached {
			if a.Kind == "dbg" {
				sp = a.Node
			}
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				base := in.Common()
				if l := base.Loc; l != nil {
					if s, ok := locSubprogram(l.Scope, l.InlinedAt); ok && s != sp {
						return true
					}
				}
				for _, a := range base.Attached {
					loop, ok := a.Node.(*air.MDNode)
					if a.Kind != "llvm.loop" || !ok {
						continue
					}
					for _, o := range loop.Ops[1:] {
						if d, ok := o.(*air.DINode); ok && d.Kind == "DILocation" && len(d.Refs) > 4 {
							if s, ok := locSubprogram(d.Refs[3], d.Refs[4]); ok && s != sp {
								return true
							}
						}
					}
				}
			}
		}
	}
	return false
}

// locSubprogram follows a location's inlined-at chain to the outermost
// scope and returns that scope's subprogram (false when the chain has a
// node this check does not know).
func locSubprogram(scope, inlinedAt air.Metadata) (air.Metadata, bool) {
	for depth := 0; inlinedAt != nil; depth++ {
		d, ok := inlinedAt.(*air.DINode)
		if !ok || d.Kind != "DILocation" || len(d.Refs) < 5 || depth > 1000 {
			return nil, false
		}
		scope, inlinedAt = d.Refs[3], d.Refs[4]
	}
	for depth := 0; depth < 1000; depth++ {
		d, ok := scope.(*air.DINode)
		if !ok {
			return nil, false
		}
		switch d.Kind {
		case "DISubprogram":
			return d, true
		case "DILexicalBlock", "DILexicalBlockFile":
			if len(d.Refs) < 2 {
				return nil, false
			}
			scope = d.Refs[1]
		default:
			return nil, false
		}
	}
	return nil, false
}

// strippedLoop is a loop-metadata node without its debug locations, as
// LLVM's debug-info stripping rewrites it: unchanged when it has none, nil
// when it has nothing else, otherwise a new distinct node.
func (p *printer) strippedLoop(md air.Metadata) air.Metadata {
	n, ok := md.(*air.MDNode)
	if !ok || len(n.Ops) == 0 {
		return md
	}
	if s, ok := p.loops[md]; ok {
		return s
	}
	if p.loops == nil {
		p.loops = map[air.Metadata]air.Metadata{}
	}
	isLoc := func(o air.Metadata) bool {
		d, ok := o.(*air.DINode)
		return ok && d.Kind == "DILocation"
	}
	locs := 0
	for _, o := range n.Ops[1:] {
		if isLoc(o) {
			locs++
		}
	}
	var out air.Metadata = n
	switch {
	case locs == 0:
	case locs == len(n.Ops)-1:
		out = nil
	default:
		nn := &air.MDNode{Distinct: true}
		nn.Ops = append(nn.Ops, nn)
		for _, o := range n.Ops[1:] {
			if !isLoc(o) {
				nn.Ops = append(nn.Ops, o)
			}
		}
		out = nn
	}
	p.loops[md] = out
	return out
}
