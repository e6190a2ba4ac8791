package bitcode

import (
	"strconv"

	"github.com/airpipe/airpipe/compiler/air"
)

// The remaining debug-info nodes: types, variables, scopes and expressions.

var dwTagNames = map[uint64]string{0x01: "DW_TAG_array_type", 0x02: "DW_TAG_class_type", 0x04: "DW_TAG_enumeration_type",
	0x08: "DW_TAG_imported_declaration", 0x0d: "DW_TAG_member", 0x0f: "DW_TAG_pointer_type", 0x10: "DW_TAG_reference_type",
	0x13: "DW_TAG_structure_type", 0x15: "DW_TAG_subroutine_type", 0x16: "DW_TAG_typedef", 0x17: "DW_TAG_union_type",
	0x1c: "DW_TAG_inheritance", 0x1f: "DW_TAG_ptr_to_member_type", 0x24: "DW_TAG_base_type", 0x26: "DW_TAG_const_type",
	0x2a: "DW_TAG_friend", 0x2f: "DW_TAG_template_type_parameter", 0x30: "DW_TAG_template_value_parameter",
	0x34: "DW_TAG_variable", 0x35: "DW_TAG_volatile_type", 0x37: "DW_TAG_restrict_type", 0x3a: "DW_TAG_imported_module",
	0x42: "DW_TAG_rvalue_reference_type", 0x47: "DW_TAG_atomic_type", 0x4106: "DW_TAG_GNU_template_template_param",
	0x4107: "DW_TAG_GNU_template_parameter_pack"}

var dwEncodings = map[uint64]string{1: "DW_ATE_address", 2: "DW_ATE_boolean", 3: "DW_ATE_complex_float", 4: "DW_ATE_float",
	5: "DW_ATE_signed", 6: "DW_ATE_signed_char", 7: "DW_ATE_unsigned", 8: "DW_ATE_unsigned_char", 0x10: "DW_ATE_UTF"}

// dwOps are DWARF expression operations: name and argument count.
var dwOps = map[uint64]struct {
	name string
	args int
}{0x03: {"DW_OP_addr", 1}, 0x06: {"DW_OP_deref", 0}, 0x10: {"DW_OP_constu", 1}, 0x11: {"DW_OP_consts", 1},
	0x12: {"DW_OP_dup", 0}, 0x14: {"DW_OP_over", 0}, 0x16: {"DW_OP_swap", 0}, 0x18: {"DW_OP_xderef", 0},
	0x1a: {"DW_OP_and", 0}, 0x1b: {"DW_OP_div", 0}, 0x1c: {"DW_OP_minus", 0}, 0x1d: {"DW_OP_mod", 0},
	0x1e: {"DW_OP_mul", 0}, 0x20: {"DW_OP_not", 0}, 0x21: {"DW_OP_or", 0}, 0x22: {"DW_OP_plus", 0},
	0x23: {"DW_OP_plus_uconst", 1}, 0x24: {"DW_OP_shl", 0}, 0x25: {"DW_OP_shr", 0}, 0x26: {"DW_OP_shra", 0},
	0x27: {"DW_OP_xor", 0}, 0x29: {"DW_OP_eq", 0}, 0x2a: {"DW_OP_ge", 0}, 0x2b: {"DW_OP_gt", 0}, 0x2c: {"DW_OP_le", 0},
	0x2d: {"DW_OP_lt", 0}, 0x2e: {"DW_OP_ne", 0}, 0x90: {"DW_OP_regx", 1}, 0x92: {"DW_OP_bregx", 2},
	0x94: {"DW_OP_deref_size", 1}, 0x95: {"DW_OP_xderef_size", 1}, 0x96: {"DW_OP_nop", 0},
	0x97: {"DW_OP_push_object_address", 0}, 0x9f: {"DW_OP_stack_value", 0}, 0x1000: {"DW_OP_LLVM_fragment", 2},
	0x1001: {"DW_OP_LLVM_convert", 2}, 0x1002: {"DW_OP_LLVM_tag_offset", 1}, 0x1003: {"DW_OP_LLVM_entry_value", 1},
	0x1004: {"DW_OP_LLVM_implicit_pointer", 0}, 0x1005: {"DW_OP_LLVM_arg", 1},
	0x1006: {"DW_OP_LLVM_extract_bits_sext", 2}, 0x1007: {"DW_OP_LLVM_extract_bits_zext", 2}}

func dwOp(v uint64) (string, int, bool) {
	switch {
	case v >= 0x30 && v <= 0x4f:
		return "DW_OP_lit" + strconv.FormatUint(v-0x30, 10), 0, true
	case v >= 0x50 && v <= 0x6f:
		return "DW_OP_reg" + strconv.FormatUint(v-0x50, 10), 0, true
	case v >= 0x70 && v <= 0x8f:
		return "DW_OP_breg" + strconv.FormatUint(v-0x70, 10), 1, true
	}
	op, ok := dwOps[v]
	return op.name, op.args, ok
}

func unrotate(v uint64) int64 {
	if v&1 != 0 {
		return ^int64(v >> 1)
	}
	return int64(v >> 1)
}

// diTypeSupported reports whether these printers render the node.
func diTypeSupported(n *air.DINode) bool {
	l := len(n.Ops)
	switch n.Kind {
	case "DIBasicType":
		return l == 6 || l == 7
	case "DIDerivedType":
		return l >= 12 && l <= 15
	case "DICompositeType":
		return l >= 16 && l <= 22
	case "DISubrange":
		return l >= 3 && diOp(n, 0)>>1 <= 2
	case "DIEnumerator":
		return l >= 3 && diOp(n, 0)&4 == 0
	case "DIExpression":
		return l >= 1 && diOp(n, 0)>>1 == 3
	case "DIGlobalVariable":
		v := diOp(n, 0) >> 1
		return (v == 1 || v == 2) && l >= 12
	case "DIGlobalVariableExpression":
		return l == 3
	case "DILexicalBlock":
		return l == 5
	case "DILexicalBlockFile":
		return l == 4
	case "DILocalVariable":
		return l >= 8 && l <= 10
	case "DINamespace":
		return l == 3 || l == 5
	case "DITemplateTypeParameter":
		return l == 3 || l == 4
	case "DITemplateValueParameter":
		return l == 5 || l == 6
	}
	return false
}

func (p *printer) diTypeOperands(n *air.DINode) []air.Metadata {
	switch n.Kind {
	case "DIDerivedType":
		out := diRefs(n, 3, 5, 2, 6, 11)
		if len(n.Ops) > 14 {
			out = append(out, diRef(n, 13))
		}
		return out
	case "DICompositeType":
		if compositeFwd(n) {
			return diRefs(n, 3, 5, 2, 15)
		}
		return diRefs(n, 3, 5, 2, 6, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21)
	case "DISubrange":
		if diOp(n, 0)>>1 == 0 {
			return nil
		}
		return diRefs(n, 1, 2, 3, 4)
	case "DIGlobalVariable":
		if diOp(n, 0)>>1 == 1 {
			return diRefs(n, 1, 2, 4, 6, 3, 10)
		}
		return diRefs(n, 1, 2, 4, 6, 3, 9, 10, 12)
	case "DIGlobalVariableExpression":
		return diRefs(n, 1, 2)
	case "DILexicalBlock", "DILexicalBlockFile":
		return diRefs(n, 2, 1)
	case "DILocalVariable":
		t := localTag(n)
		out := diRefs(n, 1+t, 2+t, 3+t, 5+t)
		if diOp(n, 0)&2 != 0 && len(n.Ops) > 9 {
			out = append(out, diRef(n, 9))
		}
		return out
	case "DINamespace":
		return diRefs(n, 1)
	case "DITemplateTypeParameter":
		return diRefs(n, 1, 2)
	case "DITemplateValueParameter":
		if len(n.Ops) == 6 {
			return diRefs(n, 2, 3, 5)
		}
		return diRefs(n, 2, 3, 4)
	}
	return nil
}

func compositeFwd(n *air.DINode) bool { return diOp(n, 10)&(1<<2) != 0 }

func localTag(n *air.DINode) int {
	if diOp(n, 0)&2 == 0 && len(n.Ops) > 8 {
		return 1
	}
	return 0
}

// mdIntOp prints a ConstantAsMetadata integer operand as an int field, or
// the node reference.
func (f *fieldPrinter) mdInt(name string, m air.Metadata) {
	if v, ok := m.(*air.MDValue); ok {
		if c, ok := v.Value.(*air.ConstInt); ok {
			f.num(name, c.Int64(), false)
			return
		}
	}
	f.md(name, m, true)
}

func (p *printer) diTypeBody(n *air.DINode, f *fieldPrinter) {
	no := false
	switch n.Kind {
	case "DIBasicType":
		if diOp(n, 1) != 0x24 {
			f.raw("tag", dwName(dwTagNames, diOp(n, 1)))
		}
		f.str("name", diString(n, 2), true)
		f.num("size", int64(diOp(n, 3)), true)
		f.num("align", int64(diOp(n, 4)), true)
		if e := diOp(n, 5); e != 0 {
			f.raw("encoding", dwName(dwEncodings, e))
		}
		if fl := diOp(n, 6); fl != 0 {
			f.raw("flags", diFlags(fl))
		}
	case "DIDerivedType":
		f.raw("tag", dwName(dwTagNames, diOp(n, 1)))
		f.str("name", diString(n, 2), true)
		f.md("scope", diRef(n, 5), true)
		f.md("file", diRef(n, 3), true)
		f.num("line", int64(diOp(n, 4)), true)
		f.md("baseType", diRef(n, 6), false)
		f.num("size", int64(diOp(n, 7)), true)
		f.num("align", int64(diOp(n, 8)), true)
		f.num("offset", int64(diOp(n, 9)), true)
		if fl := diOp(n, 10); fl != 0 {
			f.raw("flags", diFlags(fl))
		}
		f.md("extraData", diRef(n, 11), true)
		if len(n.Ops) > 12 && n.Ops[12] != 0 {
			f.num("dwarfAddressSpace", int64(n.Ops[12]-1), false)
		}
		if len(n.Ops) > 14 {
			f.md("annotations", diRef(n, 13), true)
		}
	case "DICompositeType":
		fwd := compositeFwd(n)
		get := func(i int) air.Metadata {
			if fwd {
				return nil
			}
			return diRef(n, i)
		}
		f.raw("tag", dwName(dwTagNames, diOp(n, 1)))
		f.str("name", diString(n, 2), true)
		f.md("scope", diRef(n, 5), true)
		f.md("file", diRef(n, 3), true)
		f.num("line", int64(diOp(n, 4)), true)
		f.md("baseType", get(6), true)
		f.num("size", int64(diOp(n, 7)), true)
		f.num("align", int64(diOp(n, 8)), true)
		if !fwd {
			f.num("offset", int64(diOp(n, 9)), true)
		}
		if fl := diOp(n, 10); fl != 0 {
			f.raw("flags", diFlags(fl))
		}
		f.md("elements", get(11), true)
		if rl := diOp(n, 12); rl != 0 {
			f.raw("runtimeLang", dwName(dwLang, rl))
		}
		f.md("vtableHolder", get(13), true)
		f.md("templateParams", get(14), true)
		f.str("identifier", diString(n, 15), true)
		f.md("discriminator", get(16), true)
		f.md("dataLocation", get(17), true)
		if len(n.Ops) > 19 {
			f.md("associated", get(18), true)
			f.md("allocated", get(19), true)
		}
		if len(n.Ops) > 20 {
			f.mdInt("rank", get(20))
		}
		if len(n.Ops) > 21 {
			f.md("annotations", get(21), true)
		}
	case "DISubrange":
		if diOp(n, 0)>>1 == 0 {
			f.num("count", int64(diOp(n, 1)), false)
			f.num("lowerBound", unrotate(diOp(n, 2)), false)
			break
		}
		f.mdInt("count", diRef(n, 1))
		if diOp(n, 0)>>1 == 1 {
			f.num("lowerBound", unrotate(diOp(n, 2)), false)
			break
		}
		f.mdInt("lowerBound", diRef(n, 2))
		f.mdInt("upperBound", diRef(n, 3))
		f.mdInt("stride", diRef(n, 4))
	case "DIEnumerator":
		f.str("name", diString(n, 2), false)
		if diOp(n, 0)&2 != 0 {
			f.raw("value", strconv.FormatUint(uint64(unrotate(diOp(n, 1))), 10))
			f.raw("isUnsigned", "true")
		} else {
			f.num("value", unrotate(diOp(n, 1)), false)
		}
	case "DIGlobalVariable":
		v1 := diOp(n, 0)>>1 == 1
		f.str("name", diString(n, 2), true)
		f.str("linkageName", diString(n, 3), true)
		f.md("scope", diRef(n, 1), false)
		f.md("file", diRef(n, 4), true)
		f.num("line", int64(diOp(n, 5)), true)
		f.md("type", diRef(n, 6), true)
		f.boolean("isLocal", diOp(n, 7) != 0, nil)
		f.boolean("isDefinition", diOp(n, 8) != 0, nil)
		if v1 {
			f.md("declaration", diRef(n, 10), true)
		} else {
			f.md("declaration", diRef(n, 9), true)
			f.md("templateParams", diRef(n, 10), true)
		}
		f.num("alignInBits", int64(diOp(n, 11)), true)
		if !v1 && len(n.Ops) > 12 {
			f.md("annotations", diRef(n, 12), true)
		}
	case "DIGlobalVariableExpression":
		f.md("var", diRef(n, 1), false)
		f.md("expr", diRef(n, 2), false)
	case "DILexicalBlock":
		f.md("scope", diRef(n, 1), false)
		f.md("file", diRef(n, 2), true)
		f.num("line", int64(diOp(n, 3)), true)
		f.num("column", int64(diOp(n, 4)), true)
	case "DILexicalBlockFile":
		f.md("scope", diRef(n, 1), false)
		f.md("file", diRef(n, 2), true)
		f.num("discriminator", int64(diOp(n, 3)), false)
	case "DILocalVariable":
		t := localTag(n)
		f.str("name", diString(n, 2+t), true)
		f.num("arg", int64(diOp(n, 6+t)), true)
		f.md("scope", diRef(n, 1+t), false)
		f.md("file", diRef(n, 3+t), true)
		f.num("line", int64(diOp(n, 4+t)), true)
		f.md("type", diRef(n, 5+t), true)
		if fl := diOp(n, 7+t); fl != 0 {
			f.raw("flags", diFlags(fl))
		}
		if diOp(n, 0)&2 != 0 {
			f.num("align", int64(diOp(n, 8)), true)
			if len(n.Ops) > 9 {
				f.md("annotations", diRef(n, 9), true)
			}
		}
	case "DINamespace":
		name := diString(n, 2)
		if len(n.Ops) == 5 {
			name = diString(n, 3)
		}
		f.str("name", name, true)
		f.md("scope", diRef(n, 1), false)
		f.boolean("exportSymbols", diOp(n, 0)&2 != 0, &no)
	case "DITemplateTypeParameter":
		f.str("name", diString(n, 1), true)
		f.md("type", diRef(n, 2), false)
		f.boolean("defaulted", len(n.Ops) == 4 && n.Ops[3] != 0, &no)
	case "DITemplateValueParameter":
		if diOp(n, 1) != 0x30 {
			f.raw("tag", dwName(dwTagNames, diOp(n, 1)))
		}
		f.str("name", diString(n, 2), true)
		f.md("type", diRef(n, 3), true)
		if len(n.Ops) == 6 {
			f.boolean("defaulted", n.Ops[4] != 0, &no)
			f.md("value", diRef(n, 5), false)
		} else {
			f.md("value", diRef(n, 4), false)
		}
	}
}

// expression prints a DIExpression inline: operations by name with their
// arguments, or the raw elements when an operation is unknown.
func (p *printer) expression(n *air.DINode) {
	if n.Distinct {
		p.s("distinct ")
	}
	p.s("!DIExpression(")
	els := n.Ops[1:]
	valid := true
	for i := 0; i < len(els); {
		_, args, ok := dwOp(els[i])
		if !ok || i+1+args > len(els) {
			valid = false
			break
		}
		i += 1 + args
	}
	first := true
	sep := func() {
		if !first {
			p.s(", ")
		}
		first = false
	}
	for i := 0; i < len(els); {
		if !valid {
			sep()
			p.s(strconv.FormatUint(els[i], 10))
			i++
			continue
		}
		name, args, _ := dwOp(els[i])
		sep()
		p.s(name)
		if els[i] == 0x1001 {
			sep()
			p.s(strconv.FormatUint(els[i+1], 10))
			sep()
			p.s(dwName(dwEncodings, els[i+2]))
		} else {
			for a := 1; a <= args; a++ {
				sep()
				p.s(strconv.FormatUint(els[i+a], 10))
			}
		}
		i += 1 + args
	}
	p.b(')')
}
