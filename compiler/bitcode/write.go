package bitcode

import (
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// WriteLL writes m as LLVM textual IR, in llvm-dis-19's layout: pointers
// print as ptr, unnamed values and metadata are numbered as LLVM's slot
// tracker numbers them, and struct types are listed in the order LLVM's
// type finder discovers them. Known differences from llvm-dis-19 are
// listed in compiler/oracle/README.md.
func WriteLL(w io.Writer, m *air.Module) error {
	p := newPrinter(m)
	p.buf = make([]byte, 0, 32<<10)
	p.module()
	_, err := w.Write(p.buf)
	return err
}

type printer struct {
	m        *air.Module
	buf      []byte
	typeStr  map[air.Type]string
	structNo map[*air.StructType]int
	structs  []*air.StructType // identified structs in discovery order
	mdSlot   map[air.Metadata]int
	mdOrder  []air.Metadata
	attrSlot map[string]int
	attrSets []air.AttrSet
	global   map[air.Value]int // unnamed globals and functions
	local    map[air.Value]int // unnamed arguments, blocks, instructions
	kindRank map[string]int
	locs     map[air.DebugLoc]*air.DINode
	locRefs  map[*air.DINode][2]air.Metadata
	mdLocs   map[locKey]*air.DINode // uniqued DILocations of the metadata, by contents
	// stripDebug mirrors LLVM dropping debug info whose version is not current
	stripDebug bool
	loops      map[air.Metadata]air.Metadata
}

func newPrinter(m *air.Module) *printer {
	p := &printer{
		m: m, typeStr: map[air.Type]string{}, structNo: map[*air.StructType]int{},
		mdSlot: map[air.Metadata]int{}, attrSlot: map[string]int{}, global: map[air.Value]int{},
		kindRank: map[string]int{},
	}
	for i, k := range fixedKinds {
		p.kindRank[k] = i
	}
	n := len(fixedKinds)
	ids := make([]uint64, 0, len(m.MDKinds))
	for id := range m.MDKinds {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		if _, ok := p.kindRank[m.MDKinds[id]]; !ok {
			p.kindRank[m.MDKinds[id]] = n
			n++
		}
	}
	p.stripDebug = debugVersion(m) != 3 || brokenDebugLocs(m)
	p.findTypes()
	return p
}

// fixedKinds are LLVM's fixed metadata kinds in their id order (attachments print in this order).
var fixedKinds = []string{"dbg", "tbaa", "prof", "fpmath", "range", "tbaa.struct", "invariant.load", "alias.scope",
	"noalias", "nontemporal", "llvm.mem.parallel_loop_access", "nonnull", "dereferenceable", "dereferenceable_or_null",
	"make.implicit", "unpredictable", "invariant.group", "align", "llvm.loop", "type", "section_prefix",
	"absolute_symbol", "associated", "callees", "irr_loop", "llvm.access.group", "callback",
	"llvm.preserve.access.index", "vcall_visibility", "noundef", "annotation", "nosanitize", "func_sanitize",
	"exclude", "memprof", "callsite", "kcfi_type", "pcsections", "DIAssignID", "coro.outside.frame"}

func (p *printer) s(x string) { p.buf = append(p.buf, x...) }
func (p *printer) b(c byte)   { p.buf = append(p.buf, c) }

// quoted prints pre, then v escaped as LLVM string text, then post.
func (p *printer) quoted(pre, v, post string) {
	p.s(pre)
	p.s(air.EscapeString(v))
	p.s(post)
}
func (p *printer) u(v uint64) { p.buf = strconv.AppendUint(p.buf, v, 10) }
func (p *printer) i(v int)    { p.buf = strconv.AppendInt(p.buf, int64(v), 10) }

func (p *printer) module() {
	m := p.m
	p.numberGlobals()
	p.numberModuleMD()
	p.s("; ModuleID = '<stdin>'\n")
	if m.SourceFilename != "" {
		p.quoted("source_filename = \"", m.SourceFilename, "\"\n")
	}
	if m.DataLayout != "" {
		p.quoted("target datalayout = \"", m.DataLayout, "\"\n")
	}
	if m.Triple != "" {
		p.quoted("target triple = \"", m.Triple, "\"\n")
	}
	if len(p.structs) > 0 {
		p.b('\n')
		var named []*air.StructType
		nums := make([]*air.StructType, 0)
		for _, st := range p.structs {
			if st.Name == "" {
				nums = append(nums, st)
			} else {
				named = append(named, st)
			}
		}
		for _, st := range append(nums, named...) {
			p.s(p.ty(st))
			p.s(" = type ")
			p.structBody(st)
			p.b('\n')
		}
	}
	if len(m.Globals) > 0 {
		p.b('\n')
	}
	for _, g := range m.Globals {
		p.globalVar(g)
	}
	// LLVM 19 reads llvm.dbg.* intrinsic calls into debug records (printed
	// as #dbg_value(...) lines) and erases the intrinsics' declarations.
	for _, f := range m.Functions {
		if isDbgIntrinsic(f) {
			continue
		}
		p.b('\n')
		p.function(f)
	}
	if len(p.attrSets) > 0 {
		p.b('\n')
		for i, as := range p.attrSets {
			p.s("attributes #")
			p.i(i)
			p.s(" = { ")
			p.attrSet(as)
			p.s(" }\n")
		}
	}
	named := p.namedMD()
	if len(named) > 0 {
		p.b('\n')
	}
	for _, nm := range named {
		p.b('!')
		p.s(mdName(nm.Name))
		p.s(" = !{")
		for i, n := range nm.Nodes {
			if i > 0 {
				p.s(", ")
			}
			p.mdRef(n)
		}
		p.s("}\n")
	}
	if len(p.mdOrder) > 0 {
		p.b('\n')
		for i, n := range p.mdOrder {
			p.b('!')
			p.i(i)
			p.s(" = ")
			p.mdBody(n)
			p.b('\n')
		}
	}
}

// mdName prints a metadata name: bare when it is an identifier, else escaped.
func mdName(s string) string {
	ok := s != ""
	for i := 0; i < len(s) && ok; i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '$' || c == '.' || c == '_' || (i > 0 && c >= '0' && c <= '9')
	}
	if ok {
		return s
	}
	out := make([]byte, 0, len(s)+8)
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '$' || c == '.' || c == '_' || (i > 0 && c >= '0' && c <= '9') {
			out = append(out, c)
		} else {
			out = append(out, '\\', hex[c>>4], hex[c&15])
		}
	}
	return string(out)
}

func (p *printer) numberGlobals() {
	n := 0
	for _, g := range p.m.Globals {
		if g.Name == "" {
			p.global[g] = n
			n++
		}
	}
	for _, f := range p.m.Functions {
		if f.Name == "" {
			p.global[f] = n
			n++
		}
	}
}

func (p *printer) linkage(l air.Linkage) {
	if s := l.String(); s != "" {
		p.s(s)
		p.b(' ')
	}
}

func (p *printer) preamble(c *air.GlobalCommon) {
	p.linkage(c.Linkage)
	implicit := c.Linkage == air.Internal || c.Linkage == air.Private || (c.Visibility != 0 && c.Linkage != air.ExternalWeak)
	if c.DSOLocal && !implicit {
		p.s("dso_local ")
	}
	switch c.Visibility {
	case 1:
		p.s("hidden ")
	case 2:
		p.s("protected ")
	}
	switch c.DLLStorage {
	case 1:
		p.s("dllimport ")
	case 2:
		p.s("dllexport ")
	}
}

var tlsNames = [...]string{"", "thread_local ", "thread_local(localdynamic) ", "thread_local(initialexec) ", "thread_local(localexec) "}

func (p *printer) globalVar(g *air.GlobalVariable) {
	p.valueRef(g)
	p.s(" = ")
	if g.Init == nil && g.Linkage == air.External {
		p.s("external ")
	}
	p.preamble(&g.GlobalCommon)
	if int(g.ThreadLocal) < len(tlsNames) {
		p.s(tlsNames[g.ThreadLocal])
	}
	switch g.UnnamedAddr {
	case air.GlobalUnnamedAddr:
		p.s("unnamed_addr ")
	case air.LocalUnnamedAddr:
		p.s("local_unnamed_addr ")
	}
	if g.AddrSpace != 0 {
		p.s("addrspace(")
		p.i(g.AddrSpace)
		p.s(") ")
	}
	if g.ExternallyInitialized {
		p.s("externally_initialized ")
	}
	if g.Constant {
		p.s("constant ")
	} else {
		p.s("global ")
	}
	p.s(p.ty(g.ValueType))
	if g.Init != nil {
		p.b(' ')
		p.constant(g.Init)
	}
	if g.Section != "" {
		p.quoted(", section \"", g.Section, "\"")
	}
	if g.Partition != "" {
		p.quoted(", partition \"", g.Partition, "\"")
	}
	p.align(g.Align)
	p.attachments(g.Attached, ", ")
	p.b('\n')
}

// attachments prints !kind !N pairs, !dbg first then by LLVM kind id.
func (p *printer) attachments(att []air.Attachment, sep string) {
	if len(att) == 0 {
		return
	}
	for _, a := range p.sortedAttachments(att) {
		p.s(sep)
		p.b('!')
		p.s(mdName(a.Kind))
		p.b(' ')
		p.mdRef(a.Node)
	}
}

func (p *printer) sortedAttachments(att []air.Attachment) []air.Attachment {
	if p.stripDebug {
		var kept []air.Attachment
		for _, a := range att {
			if a.Kind == "llvm.loop" {
				if a.Node = p.strippedLoop(a.Node); a.Node == nil {
					continue
				}
			}
			if a.Kind != "dbg" && a.Kind != "heapallocsite" && a.Kind != "DIAssignID" {
				kept = append(kept, a)
			}
		}
		att = kept
	}
	if len(att) < 2 {
		return att
	}
	s := append([]air.Attachment(nil), att...)
	sort.SliceStable(s, func(i, j int) bool { return p.kindRank[s[i].Kind] < p.kindRank[s[j].Kind] })
	return s
}

func isDbgIntrinsic(f *air.Function) bool {
	switch f.Name {
	case "llvm.dbg.addr", "llvm.dbg.value", "llvm.dbg.assign", "llvm.dbg.declare", "llvm.dbg.label":
		return f.IsDeclaration()
	}
	return false
}

// debugVersion is the module's "Debug Info Version" flag (0 when absent).
func debugVersion(m *air.Module) int64 {
	nm := m.NamedMetadata("llvm.module.flags")
	if nm == nil {
		return 0
	}
	for _, n := range nm.Nodes {
		node, ok := n.(*air.MDNode)
		if !ok || len(node.Ops) < 3 {
			continue
		}
		if k, ok := air.StringOp(node, 1); ok && k == "Debug Info Version" {
			v, _ := air.IntOp(node, 2)
			return v
		}
	}
	return 0
}

// namedMD is the named metadata LLVM keeps (without llvm.dbg.* when it strips debug info).
func (p *printer) namedMD() []*air.NamedMD {
	if !p.stripDebug {
		return p.m.NamedMD
	}
	var out []*air.NamedMD
	for _, nm := range p.m.NamedMD {
		if strings.HasPrefix(nm.Name, "llvm.dbg.") || nm.Name == "llvm.gcov" {
			continue
		}
		out = append(out, nm)
	}
	return out
}

// loc is an instruction's debug location as printed (nil when stripped).
func (p *printer) loc(in air.Instruction) *air.DebugLoc {
	if p.stripDebug {
		return nil
	}
	return in.Common().Loc
}

// skipped reports whether LLVM erased the instruction while reading (a
// debug intrinsic call in a module whose debug info it strips).
func (p *printer) skipped(in air.Instruction) bool {
	if !p.stripDebug {
		return false
	}
	c, ok := in.(*air.Call)
	return ok && c.Called() != nil && isDbgIntrinsic(c.Called())
}
