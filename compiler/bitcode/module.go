package bitcode

import "github.com/airpipe/airpipe/compiler/air"

func (r *reader) readModuleBlock() *Error {
	c := r.c
	for {
		kind, id, err := c.next()
		if err != nil {
			return err
		}
		switch kind {
		case entryEnd:
			return r.finishModule()
		case entryBlock:
			if err := r.moduleSubBlock(id); err != nil {
				return err
			}
			continue
		}
		if err := r.moduleRecord(id); err != nil {
			return err
		}
	}
}

func (r *reader) moduleSubBlock(id uint64) *Error {
	c := r.c
	switch id {
	case blockInfoID:
		if err := c.enter(id); err != nil {
			return err
		}
		return c.readBlockInfo()
	case paramAttrGroupID:
		return r.enterAnd(id, r.readAttrGroups)
	case paramAttrID:
		return r.enterAnd(id, r.readAttrLists)
	case typeBlockID:
		return r.enterAnd(id, r.readTypes)
	case constantsID:
		return r.enterAnd(id, r.readConstants)
	case metadataKindID:
		return r.enterAnd(id, r.readMDKinds)
	case metadataID:
		return r.enterAnd(id, r.readMetadata)
	case bundleTagsID:
		return r.enterAnd(id, func() *Error { return r.readStringList(id, &r.m.BundleTags) })
	case syncScopeID:
		return r.enterAnd(id, func() *Error { return r.readStringList(id, &r.m.SyncScopes) })
	case valueSymtabID:
		return r.enterAnd(id, r.readModuleVST)
	case functionID:
		return r.enterAnd(id, r.readFunctionBody)
	case uselistID:
		return r.enterAnd(id, func() *Error { return r.readUseList(nil) })
	}
	return unknownBlock(c.r.pos, id)
}

func (r *reader) enterAnd(id uint64, f func() *Error) *Error {
	if err := r.c.enter(id); err != nil {
		return err
	}
	return f()
}

// readStringList reads a block of one-string records (OPERAND_BUNDLE_TAGS, SYNC_SCOPE_NAMES).
func (r *reader) readStringList(block uint64, out *[]string) *Error {
	return r.eachRecord(func(code uint64) *Error {
		if code != 1 {
			return unknownRecord(r.c.r.pos, block, code)
		}
		*out = append(*out, opsString(r.c.ops))
		return nil
	})
}

func (r *reader) moduleRecord(code uint64) *Error {
	c := r.c
	ops := c.ops
	switch code {
	case 1: // VERSION
		if len(ops) < 1 || ops[0] > 2 {
			return unsupported(c.r.pos, "MODULE_BLOCK/VERSION", "module version %v", ops)
		}
		r.version = ops[0]
		r.m.Version = ops[0]
	case 2:
		r.m.Triple = opsString(ops)
	case 3:
		r.m.DataLayout = opsString(ops)
	case 4:
		r.m.ModuleAsm = opsString(ops)
	case 5:
		r.sections = append(r.sections, opsString(ops))
		r.m.SectionName = r.sections
	case 11:
		r.gcNames = append(r.gcNames, opsString(ops))
	case 16:
		r.m.SourceFilename = opsString(ops)
	case 7:
		return r.globalVar(ops)
	case 8:
		return r.function(ops)
	case 13, 17, 15: // VSTOFFSET, HASH, METADATA_VALUES_UNUSED: nothing to keep
	default:
		return unknownRecord(c.r.pos, moduleBlockID, code)
	}
	return nil
}

func decodeLinkage(v uint64) (air.Linkage, bool) {
	switch v {
	case 0, 5, 6, 15:
		return air.External, true
	case 2:
		return air.Appending, true
	case 3:
		return air.Internal, true
	case 1, 16:
		return air.WeakAny, true
	case 4, 18:
		return air.LinkOnceAny, true
	case 7:
		return air.ExternalWeak, true
	case 8:
		return air.Common, true
	case 9, 13, 14:
		return air.Private, true
	case 10, 17:
		return air.WeakODR, true
	case 11, 19:
		return air.LinkOnceODR, true
	case 12:
		return air.AvailableExternally, true
	}
	return 0, false
}

func isLocal(l air.Linkage) bool { return l == air.Internal || l == air.Private }

func decodeAlign(v uint64) (uint64, bool) {
	if v == 0 {
		return 0, true
	}
	if v > 33 {
		return 0, false
	}
	return 1 << (v - 1), true
}

// nameOps strips the strtab (offset, size) prefix of a v2 record.
func (r *reader) nameOps(ops []uint64, what string) (string, []uint64, *Error) {
	if r.version < 2 {
		return "", ops, nil
	}
	if len(ops) < 2 {
		return "", nil, malformed(r.c.r.pos, what, "no name operands")
	}
	n, err := r.strtabName(ops[0], ops[1])
	return n, ops[2:], err
}

func (r *reader) globalVar(all []uint64) *Error {
	const what = "MODULE_BLOCK/GLOBALVAR"
	name, ops, err := r.nameOps(all, what)
	if err != nil {
		return err
	}
	if len(ops) < 6 {
		return malformed(r.c.r.pos, what, "%d operands", len(ops))
	}
	ty, err := r.typeAt(ops[0], what)
	if err != nil {
		return err
	}
	g := &air.GlobalVariable{}
	g.Name = name
	g.Constant = ops[1]&1 != 0
	if ops[1]&2 != 0 {
		g.AddrSpace = int(ops[1] >> 2)
		g.ValueType = ty
	} else {
		p, ok := ty.(*air.PointerType)
		if !ok || p.Elem == nil {
			return malformed(r.c.r.pos, what, "implicit type is not a typed pointer")
		}
		g.AddrSpace = p.AddrSpace
		g.ValueType = p.Elem
	}
	g.SetPointerType(r.ptrType(g.ValueType, g.AddrSpace))
	var ok bool
	if g.Linkage, ok = decodeLinkage(ops[3]); !ok {
		return unsupported(r.c.r.pos, what, "linkage %d", ops[3])
	}
	if g.Align, ok = decodeAlign(ops[4]); !ok {
		return malformed(r.c.r.pos, what, "alignment %d", ops[4])
	}
	if ops[5] != 0 {
		if ops[5]-1 >= uint64(len(r.sections)) {
			return malformed(r.c.r.pos, what, "section %d", ops[5])
		}
		g.Section = r.sections[ops[5]-1]
	}
	if len(ops) > 6 && !isLocal(g.Linkage) {
		g.Visibility = uint8(ops[6])
	}
	if len(ops) > 7 {
		g.ThreadLocal = uint8(ops[7])
	}
	if len(ops) > 8 {
		g.UnnamedAddr = air.UnnamedAddr(ops[8])
	}
	if len(ops) > 9 {
		g.ExternallyInitialized = ops[9] != 0
	}
	if len(ops) > 10 {
		g.DLLStorage = uint8(ops[10])
	}
	if len(ops) > 11 && ops[11] != 0 {
		return unsupported(r.c.r.pos, what, "comdat")
	}
	if len(ops) > 12 && ops[12] != 0 {
		return unsupported(r.c.r.pos, what, "global variable attributes")
	}
	if len(ops) > 13 {
		g.DSOLocal = ops[13] != 0
	}
	if isLocal(g.Linkage) || (g.Visibility != 0 && g.Linkage != air.ExternalWeak) {
		g.DSOLocal = true
	}
	if len(ops) > 15 && ops[15] != 0 {
		p, err := r.strtabName(ops[14], ops[15])
		if err != nil {
			return err
		}
		g.Partition = p
	}
	if len(ops) > 16 && ops[16] != 0 {
		return unsupported(r.c.r.pos, what, "sanitizer metadata")
	}
	if len(ops) > 17 && ops[17] != 0 {
		return unsupported(r.c.r.pos, what, "code model")
	}
	if ops[2] != 0 {
		r.globalInit = append(r.globalInit, globalInit{g, ops[2] - 1})
	}
	r.m.Globals = append(r.m.Globals, g)
	r.values = append(r.values, g)
	return nil
}

func (r *reader) function(all []uint64) *Error {
	const what = "MODULE_BLOCK/FUNCTION"
	name, ops, err := r.nameOps(all, what)
	if err != nil {
		return err
	}
	if len(ops) < 8 {
		return malformed(r.c.r.pos, what, "%d operands", len(ops))
	}
	ty, err := r.typeAt(ops[0], what)
	if err != nil {
		return err
	}
	if p, ok := ty.(*air.PointerType); ok && p.Elem != nil {
		ty = p.Elem
	}
	ft, ok := ty.(*air.FunctionType)
	if !ok {
		return malformed(r.c.r.pos, what, "type %s is not a function type", ty)
	}
	f := &air.Function{Sig: ft}
	f.Name = name
	f.CallingConv = uint32(ops[1])
	isProto := ops[2] != 0
	if f.Linkage, ok = decodeLinkage(ops[3]); !ok {
		return unsupported(r.c.r.pos, what, "linkage %d", ops[3])
	}
	if f.Attrs, err = r.attrList(ops[4], what); err != nil {
		return err
	}
	if f.Attrs, err = r.upgradeTypeAttrs(f.Attrs, func(i int) air.Type {
		if i < len(ft.Params) {
			return ft.Params[i]
		}
		return nil
	}, what); err != nil {
		return err
	}
	if f.Align, ok = decodeAlign(ops[5]); !ok {
		return malformed(r.c.r.pos, what, "alignment %d", ops[5])
	}
	if ops[6] != 0 {
		if ops[6]-1 >= uint64(len(r.sections)) {
			return malformed(r.c.r.pos, what, "section %d", ops[6])
		}
		f.Section = r.sections[ops[6]-1]
	}
	if !isLocal(f.Linkage) {
		f.Visibility = uint8(ops[7])
	}
	if len(ops) > 8 && ops[8] != 0 {
		if ops[8]-1 >= uint64(len(r.gcNames)) {
			return malformed(r.c.r.pos, what, "gc %d", ops[8])
		}
		f.GC = r.gcNames[ops[8]-1]
	}
	if len(ops) > 9 {
		f.UnnamedAddr = air.UnnamedAddr(ops[9])
	}
	p := fnPending{f: f}
	if len(ops) > 10 {
		p.prologue = ops[10]
	}
	if len(ops) > 11 {
		f.DLLStorage = uint8(ops[11])
	}
	if len(ops) > 12 && ops[12] != 0 {
		return unsupported(r.c.r.pos, what, "comdat")
	}
	if len(ops) > 13 {
		p.prefix = ops[13]
	}
	if len(ops) > 14 {
		p.personality = ops[14]
	}
	if len(ops) > 15 {
		f.DSOLocal = ops[15] != 0
	}
	if isLocal(f.Linkage) || (f.Visibility != 0 && f.Linkage != air.ExternalWeak) {
		f.DSOLocal = true
	}
	if len(ops) > 16 {
		f.AddrSpace = int(ops[16])
	}
	if len(ops) > 18 && ops[18] != 0 {
		pn, err := r.strtabName(ops[17], ops[18])
		if err != nil {
			return err
		}
		f.Partition = pn
	}
	f.SetPointerType(r.ptrType(ft, f.AddrSpace))
	if p.prologue|p.prefix|p.personality != 0 {
		r.fnPending = append(r.fnPending, p)
	}
	if err := r.spend(len(ft.Params), what); err != nil {
		return err
	}
	f.Args = make([]*air.Argument, len(ft.Params))
	for i, pt := range ft.Params {
		f.Args[i] = &air.Argument{Typ: pt, Index: i, Func: f}
	}
	if !isProto {
		r.bodies = append(r.bodies, f)
	}
	r.m.Functions = append(r.m.Functions, f)
	r.values = append(r.values, f)
	return nil
}

// finishModule resolves what could only be resolved once everything is read.
func (r *reader) finishModule() *Error {
	for _, gi := range r.globalInit {
		c, err := r.constant(gi.id, "MODULE_BLOCK/GLOBALVAR initializer")
		if err != nil {
			return err
		}
		gi.g.Init = c
	}
	for _, p := range r.fnPending {
		for _, x := range []struct {
			id  uint64
			dst *air.Constant
		}{{p.prologue, &p.f.Prologue}, {p.prefix, &p.f.Prefix}, {p.personality, &p.f.Personality}} {
			if x.id == 0 {
				continue
			}
			c, err := r.constant(x.id-1, "MODULE_BLOCK/FUNCTION prefix, prologue or personality")
			if err != nil {
				return err
			}
			*x.dst = c
		}
	}
	if r.nextBody != len(r.bodies) {
		return malformed(r.c.r.pos, "FUNCTION_BLOCK", "%d function bodies for %d defined functions", r.nextBody, len(r.bodies))
	}
	r.m.Types = r.types
	r.upgradeIntrinsics()
	r.upgradeModuleFlags()
	return nil
}
