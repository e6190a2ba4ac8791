package bitcode

import (
	"sort"
	"strconv"

	"github.com/airpipe/airpipe/compiler/air"
)

var ccNames = map[uint32]string{8: "fastcc", 9: "coldcc", 10: "ghccc", 11: "cc 11", 64: "x86_stdcallcc",
	65: "x86_fastcallcc", 66: "arm_apcscc", 67: "arm_aapcscc", 68: "arm_aapcs_vfpcc", 71: "ptx_kernel", 72: "ptx_device",
	75: "spir_func", 76: "spir_kernel", 91: "amdgpu_kernel"}

func (p *printer) callingConv(cc uint32) {
	if n, ok := ccNames[cc]; ok {
		p.s(n)
		return
	}
	p.s("cc ")
	p.u(uint64(cc))
}

func (p *printer) attrSlotOf(as air.AttrSet) int {
	var key []byte
	for _, a := range as {
		key = append(key, attrString(p, a)...)
		key = append(key, 0)
	}
	if n, ok := p.attrSlot[string(key)]; ok {
		return n
	}
	n := len(p.attrSets)
	p.attrSlot[string(key)] = n
	p.attrSets = append(p.attrSets, as)
	return n
}

func attrString(p *printer, a air.Attribute) string {
	if a.IsString {
		s := "\"" + air.EscapeString(a.Kind) + "\""
		if a.Value != "" {
			s += "=\"" + air.EscapeString(a.Value) + "\""
		}
		return s
	}
	if a.Type != nil {
		return a.Kind + "(" + p.ty(a.Type) + ")"
	}
	if a.Ranges != nil {
		return rangeString(a)
	}
	if !a.HasInt {
		return a.Kind
	}
	switch a.Kind {
	case "align":
		return "align " + strconv.FormatUint(a.Int, 10)
	case "memory":
		return memoryString(a.Int)
	case "uwtable":
		if a.Int == 1 {
			return "uwtable(sync)"
		}
		return "uwtable"
	}
	return a.Kind + "(" + strconv.FormatUint(a.Int, 10) + ")"
}

// rangeString prints a constant-range attribute: range(iN lo, hi), or
// initializes((lo, hi), ...), bounds signed as LLVM prints them.
func rangeString(a air.Attribute) string {
	if a.Kind == "range" && len(a.Ranges) == 1 {
		return "range(i" + strconv.Itoa(a.RangeBits) + " " + a.Ranges[0].Lo.String() + ", " + a.Ranges[0].Hi.String() + ")"
	}
	s := a.Kind + "("
	for i, rg := range a.Ranges {
		if i > 0 {
			s += ", "
		}
		s += "(" + rg.Lo.String() + ", " + rg.Hi.String() + ")"
	}
	return s + ")"
}

// memoryString prints a memory(...) attribute from its encoded effects
// (two bits per location: argmem, inaccessiblemem, other).
func memoryString(v uint64) string {
	names := [...]string{"none", "read", "write", "readwrite"}
	locs := [...]string{"argmem", "inaccessiblemem"}
	other := v >> 4 & 3
	s := "memory("
	first := true
	if other != 0 || (v&15) == 0 {
		s += names[other]
		first = false
	}
	for i, l := range locs {
		e := v >> uint(2*i) & 3
		if e == other {
			continue
		}
		if !first {
			s += ", "
		}
		s += l + ": " + names[e]
		first = false
	}
	return s + ")"
}

func (p *printer) attrSet(as air.AttrSet) {
	for i, a := range as {
		if i > 0 {
			p.b(' ')
		}
		p.s(attrString(p, a))
	}
}

func (p *printer) function(f *air.Function) {
	p.numberLocals(f)
	p.numberFunctionMD(f)
	if f.IsDeclaration() {
		p.s("declare")
		p.attachments(f.Attached, " ")
		p.b(' ')
	} else {
		p.s("define ")
	}
	p.preamble(&f.GlobalCommon)
	if f.CallingConv != 0 {
		p.callingConv(f.CallingConv)
		p.b(' ')
	}
	if len(f.Attrs.Ret) > 0 {
		p.attrSet(f.Attrs.Ret)
		p.b(' ')
	}
	p.s(p.ty(f.Sig.Ret))
	p.b(' ')
	p.valueRef(f)
	p.b('(')
	for i, pt := range f.Sig.Params {
		if i > 0 {
			p.s(", ")
		}
		p.s(p.ty(pt))
		if as := f.Attrs.Param(i); len(as) > 0 {
			p.b(' ')
			p.attrSet(as)
		}
		if !f.IsDeclaration() {
			p.b(' ')
			p.valueRef(f.Args[i])
		}
	}
	if f.Sig.VarArg {
		if len(f.Sig.Params) > 0 {
			p.s(", ")
		}
		p.s("...")
	}
	p.b(')')
	switch f.UnnamedAddr {
	case air.GlobalUnnamedAddr:
		p.s(" unnamed_addr")
	case air.LocalUnnamedAddr:
		p.s(" local_unnamed_addr")
	}
	if f.AddrSpace != 0 {
		p.s(" addrspace(")
		p.i(f.AddrSpace)
		p.b(')')
	}
	if len(f.Attrs.Fn) > 0 {
		p.s(" #")
		p.i(p.attrSlotOf(f.Attrs.Fn))
	}
	if f.Section != "" {
		p.quoted(" section \"", f.Section, "\"")
	}
	if f.Align != 0 {
		p.s(" align ")
		p.u(f.Align)
	}
	if f.GC != "" {
		p.quoted(" gc \"", f.GC, "\"")
	}
	for _, x := range []struct {
		kw string
		c  air.Constant
	}{{" prefix ", f.Prefix}, {" prologue ", f.Prologue}, {" personality ", f.Personality}} {
		if x.c != nil {
			p.s(x.kw)
			p.typedValue(x.c)
		}
	}
	if f.IsDeclaration() {
		p.b('\n')
		return
	}
	p.attachments(f.Attached, " ")
	p.s(" {")
	preds := predecessors(f)
	for _, b := range f.Blocks {
		p.block(b, preds[b])
	}
	p.s("}\n")
}

// predecessors lists each block's predecessors as LLVM's use lists order
// them: most recently added use first.
func predecessors(f *air.Function) map[*air.Block][]*air.Block {
	m := map[*air.Block][]*air.Block{}
	for _, b := range f.Blocks {
		t := b.Insts[len(b.Insts)-1]
		var succ []*air.Block
		switch t := t.(type) {
		case *air.Br:
			if t.Cond == nil {
				succ = []*air.Block{t.True}
			} else {
				succ = []*air.Block{t.False, t.True} // operand order: cond, false, true
			}
		case *air.Switch:
			succ = append(succ, t.Default)
			for _, c := range t.Cases {
				succ = append(succ, c.Dest)
			}
		}
		for _, s := range succ {
			m[s] = append(m[s], b)
		}
	}
	for k, v := range m {
		for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
			v[i], v[j] = v[j], v[i]
		}
		m[k] = useListOrder(v, k.UseOrder)
	}
	return m
}

// useListOrder reorders a block's predecessors (its uses, in the order
// LLVM's reader builds them) by the bitcode's use-list order, as LLVM's
// reader sorts the use list: use i moves to position order[i], stably. As
// there, an order whose length is not the number of uses is ignored.
func useListOrder(uses []*air.Block, order []uint64) []*air.Block {
	if len(order) != len(uses) {
		return uses
	}
	idx := make([]int, len(uses))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return order[idx[a]] < order[idx[b]] })
	out := make([]*air.Block, len(uses))
	for i, k := range idx {
		out[i] = uses[k]
	}
	return out
}

func (p *printer) numberLocals(f *air.Function) {
	p.local = map[air.Value]int{}
	n := 0
	for _, a := range f.Args {
		if a.Name == "" {
			p.local[a] = n
			n++
		}
	}
	for _, b := range f.Blocks {
		if b.Name == "" {
			p.local[b] = n
			n++
		}
		for _, in := range b.Insts {
			if in.Common().Name == "" && air.HasResult(in) {
				p.local[in] = n
				n++
			}
		}
	}
}

func (p *printer) block(b *air.Block, preds []*air.Block) {
	entry := b.Index == 0
	col := len(p.buf)
	if b.Name != "" {
		p.b('\n')
		col = len(p.buf)
		p.s(air.QuoteName(b.Name))
		p.b(':')
	} else if !entry {
		p.b('\n')
		col = len(p.buf)
		p.i(p.local[b])
		p.b(':')
	}
	if !entry {
		w := len(p.buf) - col
		pad := 50 - w
		if pad < 1 {
			pad = 1
		}
		for k := 0; k < pad; k++ {
			p.b(' ')
		}
		if len(preds) == 0 {
			p.s("; No predecessors!")
		} else {
			p.s("; preds = ")
			for i, pb := range preds {
				if i > 0 {
					p.s(", ")
				}
				p.valueRef(pb)
			}
		}
	}
	p.b('\n')
	for _, in := range b.Insts {
		if !p.skipped(in) {
			p.inst(in)
		}
	}
}
