package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// The value-flow contract. LLVM's SSA promises that a definition dominates
// its uses; the structured plan keeps every path of the CFG, but a dispatch
// node (cfg.go) joins edges from several blocks, so a block after it can
// stop being dominated by a definition that every real path to it still
// passes. Before the body is emitted, every use is checked against the
// plan's dominators; a value whose use the plan no longer dominates is
// demoted: stored to a function variable where it is defined and loaded
// where it is used (for a phi operand, at the end of the predecessor). Every
// execution reaching the use ran the definition last, so the load reads the
// value SSA names. A value that cannot live in memory (a texture) is refused
// by name.

// crossing is one demoted value: its variable (0 until first needed).
type crossing struct {
	v    air.Instruction
	vari spirv.ID
}

// phiLoadKey is one phi operand loaded at the end of its predecessor node.
type phiLoadKey struct {
	slot *phiSlot
	node int
}

// planValueFlow finds the values of fn whose uses the plan does not dominate.
func (t *translator) planValueFlow(fn *air.Function) {
	t.cross = map[air.Value]*crossing{}
	t.phiLoads = map[phiLoadKey]spirv.ID{}
	f := t.plan.facts()
	nodesOf := make([][]int, len(fn.Blocks))
	for n := range t.plan.succ {
		if b := t.blockOf(n); b >= 0 && f.rpoNum[n] >= 0 {
			nodesOf[b] = append(nodesOf[b], n)
		}
	}
	// reaches: some copy of def's block dominates every copy of block u.
	known := map[[2]int]bool{}
	reaches := func(def, u int) bool {
		k := [2]int{def, u}
		if r, ok := known[k]; ok {
			return r
		}
		r := true
		for _, un := range nodesOf[u] {
			ok := false
			for _, dn := range nodesOf[def] {
				if f.dominates(dn, un) {
					ok = true
					break
				}
			}
			if !ok {
				r = false
				break
			}
		}
		known[k] = r
		return r
	}
	use := func(x air.Value, at int) {
		in, ok := x.(air.Instruction)
		if !ok || !air.HasResult(in) || in.Common().Parent == nil || in.Common().Parent.Func != fn {
			return
		}
		if d := in.Common().Parent.Index; d != at && !reaches(d, at) {
			t.cross[in] = &crossing{v: in}
		}
	}
	for _, bl := range fn.Blocks {
		for _, in := range bl.Insts {
			if p, ok := in.(*air.Phi); ok {
				for _, inc := range p.Incoming {
					use(inc.Value, inc.Block.Index)
				}
				continue
			}
			for _, x := range air.LLVMOperands(in) {
				use(x, bl.Index)
			}
		}
	}
}

// crossingVar is c's function variable: a u32 offset for a pointer.
func (t *translator) crossingVar(c *crossing) spirv.ID {
	if c.vari == 0 {
		ty := t.u32
		if !isPointer(c.v.Type()) {
			ty = t.typ(c.v.Type())
		}
		c.vari = t.f.Local(t.b.TypePointer(spirv.StorageClassFunction, ty))
	}
	return c.vari
}

// storeCrossing stores in's value, just defined, when it is demoted.
func (t *translator) storeCrossing(in air.Value) {
	c := t.cross[in]
	if c == nil {
		return
	}
	if t.res[in] != nil {
		t.miss.addf(CodeUnsupportedCFG, "texture %s used beyond its definition's dominance after structuring", c.v.Opcode())
		return
	}
	var id spirv.ID
	if isPointer(in.Type()) {
		p, ok := t.ptrs[in]
		if !ok {
			return // refused where it was defined
		}
		id = p.off
	} else {
		var ok bool
		if id, ok = t.vals[in]; !ok {
			return
		}
	}
	t.f.Emit(spirv.OpStore, uint32(t.crossingVar(c)), uint32(id))
}

// loadCrossing returns v's value in the block being emitted when v is
// demoted and defined in another block; ok is false otherwise.
func (t *translator) loadCrossing(v air.Value) (spirv.ID, bool) {
	c := t.cross[v]
	if c == nil || !t.emitting || c.v.Common().Parent.Index == t.curBlock {
		return 0, false
	}
	ty := t.u32
	if !isPointer(v.Type()) {
		ty = t.typ(v.Type())
	}
	return t.f.Op(spirv.OpLoad, ty, t.crossingVar(c)), true
}

// loadPhiOperands loads, at the end of node, the demoted values node gives
// its successors' phis.
func (t *translator) loadPhiOperands(node int) {
	for _, s := range distinct(t.plan.succ[node]) {
		for _, slot := range t.phis[s] {
			src, ok := slot.in[node]
			if !ok || src.v == nil || src.slot != nil || src.ctx > 0 {
				continue
			}
			if id, ok := t.loadCrossing(src.v); ok {
				t.phiLoads[phiLoadKey{slot, node}] = id
			}
		}
	}
}
