package bitcode

import (
	"math/big"
	"sort"

	"github.com/airpipe/airpipe/compiler/air"
)

// attrKind describes one attribute kind code: its LLVM name, the name of
// its definition (LLVM orders attributes by that), and its class.
type attrKind struct {
	name, def string
	class     int // classEnum, classType, classInt, classRange, classRangeList
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
	92: {"range", "Range", 3}, 93: {"sanitize_numerical_stability", "SanitizeNumericalStability", 0},
	94: {"initializes", "Initializes", 4}, 95: {"hybrid_patchable", "HybridPatchable", 0},
}

type attrGroup struct {
	index uint64 // 0xFFFFFFFF function, 0 return, i+1 parameter i
	attrs air.AttrSet
}

// The attribute classes of attrKind, in the order LLVM sorts them.
const (
	classEnum = iota
	classType
	classInt
	classRange
	classRangeList
)

const grpEntry = "PARAMATTR_GROUP_BLOCK/GRP_ENTRY"

// readAttrGroups reads GRP_ENTRY records: [id, index, attribute...], each
// attribute one of LLVM 19's encodings: 0 enum (kind), 1 integer (kind,
// value), 3 string (key, 0), 4 string with value (key, 0, value, 0), 5 type
// attribute without its type (kind), 6 type attribute (kind, type), 7
// constant range (kind, bit width, range), 8 constant range list (kind,
// count, bit width, ranges). Another encoding is refused by name.
func (r *reader) readAttrGroups() *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		if code != 3 {
			return unknownRecord(c.r.pos, paramAttrGroupID, code)
		}
		ops := c.ops
		if len(ops) < 2 {
			return malformed(c.r.pos, grpEntry, "%d operands", len(ops))
		}
		g := &attrGroup{index: ops[1]}
		for i := 2; i < len(ops); {
			a, n, err := r.attribute(ops[i:])
			if err != nil {
				return err
			}
			i += n
			g.attrs = append(g.attrs, a)
		}
		sortAttrs(g.attrs)
		r.attrGrps[ops[0]] = g
		return nil
	})
}

// attribute reads one attribute of a GRP_ENTRY; n counts its operands.
func (r *reader) attribute(ops []uint64) (a air.Attribute, n int, err *Error) {
	pos := r.c.r.pos
	enc := ops[0]
	if enc == 3 || enc == 4 {
		key, k := cstring(ops[1:])
		n = 1 + k
		a = air.Attribute{Kind: key, IsString: true}
		if enc == 4 {
			val, k := cstring(ops[n:])
			n += k
			a.Value = val
		}
		return a, n, nil
	}
	if enc > 8 || enc == 2 {
		return a, 0, unsupported(pos, "PARAMATTR_GROUP_BLOCK/attribute encoding "+itoa(enc), "attribute encoding not read")
	}
	if len(ops) < 2 {
		return a, 0, malformed(pos, grpEntry, "truncated attribute")
	}
	info, ok := attrKinds[ops[1]]
	if !ok {
		return a, 0, unsupported(pos, "PARAMATTR_GROUP_BLOCK/attribute kind "+itoa(ops[1]), "unknown attribute kind")
	}
	a.Kind = info.name
	n = 2
	rest := ops[2:]
	switch enc {
	case 0:
		// LLVM's reader reads old enum-encoded byval, sret and inalloca as
		// type attributes whose type the function or call gives later
		// (upgradeTypeAttrs), and enum-encoded uwtable as uwtable.
		if info.class != classEnum && !typeUpgraded[a.Kind] && a.Kind != "uwtable" {
			return a, 0, malformed(pos, grpEntry, "%s is not an enum attribute", a.Kind)
		}
	case 1:
		if info.class != classInt {
			return a, 0, malformed(pos, grpEntry, "%s is not an integer attribute", a.Kind)
		}
		if len(rest) < 1 {
			return a, 0, malformed(pos, grpEntry, "truncated int attribute")
		}
		a.HasInt, a.Int = true, rest[0]
		n++
	case 5, 6:
		if info.class != classType {
			return a, 0, malformed(pos, grpEntry, "%s is not a type attribute", a.Kind)
		}
		if enc == 5 {
			// no type: only the upgraded kinds get one, from the pointer
			if !typeUpgraded[a.Kind] {
				return a, 0, unsupported(pos, "PARAMATTR_GROUP_BLOCK/"+a.Kind+" without a type", "type attribute without its type")
			}
			break
		}
		if len(rest) < 1 {
			return a, 0, malformed(pos, grpEntry, "truncated type attribute")
		}
		t, err := r.typeAt(rest[0], "PARAMATTR_GROUP_BLOCK/type attribute")
		if err != nil {
			return a, 0, err
		}
		a.Type = t
		n++
	case 7:
		if info.class != classRange {
			return a, 0, malformed(pos, grpEntry, "%s is not a constant range attribute", a.Kind)
		}
		if len(rest) < 3 {
			return a, 0, malformed(pos, grpEntry, "truncated constant range")
		}
		bits := rest[0]
		rg, k, err := r.constantRange(rest[1:], bits)
		if err != nil {
			return a, 0, err
		}
		a.RangeBits, a.Ranges = int(bits), []air.AttrRange{rg}
		n += 1 + k
	case 8:
		if info.class != classRangeList {
			return a, 0, malformed(pos, grpEntry, "%s is not a constant range list attribute", a.Kind)
		}
		if len(rest) < 2 {
			return a, 0, malformed(pos, grpEntry, "truncated constant range list")
		}
		count, bits := rest[0], rest[1]
		if count > uint64(len(rest)) {
			return a, 0, malformed(pos, grpEntry, "%d ranges in %d operands", count, len(rest))
		}
		k := 2
		for j := uint64(0); j < count; j++ {
			rg, m, err := r.constantRange(rest[k:], bits)
			if err != nil {
				return a, 0, err
			}
			k += m
			if len(a.Ranges) > 0 && a.Ranges[len(a.Ranges)-1].Hi.Cmp(rg.Lo) >= 0 || rg.Lo.Cmp(rg.Hi) >= 0 {
				return a, 0, malformed(pos, grpEntry, "%s ranges unordered or overlapping", a.Kind)
			}
			a.Ranges = append(a.Ranges, rg)
		}
		a.RangeBits = int(bits)
		n += k
	}
	return a, n, nil
}

// maxRangeBits bounds the bit width of a constant range (LLVM's integer
// types are at most 2^23 bits wide).
const maxRangeBits = 1 << 23

// constantRange reads [lo, hi) of bits-bit integers: two sign-rotated
// operands, or for more than 64 bits a word count (lower words in the low
// 32 bits, upper words in the high 32) and the words of each bound, least
// significant first, each sign-rotated.
func (r *reader) constantRange(ops []uint64, bits uint64) (air.AttrRange, int, *Error) {
	pos := r.c.r.pos
	if bits == 0 || bits > maxRangeBits {
		return air.AttrRange{}, 0, malformed(pos, grpEntry, "constant range of %d bits", bits)
	}
	if bits <= 64 {
		if len(ops) < 2 {
			return air.AttrRange{}, 0, malformed(pos, grpEntry, "truncated constant range")
		}
		return air.AttrRange{Lo: signedAt(wordsInt(ops[:1]), bits), Hi: signedAt(wordsInt(ops[1:2]), bits)}, 2, nil
	}
	if len(ops) < 1 {
		return air.AttrRange{}, 0, malformed(pos, grpEntry, "truncated constant range")
	}
	lw, uw := uint64(uint32(ops[0])), ops[0]>>32
	if lw+uw > uint64(len(ops)-1) || lw > (bits+63)/64 || uw > (bits+63)/64 {
		return air.AttrRange{}, 0, malformed(pos, grpEntry, "constant range of %d+%d words in %d operands", lw, uw, len(ops)-1)
	}
	lo := signedAt(wordsInt(ops[1:1+lw]), bits)
	hi := signedAt(wordsInt(ops[1+lw:1+lw+uw]), bits)
	return air.AttrRange{Lo: lo, Hi: hi}, int(1 + lw + uw), nil
}

// wordsInt decodes sign-rotated 64-bit words, least significant first,
// into the unsigned integer their two's-complement bits spell.
func wordsInt(words []uint64) *big.Int {
	v := new(big.Int)
	for k := len(words) - 1; k >= 0; k-- {
		w := words[k]
		d := w >> 1
		switch {
		case w == 1:
			d = 1 << 63 // LLVM's encoding of the most negative word
		case w&1 != 0:
			d = -d
		}
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(d))
	}
	return v
}

// signedAt truncates v to bits and reads the result as a signed integer.
func signedAt(v *big.Int, bits uint64) *big.Int {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	v = new(big.Int).Mod(v, mod)
	if v.Bit(int(bits)-1) != 0 {
		v.Sub(v, mod)
	}
	return v
}

// typeUpgraded are the type attributes LLVM's reader gives, when the
// bitcode leaves their type out, the pointee type of the typed pointer
// they mark.
var typeUpgraded = map[string]bool{"byval": true, "sret": true, "inalloca": true}

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
// attributes, int attributes, constant ranges, constant range lists (each
// by definition name), then strings by key.
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

// upgradeTypeAttrs gives byval, sret and inalloca without a type (old
// bitcode) the pointee type of the typed pointer parameter they mark, as
// LLVM's reader does for functions and calls; argType(i) is parameter i's
// type, nil past the last. Without a typed pointer the type is unknown,
// which LLVM refuses too. The list is copied where it changes (lists are
// shared by every function and call that names them).
func (r *reader) upgradeTypeAttrs(l air.AttributeList, argType func(i int) air.Type, what string) (air.AttributeList, *Error) {
	for _, set := range []air.AttrSet{l.Fn, l.Ret} {
		for _, a := range set {
			if typeUpgraded[a.Kind] && !a.IsString && a.Type == nil {
				return l, malformed(r.c.r.pos, what, "%s without a type outside a parameter", a.Kind)
			}
		}
	}
	copied := false
	for i, set := range l.Params {
		for k, a := range set {
			if !typeUpgraded[a.Kind] || a.IsString || a.Type != nil {
				continue
			}
			p, ok := argType(i).(*air.PointerType)
			if !ok || p.Elem == nil {
				return l, malformed(r.c.r.pos, what, "%s without a type on parameter %d, which is not a typed pointer", a.Kind, i)
			}
			if !copied {
				l.Params = append([]air.AttrSet(nil), l.Params...)
				copied = true
			}
			l.Params[i] = append(air.AttrSet(nil), l.Params[i]...)
			l.Params[i][k].Type = p.Elem
		}
	}
	return l, nil
}
