package air

import (
	"fmt"
	"strings"
)

// stageNames are the named metadata that list entry points, by stage.
var stageNames = []Stage{Vertex, Fragment, Kernel, Visible, "mesh", "object", "intersection"}

// knownRoles are the first keys of a binding this decoder understands.
var knownRoles = map[string]bool{
	"air.buffer": true, "air.texture": true, "air.sampler": true, "air.position": true,
	"air.render_target": true, "air.vertex_input": true, "air.fragment_input": true, "air.vertex_output": true,
	"air.thread_position_in_grid": true, "air.threads_per_grid": true, "air.thread_position_in_threadgroup": true,
	"air.threadgroup_position_in_grid": true, "air.threads_per_threadgroup": true, "air.threadgroups_per_grid": true,
	"air.thread_index_in_threadgroup": true, "air.thread_index_in_simdgroup": true, "air.simdgroup_index_in_threadgroup": true,
	"air.vertex_id": true, "air.instance_id": true, "air.base_vertex": true, "air.base_instance": true,
	"air.point_size": true, "air.render_target_array_index": true, "air.viewport_array_index": true,
	"air.depth": true, "air.front_facing": true, "air.primitive_id": true, "air.sample_id": true,
	"air.sample_mask": true, "air.point_coord": true, "air.clip_distance": true, "air.threadgroup": true,
}

// knownModifiers are the keys after the role this decoder understands.
var knownModifiers = map[string]bool{
	"air.location_index": true, "air.address_space": true, "air.read": true, "air.write": true,
	"air.read_write": true, "air.sample": true, "air.arg_type_name": true, "air.arg_name": true,
	"air.arg_type_size": true, "air.arg_type_align_size": true, "air.buffer_size": true,
	"air.struct_type_info": true, "air.center": true, "air.centroid": true, "air.perspective": true,
	"air.no_perspective": true, "air.flat": true, "air.depth_qualifier": true, "air.any": true,
	"air.greater": true, "air.less": true, "air.arg_unused": true,
}

// singleString are keys whose one value is a string even when it looks like a key.
var singleString = map[string]bool{"air.arg_type_name": true, "air.arg_name": true}

// EntryPoints decodes the module's entry points from its stage named
// metadata (!air.vertex, !air.fragment, !air.kernel, !air.visible, ...).
func EntryPoints(m *Module) ([]EntryPoint, error) {
	var eps []EntryPoint
	for _, st := range stageNames {
		nm := m.NamedMetadata("air." + string(st))
		if nm == nil {
			continue
		}
		for i, n := range nm.Nodes {
			node, ok := n.(*MDNode)
			if !ok || len(node.Ops) < 2 {
				return nil, fmt.Errorf("!air.%s operand %d: not an entry-point node", st, i)
			}
			ep, err := decodeEntry(st, node)
			if err != nil {
				return nil, fmt.Errorf("!air.%s operand %d: %w", st, i, err)
			}
			eps = append(eps, ep)
		}
	}
	return eps, nil
}

func decodeEntry(st Stage, node *MDNode) (EntryPoint, error) {
	ep := EntryPoint{Stage: st}
	v, ok := node.Ops[0].(*MDValue)
	if !ok {
		return ep, fmt.Errorf("first operand is not a function")
	}
	f, ok := v.Value.(*Function)
	if !ok {
		return ep, fmt.Errorf("first operand is not a function")
	}
	ep.Function = f
	outs, ins := node.Ops[1], Metadata(nil)
	rest := node.Ops[2:]
	if len(node.Ops) >= 3 {
		ins = node.Ops[2]
		rest = node.Ops[3:]
	} else {
		outs, ins = nil, node.Ops[1] // older kernels: !{fn, inputs}
	}
	if outs != nil {
		on, ok := outs.(*MDNode)
		if !ok {
			return ep, fmt.Errorf("outputs are not a node")
		}
		for k, o := range on.Ops {
			b, err := decodeBinding(o, false)
			if err != nil {
				return ep, fmt.Errorf("output %d: %w", k, err)
			}
			b.Param = k
			ep.Outputs = append(ep.Outputs, b)
		}
	}
	if ins != nil {
		in, ok := ins.(*MDNode)
		if !ok {
			return ep, fmt.Errorf("inputs are not a node")
		}
		for k, o := range in.Ops {
			b, err := decodeBinding(o, true)
			if err != nil {
				return ep, fmt.Errorf("input %d: %w", k, err)
			}
			if b.Param >= 0 && b.Param < len(f.Sig.Params) {
				b.Type = f.Sig.Params[b.Param]
			} else {
				return ep, fmt.Errorf("input %d: parameter %d out of range", k, b.Param)
			}
			ep.Inputs = append(ep.Inputs, b)
		}
	}
	ep.Extra = rest
	return ep, nil
}

func decodeBinding(md Metadata, input bool) (Binding, error) {
	b := Binding{Location: -1, LocationCount: -1, AddrSpace: -1, ArgTypeSize: -1, ArgTypeAlign: -1, BufferSize: -1, Param: -1}
	n, ok := md.(*MDNode)
	if !ok {
		return b, fmt.Errorf("not a node")
	}
	ops := n.Ops
	if input {
		p, ok := IntOp(n, 0)
		if !ok {
			return b, fmt.Errorf("no parameter number")
		}
		b.Param = int(p)
		ops = ops[1:]
	}
	b.Keys = splitKeys(ops)
	first := 0
	if len(b.Keys) > 1 && b.Keys[0].Name == "air.function_constant" {
		b.FunctionConstant = b.Keys[0].Values
		first = 1
	}
	for i, k := range b.Keys {
		if i < first {
			continue
		}
		if i == first {
			b.Role = k.Name
			if !knownRoles[k.Name] {
				b.Unknown = append(b.Unknown, k.Name)
			}
			if k.Name == "air.render_target" {
				b.Location, b.LocationCount = intVal(k.Values, 0), intVal(k.Values, 1)
			}
			continue
		}
		if !knownModifiers[k.Name] {
			b.Unknown = append(b.Unknown, k.Name)
		}
		switch k.Name {
		case "air.location_index":
			b.Location, b.LocationCount = intVal(k.Values, 0), intVal(k.Values, 1)
		case "air.address_space":
			b.AddrSpace = intVal(k.Values, 0)
		case "air.read", "air.write", "air.read_write", "air.sample":
			b.Access = strings.TrimPrefix(k.Name, "air.")
		case "air.arg_type_name":
			b.ArgTypeName = strVal(k.Values)
		case "air.arg_name":
			b.ArgName = strVal(k.Values)
		case "air.arg_type_size":
			b.ArgTypeSize = int64(intVal(k.Values, 0))
		case "air.arg_type_align_size":
			b.ArgTypeAlign = int64(intVal(k.Values, 0))
		case "air.buffer_size":
			b.BufferSize = int64(intVal(k.Values, 0))
		case "air.struct_type_info":
			if len(k.Values) == 1 {
				if sn, ok := k.Values[0].(*MDNode); ok {
					b.Struct = decodeStruct(sn)
				}
			}
		}
	}
	return b, nil
}

// splitKeys groups a flat operand list into keys (strings starting with
// "air.") and the values after each.
func splitKeys(ops []Metadata) []Key {
	var keys []Key
	for i := 0; i < len(ops); i++ {
		s, isStr := ops[i].(*MDString)
		if isStr && strings.HasPrefix(s.Value, "air.") || len(keys) == 0 {
			name := ""
			if isStr {
				name = s.Value
			}
			keys = append(keys, Key{Name: name})
			if isStr && singleString[s.Value] && i+1 < len(ops) {
				keys[len(keys)-1].Values = []Metadata{ops[i+1]}
				i++
			}
			if !isStr {
				keys[len(keys)-1].Values = append(keys[len(keys)-1].Values, ops[i])
			}
			continue
		}
		keys[len(keys)-1].Values = append(keys[len(keys)-1].Values, ops[i])
	}
	return keys
}

func intVal(vs []Metadata, i int) int {
	if i >= len(vs) {
		return -1
	}
	if v, ok := vs[i].(*MDValue); ok {
		if c, ok := v.Value.(*ConstInt); ok {
			return int(c.Int64())
		}
	}
	return -1
}

func strVal(vs []Metadata) string {
	if len(vs) > 0 {
		if s, ok := vs[0].(*MDString); ok {
			return s.Value
		}
	}
	return ""
}

// decodeStruct reads air.struct_type_info: groups of offset, size, count,
// type name, field name, each optionally followed by more operands.
func decodeStruct(n *MDNode) []StructField {
	var out []StructField
	ops := n.Ops
	for len(ops) >= 5 {
		tmp := &MDNode{Ops: ops}
		off, ok1 := IntOp(tmp, 0)
		size, ok2 := IntOp(tmp, 1)
		cnt, ok3 := IntOp(tmp, 2)
		tn, ok4 := StringOp(tmp, 3)
		fn, ok5 := StringOp(tmp, 4)
		if !(ok1 && ok2 && ok3 && ok4 && ok5) {
			break
		}
		f := StructField{Offset: off, Size: size, Count: cnt, TypeName: tn, Name: fn}
		ops = ops[5:]
		for len(ops) > 0 {
			if _, isInt := ops[0].(*MDValue); isInt {
				break
			}
			f.Extra = append(f.Extra, ops[0])
			ops = ops[1:]
		}
		out = append(out, f)
	}
	return out
}
