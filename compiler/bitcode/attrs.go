package bitcode

import (
	"sort"

	"github.com/airpipe/airpipe/compiler/air"
)

// attrKind describes one attribute kind code: its LLVM name, the name of
// its definition (LLVM orders attributes by that), and its class.
type attrKind struct {
	name, def string
	class     int // 0 enum, 1 type, 2 int
}

// attrKinds maps bitcode attribute kind codes to attributes (LLVMBitCodes.h
// AttributeKindCodes; names as LLVM text prints them).
var attrKinds = map[uint64]attrKind{
	1: {"align", "Alignment", 2}, 2: {"alwaysinline", "AlwaysInline", 0}, 3: {"byval", "ByVal", 1},
	4: {"inlinehint", "InlineHint", 0}, 5: {"inreg", "InReg", 0}, 6: {"minsize", "MinSize", 0},
	7: {"naked", "Naked", 0}, 8: {"nest", "Nest", 0}, 9: {"noalias", "NoAlias", 0},
	10: {"nobuiltin", "NoBuiltin", 0}, 11: {"nocapture", "NoCapture", 0}, 12: {"noduplicate", "NoDuplicate", 0},
	13: {"noimplicitfloat", "NoImplicitFloat", 0}, 14: {"noinline", "NoInline", 0}, 15: {"nonlazybind", "NonLazyBind", 0},
	16: {"noredzone", "NoRedZone", 0}, 17: {"noreturn", "NoReturn", 0}, 18: {"nounwind", "NoUnwind", 0},
	19: {"optsize", "OptimizeForSize", 0}, 20: {"readnone", "ReadNone", 0}, 21: {"readonly", "ReadOnly", 0},
	22: {"returned", "Returned", 0}, 23: {"returns_twice", "ReturnsTwice", 0}, 24: {"signext", "SExt", 0},
	25: {"alignstack", "StackAlignment", 2}, 26: {"ssp", "StackProtect", 0}, 27: {"sspreq", "StackProtectReq", 0},
	28: {"sspstrong", "StackProtectStrong", 0}, 29: {"sret", "StructRet", 1}, 30: {"sanitize_address", "SanitizeAddress", 0},
	31: {"sanitize_thread", "SanitizeThread", 0}, 32: {"sanitize_memory", "SanitizeMemory", 0}, 33: {"uwtable", "UWTable", 2},
	34: {"zeroext", "ZExt", 0}, 35: {"builtin", "Builtin", 0}, 36: {"cold", "Cold", 0},
	37: {"optnone", "OptimizeNone", 0}, 38: {"inalloca", "InAlloca", 1}, 39: {"nonnull", "NonNull", 0},
	40: {"jumptable", "JumpTable", 0}, 41: {"dereferenceable", "Dereferenceable", 2},
	42: {"dereferenceable_or_null", "DereferenceableOrNull", 2}, 43: {"convergent", "Convergent", 0},
	44: {"safestack", "SafeStack", 0}, 45: {"argmemonly", "ArgMemOnly", 0}, 46: {"swiftself", "SwiftSelf", 0},
	47: {"swifterror", "SwiftError", 0}, 48: {"norecurse", "NoRecurse", 0},
	49: {"inaccessiblememonly", "InaccessibleMemOnly", 0}, 50: {"inaccessiblemem_or_argmemonly", "InaccessibleMemOrArgMemOnly", 0},
	51: {"allocsize", "AllocSize", 2}, 52: {"writeonly", "WriteOnly", 0}, 53: {"speculatable", "Speculatable", 0},
	54: {"strictfp", "StrictFP", 0}, 55: {"sanitize_hwaddress", "SanitizeHWAddress", 0}, 56: {"nocf_check", "NoCfCheck", 0},
	57: {"optforfuzzing", "OptForFuzzing", 0}, 58: {"shadowcallstack", "ShadowCallStack", 0},
	59: {"speculative_load_hardening", "SpeculativeLoadHardening", 0}, 60: {"immarg", "ImmArg", 0},
	61: {"willreturn", "WillReturn", 0}, 62: {"nofree", "NoFree", 0}, 63: {"nosync", "NoSync", 0},
	64: {"sanitize_memtag", "SanitizeMemTag", 0}, 65: {"preallocated", "Preallocated", 1}, 66: {"nomerge", "NoMerge", 0},
	67: {"null_pointer_is_valid", "NullPointerIsValid", 0}, 68: {"noundef", "NoUndef", 0}, 69: {"byref", "ByRef", 1},
	70: {"mustprogress", "MustProgress", 0}, 71: {"nocallback", "NoCallback", 0}, 72: {"hot", "Hot", 0},
	73: {"noprofile", "NoProfile", 0}, 74: {"vscale_range", "VScaleRange", 2}, 75: {"swiftasync", "SwiftAsync", 0},
	76: {"nosanitize_coverage", "NoSanitizeCoverage", 0}, 77: {"elementtype", "ElementType", 1},
	78: {"disable_sanitizer_instrumentation", "DisableSanitizerInstrumentation", 0}, 79: {"nosanitize_bounds", "NoSanitizeBounds", 0},
	80: {"allocalign", "AllocAlignment", 0}, 81: {"allocptr", "AllocatedPointer", 0}, 82: {"allockind", "AllocKind", 2},
	83: {"presplitcoroutine", "PresplitCoroutine", 0}, 84: {"fn_ret_thunk_extern", "FnRetThunkExtern", 0},
	85: {"skipprofile", "SkipProfile", 0}, 86: {"memory", "Memory", 2}, 87: {"nofpclass", "NoFPClass", 2},
	88: {"optdebug", "OptimizeForDebugging", 0}, 89: {"writable", "Writable", 0},
	90: {"coro_only_destroy_when_complete", "CoroDestroyOnlyWhenComplete", 0}, 91: {"dead_on_unwind", "DeadOnUnwind", 0},
	93: {"sanitize_numerical_stability", "SanitizeNumericalStability", 0}, 95: {"hybrid_patchable", "HybridPatchable", 0},
}

type attrGroup struct {
	index uint64 // 0xFFFFFFFF function, 0 return, i+1 parameter i
	attrs air.AttrSet
}

func (r *reader) readAttrGroups() *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		if code != 3 {
			return unknownRecord(c.r.pos, paramAttrGroupID, code)
		}
		ops := c.ops
		if len(ops) < 2 {
			return malformed(c.r.pos, "PARAMATTR_GROUP_BLOCK/GRP_ENTRY", "%d operands", len(ops))
		}
		g := &attrGroup{index: ops[1]}
		for i := 2; i < len(ops); {
			k := ops[i]
			i++
			switch k {
			case 0, 1, 5, 6: // enum, int, type, type-without-type
				if i >= len(ops) {
					return malformed(c.r.pos, "PARAMATTR_GROUP_BLOCK/GRP_ENTRY", "truncated attribute")
				}
				info, ok := attrKinds[ops[i]]
				if !ok {
					return unsupported(c.r.pos, "PARAMATTR_GROUP_BLOCK/attribute kind "+itoa(ops[i]), "unknown attribute kind")
				}
				i++
				a := air.Attribute{Kind: info.name}
				switch k {
				case 1:
					if i >= len(ops) {
						return malformed(c.r.pos, "PARAMATTR_GROUP_BLOCK/GRP_ENTRY", "truncated int attribute")
					}
					a.HasInt, a.Int = true, ops[i]
					i++
				case 5:
					if i >= len(ops) {
						return malformed(c.r.pos, "PARAMATTR_GROUP_BLOCK/GRP_ENTRY", "truncated type attribute")
					}
					t, err := r.typeAt(ops[i], "PARAMATTR_GROUP_BLOCK/type attribute")
					if err != nil {
						return err
					}
					a.Type = t
					i++
				}
				g.attrs = append(g.attrs, a)
			case 3, 4: // string key [, value]
				key, n := cstring(ops[i:])
				i += n
				a := air.Attribute{Kind: key, IsString: true}
				if k == 4 {
					val, n := cstring(ops[i:])
					i += n
					a.Value = val
				}
				g.attrs = append(g.attrs, a)
			default:
				return unsupported(c.r.pos, "PARAMATTR_GROUP_BLOCK/attribute encoding "+itoa(k), "attribute encoding not read")
			}
		}
		sortAttrs(g.attrs)
		r.attrGrps[ops[0]] = g
		return nil
	})
}

// cstring reads a zero-terminated string of operands; n counts the terminator.
func cstring(ops []uint64) (string, int) {
	for i, v := range ops {
		if v == 0 {
			return opsString(ops[:i]), i + 1
		}
	}
	return opsString(ops), len(ops)
}

var attrDef = func() map[string]attrKind {
	m := map[string]attrKind{}
	for _, k := range attrKinds {
		m[k.name] = k
	}
	return m
}()

// sortAttrs orders attributes as LLVM does: enum attributes, type
// attributes, int attributes (each by definition name), then strings by key.
func sortAttrs(s air.AttrSet) {
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.IsString != b.IsString {
			return !a.IsString
		}
		if a.IsString {
			return a.Kind < b.Kind
		}
		ka, kb := attrDef[a.Kind], attrDef[b.Kind]
		if ka.class != kb.class {
			return ka.class < kb.class
		}
		return ka.def < kb.def
	})
}

func (r *reader) readAttrLists() *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		if code != 2 {
			return unknownRecord(c.r.pos, paramAttrID, code)
		}
		l := air.AttributeList{Group: len(r.attrLists)}
		for _, gid := range c.ops {
			g, ok := r.attrGrps[gid]
			if !ok {
				// LLVM's reader looks groups up in a map that yields an
				// empty set for an id no GRP_ENTRY defined (Apple's
				// compiler emits such ids after dropping a group), so the
				// id adds no attributes; llvm-dis-19 prints the same.
				continue
			}
			switch {
			case g.index == 0xFFFFFFFF:
				l.Fn = append(l.Fn, g.attrs...)
			case g.index == 0:
				l.Ret = append(l.Ret, g.attrs...)
			default:
				p := int(g.index - 1)
				if p > 1<<16 {
					return malformed(c.r.pos, "PARAMATTR_BLOCK/ENTRY", "parameter index %d", p)
				}
				if p >= len(l.Params) {
					if err := r.spend(p+1-len(l.Params), "PARAMATTR_BLOCK/ENTRY"); err != nil {
						return err
					}
				}
				for len(l.Params) <= p {
					l.Params = append(l.Params, nil)
				}
				l.Params[p] = append(l.Params[p], g.attrs...)
			}
		}
		r.attrLists = append(r.attrLists, l)
		return nil
	})
}

// attrList returns attribute list id (0 none, else index+1).
func (r *reader) attrList(id uint64, what string) (air.AttributeList, *Error) {
	if id == 0 {
		return air.AttributeList{Group: -1}, nil
	}
	if id-1 >= uint64(len(r.attrLists)) {
		return air.AttributeList{}, malformed(r.c.r.pos, what, "attribute list %d undefined", id)
	}
	return r.attrLists[id-1], nil
}

func itoa(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}
