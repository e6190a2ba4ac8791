package cpuref

// Member is one field of a buffer's struct element type, as AIR's
// air.struct_type_info lists it: its byte offset and size in the element,
// and its Metal type name ("float", "half2", "int", another struct's name).
type Member struct {
	Offset, Size int
	TypeName     string
}

// attachMembers fills in, for each buffer whose element is a struct, its
// element size (air.arg_type_size) and the members air.struct_type_info
// lists (groups of offset, size, count, type name, member name). A list of
// another shape leaves Members empty: the buffer's words are then compared
// bit for bit. Metal's atomic<T> is such a struct (metal::_atomic, one
// member __s of type T), so an atomic_float buffer compares as floats.
func attachMembers(t *textModule, k *Kernel, node []string) {
	if len(node) < 3 {
		return
	}
	for _, ref := range t.md[node[2]] {
		arg := t.md[ref]
		if len(arg) < 2 {
			continue
		}
		if role, _ := mdString(arg[1]); role != "air.buffer" {
			continue
		}
		index, size, info := -1, 0, ""
		for i := 2; i+1 < len(arg); i++ {
			switch key, _ := mdString(arg[i]); key {
			case "air.location_index":
				if v, ok := mdInt(arg[i+1]); ok {
					index = int(v)
				}
			case "air.arg_type_size":
				if v, ok := mdInt(arg[i+1]); ok {
					size = int(v)
				}
			case "air.struct_type_info":
				info = arg[i+1]
			}
		}
		members, ok := parseMembers(t.md[info], size)
		if info == "" || !ok {
			continue
		}
		for i := range k.Buffers {
			if k.Buffers[i].Index == index {
				k.Buffers[i].ElementSize, k.Buffers[i].Members = size, members
			}
		}
	}
}

// parseMembers reads struct_type_info's groups of five, each member inside
// an element of size bytes.
func parseMembers(info []string, size int) ([]Member, bool) {
	if len(info) == 0 || len(info)%5 != 0 || size <= 0 {
		return nil, false
	}
	var out []Member
	for i := 0; i < len(info); i += 5 {
		off, ok1 := mdInt(info[i])
		sz, ok2 := mdInt(info[i+1])
		name, ok3 := mdString(info[i+3])
		if !ok1 || !ok2 || !ok3 || off < 0 || sz <= 0 || int(off+sz) > size {
			return nil, false
		}
		out = append(out, Member{Offset: int(off), Size: int(sz), TypeName: name})
	}
	return out, true
}
