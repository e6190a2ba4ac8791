package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// phiSlot is one phi of a node: an LLVM phi, or the forwarding phi a
// synthetic node carries for one phi of the node it forwards to.
type phiSlot struct {
	phi *air.Phi // the LLVM phi this slot stands for (or forwards); nil for a dispatch selector
	in  map[int]phiSrc
	id  spirv.ID
	pos int
}

// phiSrc is a slot's incoming value from one predecessor node.
type phiSrc struct {
	v    air.Value
	slot *phiSlot
	id   spirv.ID // a constant (a dispatch selector's exit number)
	// ctx, when positive, is the clone node v must be read in (v may be
	// defined in the duplicated block); 0 is the plain value.
	ctx int
	// edge: the value is the exit number a folded branch selected (edgeSel).
	edge bool
}

type pendingPhi struct {
	node int
	slot *phiSlot
}

// collectPhis builds each node's phi slots, replaying the planner's splits.
func (t *translator) collectPhis() {
	t.phis = make([][]*phiSlot, len(t.plan.succ))
	for i, bl := range t.fn.Blocks {
		for _, in := range bl.Insts {
			p, ok := in.(*air.Phi)
			if !ok {
				continue
			}
			s := &phiSlot{phi: p, in: map[int]phiSrc{}}
			for _, inc := range p.Incoming {
				if _, dup := s.in[inc.Block.Index]; !dup {
					s.in[inc.Block.Index] = phiSrc{v: inc.Value}
				}
			}
			t.phis[i] = append(t.phis[i], s)
		}
	}
	t.selectors = map[int]*phiSlot{}
	for _, sp := range t.plan.splits {
		if sp.target < 0 {
			t.collectDispatch(sp)
			continue
		}
		if sp.clone {
			t.collectClone(sp)
			continue
		}
		for _, target := range t.phis[sp.target] {
			fwd := &phiSlot{phi: target.phi, in: map[int]phiSrc{}}
			for _, q := range sp.preds {
				if src, ok := target.in[q]; ok {
					fwd.in[q] = src
					delete(target.in, q)
				}
			}
			target.in[sp.node] = phiSrc{slot: fwd}
			t.phis[sp.node] = append(t.phis[sp.node], fwd)
		}
	}
}

// collectClone gives a duplicated block its own copies of the original's
// phis (for the predecessors moved to it) and adds it, with its own values,
// to the phis of the successors it shares with the original.
func (t *translator) collectClone(sp cfgSplit) {
	for _, ts := range t.phis[sp.target] {
		cs := &phiSlot{phi: ts.phi, in: map[int]phiSrc{}}
		for _, q := range sp.preds {
			if src, ok := ts.in[q]; ok {
				cs.in[q] = src
				delete(ts.in, q)
			}
		}
		t.phis[sp.node] = append(t.phis[sp.node], cs)
	}
	for _, s := range distinct(sp.succ) {
		for _, ss := range t.phis[s] {
			if src, ok := ss.in[sp.target]; ok {
				if src.v != nil {
					src.ctx = sp.node
				}
				ss.in[sp.node] = src
			}
		}
	}
}

// collectDispatch gives a dispatch node its selector phi (which exit was
// taken) and forwards the phis of every exit it branches to.
func (t *translator) collectDispatch(sp cfgSplit) {
	sel := &phiSlot{in: map[int]phiSrc{}}
	for i, target := range sp.targets {
		for _, q := range sp.predsOf[i] {
			if _, folded := t.plan.folded[q]; folded {
				sel.in[q] = phiSrc{edge: true}
				continue
			}
			sel.in[q] = phiSrc{id: t.b.ConstantU32(uint32(i))}
		}
		for _, ts := range t.phis[target] {
			fwd := &phiSlot{phi: ts.phi, in: map[int]phiSrc{}}
			for _, q := range sp.predsOf[i] {
				if src, ok := ts.in[q]; ok {
					fwd.in[q] = src
					delete(ts.in, q)
				}
			}
			ts.in[sp.node] = phiSrc{slot: fwd}
			t.phis[sp.node] = append(t.phis[sp.node], fwd)
		}
	}
	t.selectors[sp.node] = sel
	t.phis[sp.node] = append([]*phiSlot{sel}, t.phis[sp.node]...)
}

// emitPhis emits node's phis with placeholder operands, patched at the end.
func (t *translator) emitPhis(node int) {
	for _, s := range t.phis[node] {
		typ := t.phiType(s.phi)
		s.pos = t.f.Len()
		s.id = t.f.OpWords(spirv.OpPhi, typ)
		t.pending = append(t.pending, pendingPhi{node, s})
		if s.phi != nil && s.phi.Parent != nil && s.phi.Parent.Index == t.blockOf(node) {
			if isPointer(s.phi.Type()) {
				r := t.rootOf(s.phi)
				t.ptrs[s.phi] = pointer{root: r, dyn: s.id, off: s.id}
			} else {
				t.vals[s.phi] = s.id
			}
		}
	}
}

func (t *translator) phiType(p *air.Phi) spirv.ID {
	if p == nil || isPointer(p.Type()) {
		return t.u32
	}
	return t.typ(p.Type())
}

// patchPhis fills every phi's (value, predecessor label) pairs.
func (t *translator) patchPhis() {
	preds := make([][]int, len(t.plan.succ))
	for _, q := range t.plan.order {
		for _, s := range t.plan.succ[q] {
			if !contains(preds[s], q) {
				preds[s] = append(preds[s], q)
			}
		}
	}
	for _, pp := range t.pending {
		var ops []uint32
		for _, q := range preds[pp.node] {
			src, ok := pp.slot.in[q]
			var id spirv.ID
			ld, loaded := t.phiLoads[phiLoadKey{pp.slot, q}]
			switch {
			case loaded:
				id = ld
			case !ok:
				id = t.b.Undef(t.phiType(pp.slot.phi))
			case src.slot != nil:
				id = src.slot.id
			case src.edge:
				id = t.edgeSel[q]
			case src.id != 0:
				id = src.id
			case src.ctx > 0 && t.cloneVals[src.ctx][src.v] != 0:
				id = t.cloneVals[src.ctx][src.v]
			case isPointer(src.v.Type()):
				p, ok := t.clonePtrs[src.ctx][src.v]
				if src.ctx == 0 || !ok {
					p = t.ptr(src.v)
				}
				if pp.slot.phi != nil && p.root != t.rootOf(pp.slot.phi) {
					t.miss.add(CodeUnhandledInstruction, "phi of pointers into different memory")
				}
				id = p.off
			default:
				id = t.value(src.v)
			}
			ops = append(ops, uint32(id), uint32(t.exitLabel[q]))
		}
		t.f.Patch(pp.slot.pos, ops...)
	}
}

func isPointer(ty air.Type) bool {
	_, ok := ty.(*air.PointerType)
	return ok
}

// blockOf is the LLVM block a node emits: itself, the block a clone
// copies, or -1 for a synthetic node.
func (t *translator) blockOf(node int) int {
	if node < t.plan.orig {
		return node
	}
	if o, ok := t.plan.cloneOf[node]; ok {
		return o
	}
	return -1
}
