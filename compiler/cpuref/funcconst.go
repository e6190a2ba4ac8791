package cpuref

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// FunctionConstant is one Metal function constant of the module, as
// !air.function_constants lists it, with the value the reference gives it.
type FunctionConstant struct {
	// Index is the function constant's index (SPIR-V SpecId 100+Index).
	Index int
	// Name is the constant's name in the Metal source.
	Name string
	// Type is its Metal type ("bool", "float", "uint", "ushort", ...).
	Type string
	// Word is its value as a 32-bit specialization word: FunctionConstantWord(Index, Type),
	// or the value the function-constant search chose (fcsearch.go, Kernel.FunctionConstantSearch).
	Word uint32
}

// FunctionConstantWord is the value the reference (and the device, through
// specialization) gives function constant index of Metal type metalType, as
// a 32-bit word: bool 1 (true); float and half float32((index+1)/4) bits;
// char, short, int int32(2+index); uchar, ushort, uint uint32(4+index). A
// narrower AIR global (bool in i8, ushort in i16, half) holds the same value
// in its own type. It reports false for a type it does not know (vectors,
// 64-bit integers ...).
func FunctionConstantWord(index int, metalType string) (uint32, bool) {
	if index < 0 {
		return 0, false
	}
	switch metalType {
	case "bool":
		return 1, true
	case "float", "half":
		return math.Float32bits(float32(index+1) / 4), true
	case "char", "short", "int":
		return uint32(int32(2 + index)), true
	case "uchar", "ushort", "uint":
		return uint32(4 + index), true
	}
	return 0, false
}

// fcLLVMType is the LLVM type AIR stores each known Metal type in.
var fcLLVMType = map[string][]string{
	"bool": {"i8", "i1"}, "char": {"i8"}, "uchar": {"i8"},
	"short": {"i16"}, "ushort": {"i16"}, "int": {"i32"}, "uint": {"i32"},
	"float": {"float"}, "half": {"half"},
}

// maxFunctionConstantIndex is the largest index Metal allows.
const maxFunctionConstantIndex = 65535

// fcEntry is a function constant with the global that holds it.
type fcEntry struct {
	FunctionConstant
	// Global is the global's name, without '@' and quotes.
	Global string
}

// readFunctionConstants reads !air.function_constants: every node names its
// global, Metal type, name and index. A constant whose type the reference
// cannot give is a *NotJudgeableError (KindFunctionConstant) naming it.
func readFunctionConstants(t *textModule) ([]fcEntry, error) {
	var out []fcEntry
	seen := map[int]string{}
	for _, ref := range t.named["air.function_constants"] {
		node := t.md[ref]
		if len(node) < 4 {
			return nil, notJudgeable(KindMalformed, "air.function_constants", "function constant node %s has %d operands, want 4 or more", ref, len(node))
		}
		g, ok := fcGlobalName(node[0])
		ty, okT := mdString(node[1])
		name, okN := mdString(node[2])
		idx, okI := mdInt(node[3])
		if !ok || !okT || !okN || !okI || idx < 0 || idx > maxFunctionConstantIndex {
			return nil, notJudgeable(KindMalformed, "air.function_constants", "function constant node %s is not {global, type, name, index 0..%d}", ref, maxFunctionConstantIndex)
		}
		if other, dup := seen[int(idx)]; dup {
			return nil, notJudgeable(KindFunctionConstant, "index "+fmt.Sprint(idx), "function constants %s and %s share index %d", other, name, idx)
		}
		seen[int(idx)] = name
		word, known := FunctionConstantWord(int(idx), ty)
		if !known {
			return nil, notJudgeable(KindFunctionConstant, fmt.Sprintf("%s %s", ty, name), "function constant %s (index %d) of Metal type %s: the reference gives values to bool, float, half and 8- to 32-bit integers only", name, idx, ty)
		}
		if w, chosen := t.fcWords[int(idx)]; chosen {
			word = w // fcsearch.go
		}
		out = append(out, fcEntry{FunctionConstant: FunctionConstant{Index: int(idx), Name: name, Type: ty, Word: word}, Global: g})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, nil
}

// fcGlobalName reads "ptr addrspace(2) @G" (or a quoted @"G").
func fcGlobalName(op string) (string, bool) {
	at := strings.IndexByte(op, '@')
	if at < 0 || !strings.HasPrefix(op, "ptr") {
		return "", false
	}
	name, rest, ok := symbolAt(op[at+1:])
	return name, ok && strings.TrimSpace(rest) == ""
}

// fcInitializer is a function-constant global's definition: what precedes
// externally_initialized, its type, and what follows its undef initializer.
var fcInitializer = regexp.MustCompile(`^(.*?)externally_initialized constant (\S+) undef(.*)$`)

// functionConstantGlobals rewrites the globals of the module's function
// constants: line number → the global's definition with the constant's value
// in its own LLVM type instead of undef (no longer externally_initialized).
func functionConstantGlobals(t *textModule) (map[int]string, error) {
	fcs, err := readFunctionConstants(t)
	if err != nil || len(fcs) == 0 {
		return nil, err
	}
	byName := map[string]fcEntry{}
	for _, fc := range fcs {
		byName[fc.Global] = fc
	}
	out := map[int]string{}
	for i, l := range t.lines {
		if !strings.HasPrefix(l, "@") {
			continue
		}
		name, rest, ok := symbolAt(l[1:])
		fc, listed := byName[name]
		if !ok || !listed || !strings.HasPrefix(rest, " = ") {
			continue
		}
		m := fcInitializer.FindStringSubmatch(l)
		if m == nil {
			return nil, notJudgeable(KindFunctionConstant, fc.Name, "the global of function constant %s is not an externally initialized constant with an undef initializer", fc.Name)
		}
		v, err := fcValue(fc.FunctionConstant, m[2])
		if err != nil {
			return nil, err
		}
		out[i] = m[1] + "constant " + m[2] + " " + v + m[3]
		delete(byName, name)
	}
	for _, fc := range byName {
		return nil, notJudgeable(KindMalformed, "air.function_constants", "function constant %s names global @%s, which the module does not define", fc.Name, fc.Global)
	}
	return out, nil
}

// fcValue writes the constant's value as an LLVM constant of type ty, the
// global's own type: the word truncated to the width of an integer, the
// float itself, or the half it converts to exactly.
func fcValue(fc FunctionConstant, ty string) (string, error) {
	fits := false
	for _, want := range fcLLVMType[fc.Type] {
		fits = fits || want == ty
	}
	if !fits {
		return "", notJudgeable(KindFunctionConstant, fmt.Sprintf("%s %s", fc.Type, fc.Name), "function constant %s of Metal type %s is stored as %s, which the reference does not expect", fc.Name, fc.Type, ty)
	}
	switch ty {
	case "i1":
		if fc.Word == 0 {
			return "false", nil
		}
		return "true", nil
	case "i8":
		return fmt.Sprint(int8(fc.Word)), nil
	case "i16":
		return fmt.Sprint(int16(fc.Word)), nil
	case "i32":
		return fmt.Sprint(int32(fc.Word)), nil
	case "float":
		return fmt.Sprintf("0x%016X", math.Float64bits(float64(math.Float32frombits(fc.Word)))), nil
	}
	h, ok := exactHalf(math.Float32frombits(fc.Word))
	if !ok {
		return "", notJudgeable(KindFunctionConstant, fmt.Sprintf("%s %s", fc.Type, fc.Name), "function constant %s: its value %g is not exact in half", fc.Name, math.Float32frombits(fc.Word))
	}
	return fmt.Sprintf("0xH%04X", h), nil
}

// exactHalf converts a positive normal float32 to IEEE half bits when the
// value is exact in half (the function constants' values are).
func exactHalf(f float32) (uint16, bool) {
	b := math.Float32bits(f)
	exp := int(b>>23&0xff) - 127
	mant := b & 0x7fffff
	if b>>31 != 0 || exp < -14 || exp > 15 || mant&0x1fff != 0 {
		return 0, false
	}
	return uint16(exp+15)<<10 | uint16(mant>>13), true
}

// normalizePredicate defines air.normalize_function_constant_predicate.i8
// (and .i1): AIR passes it a boolean computed from bool function constants
// (the corpus: the negation of one, xor 1 of an i8 0 or 1) and stores the
// result as the bool predicate of a conditional argument, so it is read as
// normalizing a bool to 0 or 1: x != 0. On the 0 and 1 it is given, that is
// the identity. Other forms stay set aside, naming the operation.
func normalizePredicate(d declaration) (string, error) {
	ty := strings.TrimPrefix(d.Name, "air.normalize_function_constant_predicate.")
	if (ty != "i8" && ty != "i1") || d.Ret != ty || len(d.Params) != 1 || d.Params[0] != ty {
		return "", notJudgeable(KindFunctionConstant, d.Name, "%s: a function-constant operation whose meaning the reference does not know", d.Name)
	}
	return fmt.Sprintf("\ndefine internal %[1]s @%[2]q(%[1]s %%x) {\n  %%c = icmp ne %[1]s %%x, 0\n  %%r = zext i1 %%c to %[1]s\n  ret %[1]s %%r\n}\n", ty, d.Name), nil
}
