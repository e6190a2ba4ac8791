package air

import (
	"sort"
	"strings"
)

// Features lists what a module uses, sorted and deduplicated:
// "call:air.fast_acos.f32" for every air.* or llvm.* function it calls
// (calls, not declarations), "md:air.buffer" for every !"air.*" metadata
// string, "op:fadd" for every instruction opcode, "type:<4 x float>" for
// every type of a value it computes or takes, "stage:fragment" for each
// entry-point stage, and "md-unknown:air.xyz" for every entry-point key
// EntryPoints does not interpret.
func Features(m *Module) []string {
	set := map[string]bool{}
	addType := func(t Type) {
		switch tt := t.(type) {
		case *VoidType, *LabelType, *MetadataType, nil:
			return
		case *StructType:
			if !tt.Literal {
				set["type:struct"] = true
				return
			}
		case *FunctionType:
			return
		}
		set["type:"+t.String()] = true
	}
	for _, g := range m.Globals {
		addType(g.ValueType)
	}
	for _, f := range m.Functions {
		if f.IsDeclaration() {
			continue
		}
		for _, a := range f.Args {
			addType(a.Typ)
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				op := in.Opcode()
				set["op:"+op.String()] = true
				addType(in.Type())
				if c, ok := in.(*Call); ok {
					if fn := c.Called(); fn != nil && (strings.HasPrefix(fn.Name, "air.") || strings.HasPrefix(fn.Name, "llvm.")) {
						set["call:"+fn.Name] = true
					}
				}
			}
		}
	}
	seen := map[Metadata]bool{}
	var walk func(md Metadata)
	walk = func(md Metadata) {
		if md == nil || seen[md] {
			return
		}
		seen[md] = true
		switch x := md.(type) {
		case *MDString:
			if strings.HasPrefix(x.Value, "air.") {
				set["md:"+x.Value] = true
			}
		case *MDNode:
			for _, o := range x.Ops {
				walk(o)
			}
		}
	}
	for _, nm := range m.NamedMD {
		for _, n := range nm.Nodes {
			walk(n)
		}
	}
	if eps, err := EntryPoints(m); err == nil {
		for _, ep := range eps {
			set["stage:"+string(ep.Stage)] = true
			for _, bs := range [][]Binding{ep.Inputs, ep.Outputs} {
				for _, b := range bs {
					for _, u := range b.Unknown {
						set["md-unknown:"+u] = true
					}
				}
			}
		}
	} else {
		set["md-unknown:entry-point-shape"] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
