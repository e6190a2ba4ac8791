package bitcode

import (
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// Debug-info nodes the printer renders in LLVM's specialised syntax:
// DIFile, DICompileUnit, DISubprogram (both layouts), DISubroutineType,
// DIImportedEntity, DIModule and DILocation here, the types, variables,
// scopes (DILexicalBlock, DILexicalBlockFile, DINamespace) and expressions
// in write_di_types.go. Record layouts LLVM 19 would
// upgrade (old expression versions, big-integer enumerators, ...) print as
// "!DIKind(<not printed>)": a gap the oracle counts.

// diRef returns operand i of a DI node as a metadata reference (nil when absent).
func diRef(n *air.DINode, i int) air.Metadata {
	if i < len(n.Refs) {
		return n.Refs[i]
	}
	return nil
}

// diRefs lists a DI node's operand references at the given record positions.
func diRefs(n *air.DINode, is ...int) []air.Metadata {
	out := make([]air.Metadata, 0, len(is))
	for _, i := range is {
		out = append(out, diRef(n, i))
	}
	return out
}

func diOp(n *air.DINode, i int) uint64 {
	if i < len(n.Ops) {
		return n.Ops[i]
	}
	return 0
}

func diString(n *air.DINode, i int) string {
	if s, ok := diRef(n, i).(*air.MDString); ok {
		return s.Value
	}
	return ""
}

// diSupported reports whether the printer renders this node.
func diSupported(n *air.DINode) bool {
	switch n.Kind {
	case "DIFile", "DICompileUnit", "DIImportedEntity", "DIModule", "DILocation":
		return true
	case "DISubprogram":
		_, ok := decodeSubprogram(n)
		return ok
	case "DISubroutineType":
		return diOp(n, 0) >= 2
	}
	return diTypeSupported(n)
}

// diOperands lists a DI node's operands in LLVM's operand order (the order
// its slot tracker walks them).
func (p *printer) diOperands(n *air.DINode) []air.Metadata {
	switch n.Kind {
	case "DILocation":
		if refs, ok := p.locRefs[n]; ok {
			return refs[:]
		}
		return diRefs(n, 3, 4)
	case "DICompileUnit":
		return diRefs(n, 2, 3, 5, 7, 9, 10, 12, 13, 15, 20, 21)
	case "DISubprogram":
		sp, _ := decodeSubprogram(n)
		return []air.Metadata{sp.file, sp.scope, nil, nil, sp.typ, sp.unit, sp.decl, sp.retained, sp.containing, sp.tmpl, sp.thrown, sp.annotations}
	case "DISubroutineType":
		return diRefs(n, 2)
	case "DIImportedEntity":
		return diRefs(n, 2, 3, 5, 6, 7)
	case "DIModule":
		if len(n.Ops) >= 8 {
			return diRefs(n, 1, 2)
		}
		return diRefs(n, 1)
	}
	return p.diTypeOperands(n)
}

type fieldPrinter struct {
	p     *printer
	first bool
}

func (f *fieldPrinter) name(n string) {
	if !f.first {
		f.p.s(", ")
	}
	f.first = false
	f.p.s(n)
	f.p.s(": ")
}

func (f *fieldPrinter) str(n, v string, skipEmpty bool) {
	if v == "" && skipEmpty {
		return
	}
	f.name(n)
	f.p.b('"')
	f.p.s(air.EscapeString(v))
	f.p.b('"')
}

func (f *fieldPrinter) md(n string, m air.Metadata, skipNull bool) {
	if m == nil && skipNull {
		return
	}
	f.name(n)
	f.p.mdRef(m)
}

func (f *fieldPrinter) num(n string, v int64, skipZero bool) {
	if v == 0 && skipZero {
		return
	}
	f.name(n)
	f.p.s(strconv.FormatInt(v, 10))
}

func (f *fieldPrinter) boolean(n string, v bool, skipIf *bool) {
	if skipIf != nil && v == *skipIf {
		return
	}
	f.name(n)
	f.p.s(strconv.FormatBool(v))
}

func (f *fieldPrinter) raw(n, v string) {
	f.name(n)
	f.p.s(v)
}

var (
	diFlagNames = []flagName{{1 << 2, "DIFlagFwdDecl"}, {1 << 3, "DIFlagAppleBlock"}, {1 << 4, "DIFlagReservedBit4"}, {1 << 5, "DIFlagVirtual"},
		{1 << 6, "DIFlagArtificial"}, {1 << 7, "DIFlagExplicit"}, {1 << 8, "DIFlagPrototyped"}, {1 << 9, "DIFlagObjcClassComplete"},
		{1 << 10, "DIFlagObjectPointer"}, {1 << 11, "DIFlagVector"}, {1 << 12, "DIFlagStaticMember"}, {1 << 13, "DIFlagLValueReference"},
		{1 << 14, "DIFlagRValueReference"}, {1 << 15, "DIFlagExportSymbols"}, {1 << 18, "DIFlagIntroducedVirtual"},
		{1 << 19, "DIFlagBitField"}, {1 << 20, "DIFlagNoReturn"}, {1 << 22, "DIFlagTypePassByValue"},
		{1 << 23, "DIFlagTypePassByReference"}, {1 << 24, "DIFlagEnumClass"}, {1 << 25, "DIFlagThunk"},
		{1 << 26, "DIFlagNonTrivial"}, {1 << 27, "DIFlagBigEndian"}, {1 << 28, "DIFlagLittleEndian"},
		{1 << 29, "DIFlagAllCallsDescribed"}}
	spFlagNames = []flagName{{1 << 2, "DISPFlagLocalToUnit"}, {1 << 3, "DISPFlagDefinition"}, {1 << 4, "DISPFlagOptimized"}, {1 << 5, "DISPFlagPure"},
		{1 << 6, "DISPFlagElemental"}, {1 << 7, "DISPFlagRecursive"}, {1 << 8, "DISPFlagMainSubprogram"},
		{1 << 9, "DISPFlagDeleted"}, {1 << 11, "DISPFlagObjCDirect"}}
	dwLang = map[uint64]string{1: "DW_LANG_C89", 2: "DW_LANG_C", 4: "DW_LANG_C_plus_plus", 0xc: "DW_LANG_C99",
		0x1a: "DW_LANG_C_plus_plus_11", 0x1d: "DW_LANG_C11", 0x21: "DW_LANG_C_plus_plus_14", 0x2b: "DW_LANG_C_plus_plus_17",
		0x2c: "DW_LANG_C_plus_plus_20"}
	dwTags = map[uint64]string{0x08: "DW_TAG_imported_declaration", 0x3a: "DW_TAG_imported_module"}
)

func diFlags(v uint64) string {
	var parts []string
	switch v & 3 {
	case 1:
		parts = append(parts, "DIFlagPrivate")
	case 2:
		parts = append(parts, "DIFlagProtected")
	case 3:
		parts = append(parts, "DIFlagPublic")
	}
	switch v & (3 << 16) {
	case 1 << 16:
		parts = append(parts, "DIFlagSingleInheritance")
	case 2 << 16:
		parts = append(parts, "DIFlagMultipleInheritance")
	case 3 << 16:
		parts = append(parts, "DIFlagVirtualInheritance")
	}
	v &^= 3 | 3<<16
	return joinFlags(parts, v, diFlagNames)
}

func spFlags(v uint64) string {
	var parts []string
	switch v & 3 {
	case 1:
		parts = append(parts, "DISPFlagVirtual")
	case 2:
		parts = append(parts, "DISPFlagPureVirtual")
	}
	v &^= 3
	return joinFlags(parts, v, spFlagNames)
}

// flagName names one bit of a DI flag word.
type flagName struct {
	bit  uint64
	name string
}

// joinFlags appends to parts the names of v's bits (and any bits left
// unnamed, as a number) and joins them as llvm-dis does: "A | B".
func joinFlags(parts []string, v uint64, names []flagName) string {
	for _, f := range names {
		if v&f.bit != 0 {
			parts = append(parts, f.name)
			v &^= f.bit
		}
	}
	if v != 0 {
		parts = append(parts, strconv.FormatUint(v, 10))
	}
	return strings.Join(parts, " | ")
}

func dwName(m map[uint64]string, v uint64) string {
	if s, ok := m[v]; ok {
		return s
	}
	return strconv.FormatUint(v, 10)
}

// diDistinct reports whether LLVM makes the node distinct.
func diDistinct(n *air.DINode) bool {
	switch n.Kind {
	case "DICompileUnit":
		return true
	case "DISubprogram":
		sp, _ := decodeSubprogram(n)
		return n.Distinct || sp.spFlags&(1<<3) != 0
	}
	return n.Distinct
}

// diBody prints a supported DI node; it reports false for the others.
func (p *printer) diBody(n *air.DINode) bool {
	if !diSupported(n) {
		return false
	}
	if n.Kind == "DILocation" {
		return false // printed by the caller
	}
	if n.Kind == "DIExpression" {
		p.expression(n)
		return true
	}
	if diDistinct(n) {
		p.s("distinct ")
	}
	p.b('!')
	p.s(n.Kind)
	p.b('(')
	f := &fieldPrinter{p: p, first: true}
	no := false
	switch n.Kind {
	case "DIFile":
		f.str("filename", diString(n, 1), false)
		f.str("directory", diString(n, 2), false)
		if len(n.Ops) > 4 && n.Ops[3] != 0 && n.Ops[4] != 0 {
			f.raw("checksumkind", map[uint64]string{1: "CSK_MD5", 2: "CSK_SHA1", 3: "CSK_SHA256"}[n.Ops[3]])
			f.str("checksum", diString(n, 4), false)
		}
		f.str("source", diString(n, 5), true)
	case "DICompileUnit":
		f.raw("language", dwName(dwLang, diOp(n, 1)))
		f.md("file", diRef(n, 2), false)
		f.str("producer", diString(n, 3), true)
		f.boolean("isOptimized", diOp(n, 4) != 0, nil)
		f.str("flags", diString(n, 5), true)
		f.num("runtimeVersion", int64(diOp(n, 6)), false)
		f.str("splitDebugFilename", diString(n, 7), true)
		f.raw("emissionKind", map[uint64]string{0: "NoDebug", 1: "FullDebug", 2: "LineTablesOnly", 3: "DebugDirectivesOnly"}[diOp(n, 8)])
		f.md("enums", diRef(n, 9), true)
		f.md("retainedTypes", diRef(n, 10), true)
		f.md("globals", diRef(n, 12), true)
		f.md("imports", diRef(n, 13), true)
		f.md("macros", diRef(n, 15), true)
		f.num("dwoId", int64(diOp(n, 14)), true)
		yes := true
		split := len(n.Ops) <= 16 || n.Ops[16] != 0
		f.boolean("splitDebugInlining", split, &yes)
		f.boolean("debugInfoForProfiling", diOp(n, 17) != 0, &no)
		if k := diOp(n, 18); k != 0 {
			f.raw("nameTableKind", map[uint64]string{1: "GNU", 2: "None", 3: "Apple"}[k])
		}
		f.boolean("rangesBaseAddress", diOp(n, 19) != 0, &no)
		f.str("sysroot", diString(n, 20), true)
		f.str("sdk", diString(n, 21), true)
	case "DISubprogram":
		sp, _ := decodeSubprogram(n)
		f.str("name", sp.name, true)
		f.str("linkageName", sp.linkage, true)
		f.md("scope", sp.scope, false)
		f.md("file", sp.file, true)
		f.num("line", int64(sp.line), true)
		f.md("type", sp.typ, true)
		f.num("scopeLine", int64(sp.scopeLine), true)
		f.md("containingType", sp.containing, true)
		if sp.spFlags&3 != 0 || sp.virtualIndex != 0 {
			f.num("virtualIndex", int64(sp.virtualIndex), false)
		}
		f.num("thisAdjustment", int64(int32(sp.thisAdj)), true)
		if sp.flags != 0 {
			f.raw("flags", diFlags(sp.flags))
		}
		if sp.spFlags != 0 {
			f.raw("spFlags", spFlags(sp.spFlags))
		}
		f.md("unit", sp.unit, true)
		f.md("templateParams", sp.tmpl, true)
		f.md("declaration", sp.decl, true)
		f.md("retainedNodes", sp.retained, true)
		f.md("thrownTypes", sp.thrown, true)
		f.md("annotations", sp.annotations, true)
		f.str("targetFuncName", sp.target, true)
	case "DISubroutineType":
		if fl := diOp(n, 1); fl != 0 {
			f.raw("flags", diFlags(fl))
		}
		if cc := diOp(n, 3); cc != 0 {
			f.num("cc", int64(cc), true)
		}
		f.md("types", diRef(n, 2), false)
	case "DIImportedEntity":
		f.raw("tag", dwName(dwTags, diOp(n, 1)))
		f.str("name", diString(n, 5), true)
		f.md("scope", diRef(n, 2), false)
		f.md("entity", diRef(n, 3), true)
		if len(n.Ops) >= 7 {
			f.md("file", diRef(n, 6), true)
			f.num("line", int64(diOp(n, 4)), true)
		}
		f.md("elements", diRef(n, 7), true)
	case "DIModule":
		off := 1
		var file air.Metadata
		if len(n.Ops) >= 8 {
			off = 2
			file = diRef(n, 1)
		}
		f.md("scope", diRef(n, off), false)
		f.str("name", diString(n, off+1), true)
		f.str("configMacros", diString(n, off+2), true)
		f.str("includePath", diString(n, off+3), true)
		f.str("apinotes", diString(n, off+4), true)
		f.md("file", file, true)
		f.num("line", int64(diOp(n, 7)), true)
		f.boolean("isDecl", diOp(n, 8) != 0, &no)
	default:
		p.diTypeBody(n, f)
	}
	p.b(')')
	return true
}

// subprogram is a DISubprogram record decoded from either layout.
type subprogram struct {
	scope, file, typ, containing, unit, tmpl, decl, retained, thrown, annotations air.Metadata
	name, linkage, target                                                         string
	line, scopeLine, virtualIndex, thisAdj, flags, spFlags                        uint64
}

// decodeSubprogram reads a METADATA_SUBPROGRAM record: the DISPFlags
// layout (bit 2 of the first operand) or the older one with separate
// isLocal/isDefinition/isOptimized operands and a unit (bit 1).
func decodeSubprogram(n *air.DINode) (subprogram, bool) {
	var sp subprogram
	if len(n.Ops) < 18 || len(n.Ops) > 21 {
		return sp, false
	}
	hasSPFlags, hasUnit := n.Ops[0]&4 != 0, n.Ops[0]&2 != 0
	if !hasUnit || (!hasSPFlags && len(n.Ops) < 19) {
		return sp, false
	}
	a, b := 0, 0
	hasThisAdj, hasThrown, hasAnn, hasTarget := true, true, false, false
	if hasSPFlags {
		sp.flags = diOp(n, 11)
		sp.spFlags = diOp(n, 9)
		hasAnn, hasTarget = len(n.Ops) >= 19, len(n.Ops) >= 20
	} else {
		a, b = 2, 3
		sp.flags = diOp(n, 13)
		hasThisAdj, hasThrown = len(n.Ops) >= 20, len(n.Ops) >= 21
		sp.spFlags = diOp(n, 11) & 3
		if diOp(n, 7) != 0 {
			sp.spFlags |= 1 << 2
		}
		if diOp(n, 8) != 0 {
			sp.spFlags |= 1 << 3
		}
		if diOp(n, 14) != 0 {
			sp.spFlags |= 1 << 4
		}
	}
	if sp.flags&(1<<21) != 0 { // the old DIFlagMainSubprogram
		sp.flags &^= 1 << 21
		sp.spFlags |= 1 << 8
	}
	sp.scope = diRef(n, 1)
	sp.name = diString(n, 2)
	sp.linkage = diString(n, 3)
	sp.file = diRef(n, 4)
	sp.line = diOp(n, 5)
	sp.typ = diRef(n, 6)
	sp.scopeLine = diOp(n, 7+a)
	sp.containing = diRef(n, 8+a)
	sp.virtualIndex = diOp(n, 10+a)
	if hasThisAdj {
		sp.thisAdj = diOp(n, 16+b)
	}
	sp.unit = diRef(n, 12+b)
	sp.tmpl = diRef(n, 13+b)
	sp.decl = diRef(n, 14+b)
	sp.retained = diRef(n, 15+b)
	if hasThrown {
		sp.thrown = diRef(n, 17+b)
	}
	if hasAnn {
		sp.annotations = diRef(n, 18+b)
	}
	if hasTarget {
		sp.target = diString(n, 19+b)
	}
	return sp, true
}
