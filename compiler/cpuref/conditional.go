package cpuref

import (
	"fmt"
	"sort"
	"strings"
)

// Conditional arguments. Metal's [[function_constant(pred)]] on an argument
// (or on a member of a fragment or vertex function's returned struct) makes
// it exist only when pred holds. AIR writes the argument's node with a
// leading key air.function_constant and a predicate node
// !{ptr addrspace(2) @G, !"bool", !"NAME"}: @G is a bool global the module's
// static initializer computes from the function constants
// (staticinit.go evaluates it with the reference's contract values, the
// values the device is specialized with). An argument whose predicate
// holds is read as any argument of its role; one whose predicate is false
// does not exist: the reference passes it nothing (null, or zero for a
// value; an access of it is then an out-of-bounds access or a texture
// operand the reference did not give, set aside), the device binds nothing
// for it, and an output whose predicate is false is not an output.

// invertPredicates makes every evaluated predicate the opposite of its
// value: a planted fault for the tests, which predicateCheck must catch.
var invertPredicates = false

// absentRole is the role an argument or output whose predicate is false is
// given in the module's metadata as the reference reads it.
const absentRole = "airpipe.absent"

// ConditionalArgument is an argument or output of an entry point that exists
// only when a function-constant predicate holds (AIR key air.function_constant).
type ConditionalArgument struct {
	// Name is air.arg_name ("output N" for an output without one).
	Name string
	// Output is set for a member of the returned struct, not a parameter.
	Output bool `json:",omitempty"`
	// Role is its AIR role ("air.texture", "air.buffer", "air.render_target" ...).
	Role string
	// Index is its Metal index (air.location_index; a render target's n), -1 when it has none.
	Index int
	// Predicate is the predicate's Metal name and Global the global holding it.
	Predicate, Global string
	// Holds is the predicate's value after the static initializers ran.
	Holds bool
	// Dim, Kind and Writable describe a texture (Dim "" when the reference
	// could not give it): what the device binds in the place of an absent
	// one (Kernel.Placeholders).
	Dim      string `json:",omitempty"`
	Kind     byte   `json:",omitempty"`
	Writable bool   `json:",omitempty"`
}

// conditionalNode splits an argument node (param is set: the node starts
// with the parameter number) or an output node into the predicate node's
// reference and the node without the air.function_constant key; ok is
// false for a node without it.
func conditionalNode(node []string, param bool) (pred string, plain []string, ok bool) {
	at := 0
	if param {
		at = 1
	}
	if len(node) < at+3 {
		return "", nil, false
	}
	if key, _ := mdString(node[at]); key != "air.function_constant" {
		return "", nil, false
	}
	plain = append(append([]string(nil), node[:at]...), node[at+2:]...)
	return node[at+1], plain, true
}

// resolveConditional evaluates the predicates of entry's conditional
// arguments and outputs (node is its entry-point node) and rewrites their
// metadata nodes in t as the reference reads them: a present one without
// the air.function_constant key, an absent one with role absentRole. Two
// arguments that exist together on one Metal index, one of them
// conditional, are set aside by name, as is a predicate the evaluation
// cannot compute.
func resolveConditional(t *textModule, entry string, node []string) ([]ConditionalArgument, error) {
	if len(node) < 3 {
		return nil, nil
	}
	var si *staticInit
	var params []string
	if fn, err := t.defined(entry); err == nil {
		params = fn.Params
	}
	var out []ConditionalArgument
	for _, l := range entryLists(node) {
		for pos, ref := range t.md[l.ref] {
			param := l.param
			predRef, plain, ok := conditionalNode(t.md[ref], param)
			if !ok {
				continue
			}
			if si == nil {
				si = runStaticInit(t)
			}
			c, err := conditionalOf(t, si, predRef, plain, param, pos, params)
			if err != nil {
				return nil, err
			}
			if c.Holds {
				t.md[ref] = plain
			} else if param {
				t.md[ref] = []string{plain[0], `!"` + absentRole + `"`}
			} else {
				t.md[ref] = []string{`!"` + absentRole + `"`}
			}
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Output != out[j].Output {
			return out[i].Output
		}
		return out[i].Name < out[j].Name
	})
	return out, sharedIndex(t, node, out)
}

// entryLists are an entry-point node's lists: its outputs (node[1]) and
// its parameters (node[2]).
func entryLists(node []string) []struct {
	ref   string
	param bool
} {
	return []struct {
		ref   string
		param bool
	}{{node[1], false}, {node[2], true}}
}

// conditionalOf reads one conditional argument (plain is its node without
// the air.function_constant key) and evaluates its predicate.
func conditionalOf(t *textModule, si *staticInit, predRef string, plain []string, param bool, pos int, params []string) (ConditionalArgument, error) {
	c := ConditionalArgument{Output: !param, Index: -1, Name: keyString(plain, "air.arg_name")}
	keys := plain
	n := -1
	if param {
		if v, ok := mdInt(plain[0]); ok {
			n = int(v)
		}
		keys = plain[1:]
	}
	c.Role, _ = mdString(first(keys))
	if c.Name == "" {
		c.Name = fmt.Sprintf("output %d", pos)
	}
	c.Index = metalIndex(c.Role, keys)
	pred := t.md[predRef]
	g, okG := fcGlobalName(first(pred))
	ty, okT := "", false
	if len(pred) >= 3 {
		ty, okT = mdString(pred[1])
		c.Predicate, _ = mdString(pred[2])
	}
	if !okG || !okT {
		return c, notJudgeable(KindMalformed, "air.function_constant", "the predicate %s of argument %s is not {ptr @global, !\"bool\", !\"name\"}", predRef, c.Name)
	}
	c.Global = g
	if ty != "bool" {
		return c, notJudgeable(KindFunctionConstant, "air.function_constant predicate of type "+ty, "argument %s exists under predicate %s of type %s; Metal's predicates are bool", c.Name, c.Predicate, ty)
	}
	v := si.global(t, g)
	if v.unknown != "" {
		return c, notJudgeable(KindFunctionConstant, "predicate: "+v.unknown, "argument %s exists only when predicate %s holds, and the reference cannot evaluate it: %s", c.Name, c.Predicate, v.unknown)
	}
	c.Holds = (v.v != 0) != invertPredicates
	if c.Role == "air.texture" && n >= 0 && n < len(params) {
		if tx, err := textureOf(keys[1:], params[n], n); err == nil {
			c.Dim, c.Kind, c.Writable = tx.Dim, tx.Kind, tx.Writable()
		}
	}
	return c, nil
}

// metalIndex is the Metal index of an argument or output with the given
// role and keys (the role first): air.location_index's value, a render
// target's n; -1 when it has none.
func metalIndex(role string, keys []string) int {
	if role == "air.render_target" && len(keys) > 1 {
		if v, ok := mdInt(keys[1]); ok {
			return int(v)
		}
	}
	for i := 0; i+1 < len(keys); i++ {
		if s, _ := mdString(keys[i]); s == "air.location_index" {
			if v, ok := mdInt(keys[i+1]); ok {
				return int(v)
			}
		}
	}
	return -1
}

// slotOf names the Metal slot an argument occupies ("texture 0", "write
// texture 0", "buffer 1", "render target 2"), "" for a role without one.
func slotOf(role string, index int, writable bool) string {
	switch role {
	case "air.buffer":
		return fmt.Sprintf("buffer %d", index)
	case "air.texture":
		if writable {
			return fmt.Sprintf("writable texture %d", index)
		}
		return fmt.Sprintf("texture %d", index)
	case "air.sampler":
		return fmt.Sprintf("sampler %d", index)
	case "air.render_target":
		return fmt.Sprintf("render target %d", index)
	}
	return ""
}

// sharedIndex refuses, by name, two arguments that exist together on one
// Metal slot when one of them is conditional (Metal lets arguments share an
// index only under predicates that exclude each other).
func sharedIndex(t *textModule, node []string, cs []ConditionalArgument) error {
	holder := map[string]string{} // slot -> the present argument on it
	conditional := map[string]bool{}
	for _, c := range cs {
		conditional[c.Name] = true
	}
	for _, l := range entryLists(node) {
		for pos, ref := range t.md[l.ref] {
			param := l.param
			keys := t.md[ref]
			if param && len(keys) > 0 {
				keys = keys[1:]
			}
			role, _ := mdString(first(keys))
			if role == absentRole {
				continue
			}
			name := keyString(keys, "air.arg_name")
			if name == "" {
				name = fmt.Sprintf("output %d", pos)
			}
			writable := false
			if role == "air.texture" {
				for _, k := range keys {
					if s, _ := mdString(k); s == "air.write" || s == "air.read_write" {
						writable = true
					}
				}
			}
			slot := slotOf(role, metalIndex(role, keys), writable)
			if slot == "" {
				continue
			}
			if other, taken := holder[slot]; taken && (conditional[other] || conditional[name]) {
				return notJudgeable(KindFunctionConstant, "air.function_constant arguments sharing "+strings.Fields(slot)[0], "arguments %s and %s both exist on %s: their function-constant predicates hold together", other, name, slot)
			}
			holder[slot] = name
		}
	}
	return nil
}

// absentArg writes the IR that makes v, the argument of a parameter that
// does not exist (its predicate is false): null for a pointer, zero
// otherwise.
func absentArg(b *strings.Builder, p Param, v string) {
	switch {
	case p.Type == "ptr":
		fmt.Fprintf(b, "  %s = getelementptr i8, ptr null, i64 0\n", v)
	case strings.HasPrefix(p.Type, "ptr"):
		fmt.Fprintf(b, "  %s = addrspacecast ptr null to %s\n", v, p.Type)
	default:
		fmt.Fprintf(b, "  %s = bitcast %s zeroinitializer to %s\n", v, p.Type, p.Type)
	}
}

// Predicates is the data value "function_constant_predicates": each
// conditional argument with its predicate and whether it held
// ("srcTexture2d: kSourceTextureType2D=false").
func (k *Kernel) Predicates() string {
	var parts []string
	for _, c := range k.Conditional {
		parts = append(parts, fmt.Sprintf("%s: %s=%t", c.Name, c.Predicate, c.Holds))
	}
	return strings.Join(parts, ", ")
}

// Absent reports whether the entry point's argument name, on Metal slot
// role index (a reflection's "air.texture 0"), is a conditional argument
// whose predicate is false: it does not exist, and a binding a translation
// declares for it is bound to nothing of its own.
func (k *Kernel) Absent(metal, name string) bool {
	for _, c := range k.Conditional {
		if !c.Holds && !c.Output && c.Name == name && fmt.Sprintf("%s %d", c.Role, c.Index) == metal {
			return true
		}
	}
	return false
}

// Placeholders are the absent conditional arguments (buffers, textures,
// samplers) on whose slots no present argument lies, one per slot — a
// texture the device can make (Dim set) first. A translation still declares
// their descriptors, which Vulkan requires valid although the shader does
// not access them: the device binds a placeholder of the argument's kind
// there, whose contents are never compared.
func (k *Kernel) Placeholders() []ConditionalArgument {
	taken := map[string]bool{}
	for _, b := range k.Buffers {
		taken[slotOf("air.buffer", b.Index, false)] = true
	}
	for _, tx := range k.Textures {
		taken[slotOf("air.texture", tx.Index, tx.Writable())] = true
	}
	for _, s := range k.Samplers {
		taken[slotOf("air.sampler", s, false)] = true
	}
	var out []ConditionalArgument
	at := map[string]int{}
	for _, c := range k.Conditional {
		slot := slotOf(c.Role, c.Index, c.Writable)
		if c.Holds || c.Output || slot == "" || c.Role == "air.render_target" || taken[slot] {
			continue
		}
		if i, ok := at[slot]; ok {
			if out[i].Dim == "" && c.Dim != "" {
				out[i] = c
			}
			continue
		}
		at[slot] = len(out)
		out = append(out, c)
	}
	return out
}
