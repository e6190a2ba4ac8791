package translate

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// Texture and sampler objects passed by value. MSL's texture and sampler
// types are classes holding one handle, and AIR spells them as structs of
// one pointer: %"struct.metal::texture2d" = type { ptr addrspace(1) },
// %"struct.metal::sampler" = type { ptr addrspace(2) }. A helper function
// that takes a texture by value (`float4 f(texture2d<float> t)`, not
// inlined) receives that struct: the caller builds it with insertvalue of
// its texture argument, the callee takes the handle back with extractvalue
// and calls the texture function on it.
//
// Such an aggregate has no bits in this translation: like a resource, it is
// kept at translation time as an **object**, each field the resource (or
// pointer of constant root and offset) inserted there, and a callee taking
// objects is specialised per call site on the resources they hold (calls.go),
// as for a texture parameter. An aggregate qualifies when every leaf of its
// type is a pointer (objectType). Refused by name: an extractvalue of a field
// nothing was inserted into (`field of a texture object never set`), a
// computed pointer in a field (`texture object holding a computed pointer`),
// and a constant aggregate of such a type other than undef, poison or
// zeroinitializer's undefined fields (reading one is `field of a texture
// object never set`); an object made by any other instruction (`texture
// object from select`, `… from load`, `… from call`), a store of one
// (`store of a texture object`), and its use as a plain value (a return, an
// intrinsic's operand: `texture object used as a value`). A phi of objects is
// refused by its type (`pointer in { ptr addrspace(1) }`).

// object is one aggregate of resources and pointers, by field index.
type object struct {
	ty     air.Type
	fields []objField
}

// objField is one field of an object: a resource, a pointer, a nested
// object, or nothing (set is false).
type objField struct {
	set bool
	res *resource
	ptr pointer
	sub *object
}

// objectType reports whether ty is an aggregate every leaf of which is a
// pointer (a texture, sampler or buffer handle), and returns its field count.
func objectType(ty air.Type) (int, bool) {
	switch ty := ty.(type) {
	case *air.StructType:
		if ty.Opaque || len(ty.Fields) == 0 {
			return 0, false
		}
		for _, f := range ty.Fields {
			if !objectLeaf(f) {
				return 0, false
			}
		}
		return len(ty.Fields), true
	case *air.ArrayType:
		if ty.Len == 0 || ty.Len > 128 || !objectLeaf(ty.Elem) {
			return 0, false
		}
		return int(ty.Len), true
	}
	return 0, false
}

func objectLeaf(ty air.Type) bool {
	if isPointer(ty) {
		return true
	}
	_, ok := objectType(ty)
	return ok
}

// fieldType is the type of field i of aggregate type ty.
func fieldType(ty air.Type, i int) air.Type {
	switch ty := ty.(type) {
	case *air.StructType:
		return ty.Fields[i]
	case *air.ArrayType:
		return ty.Elem
	}
	return nil
}

func newObject(ty air.Type) *object {
	n, _ := objectType(ty)
	return &object{ty: ty, fields: make([]objField, n)}
}

// clone copies o deeply enough that setting a field of the copy leaves o.
func (o *object) clone() *object {
	c := &object{ty: o.ty, fields: append([]objField(nil), o.fields...)}
	return c
}

// key names o's contents for a callee specialisation.
func (o *object) key(b *strings.Builder) {
	b.WriteByte('{')
	for _, f := range o.fields {
		switch {
		case !f.set:
			b.WriteString("_")
		case f.res != nil:
			fmt.Fprintf(b, "r%p", f.res)
		case f.sub != nil:
			f.sub.key(b)
		default:
			fmt.Fprintf(b, "p%p@%d", f.ptr.root, f.ptr.cst)
		}
		b.WriteByte(',')
	}
	b.WriteByte('}')
}

// object returns the object v denotes, or nil when v's type is not an
// object type. A constant undef, poison or zeroinitializer is an object with
// no field set.
func (t *translator) object(v air.Value) *object {
	if _, ok := objectType(v.Type()); !ok {
		return nil
	}
	if o, ok := t.objs[v]; ok {
		return o
	}
	switch a := v.(type) {
	case *air.ConstUndef, *air.ConstPoison, *air.ConstZero:
		return newObject(v.Type())
	case *air.Argument:
		if t.refusedArgs[a] {
			return newObject(v.Type())
		}
	}
	return nil
}

// objectInst lowers an insertvalue into, or an extractvalue from, an object;
// false when in is neither.
func (t *translator) objectInst(in air.Instruction) bool {
	switch in := in.(type) {
	case *air.InsertValue:
		if _, ok := objectType(in.Type()); !ok {
			return false
		}
		base := t.object(in.Agg)
		if base == nil {
			t.miss.addf(CodeUnhandledInstruction, "texture object from %s", describe(in.Agg))
			base = newObject(in.Type())
		}
		t.setObject(in, t.insertField(base, in.Indices, in.Val))
		return true
	case *air.ExtractValue:
		if _, ok := objectType(in.Agg.Type()); !ok {
			return false
		}
		o := t.object(in.Agg)
		if o == nil {
			t.miss.addf(CodeUnhandledInstruction, "texture object from %s", describe(in.Agg))
			return true
		}
		for k, idx := range in.Indices {
			if int(idx) >= len(o.fields) {
				t.miss.add(CodeUnhandledInstruction, "extractvalue index outside its texture object")
				return true
			}
			f := o.fields[idx]
			if !f.set {
				t.miss.add(CodeUnhandledInstruction, "field of a texture object never set")
				return true
			}
			if k < len(in.Indices)-1 {
				if f.sub == nil {
					t.miss.add(CodeUnhandledInstruction, "extractvalue index outside its texture object")
					return true
				}
				o = f.sub
				continue
			}
			switch {
			case f.res != nil:
				t.res[in] = f.res
			case f.sub != nil:
				t.setObject(in, f.sub)
			default:
				t.ptrs[in] = f.ptr
			}
		}
		return true
	case *air.Store:
		if _, ok := objectType(in.Val.Type()); ok {
			t.miss.add(CodeUnhandledInstruction, "store of a texture object")
			return true
		}
		return false
	}
	if !air.HasResult(in) {
		return false
	}
	if _, ok := objectType(in.Type()); !ok {
		return false
	}
	// A select, load, freeze or call making one: its fields are not static.
	t.miss.addf(CodeUnhandledInstruction, "texture object from %s", in.Opcode())
	t.setObject(in, newObject(in.Type()))
	return true
}

// setObject records v's object; the entry function's map is made on first use.
func (t *translator) setObject(v air.Value, o *object) {
	if t.objs == nil {
		t.objs = map[air.Value]*object{}
	}
	t.objs[v] = o
}

// insertField returns a copy of o with the field at path set to v.
func (t *translator) insertField(o *object, path []uint32, v air.Value) *object {
	c := o.clone()
	if len(path) == 0 || int(path[0]) >= len(c.fields) {
		t.miss.add(CodeUnhandledInstruction, "insertvalue index outside its texture object")
		return c
	}
	i := int(path[0])
	if len(path) > 1 {
		sub := c.fields[i].sub
		if sub == nil {
			sub = newObject(fieldType(c.ty, i))
		}
		c.fields[i] = objField{set: true, sub: t.insertField(sub, path[1:], v)}
		return c
	}
	if sub := t.object(v); sub != nil {
		c.fields[i] = objField{set: true, sub: sub}
		return c
	}
	if _, ok := objectType(v.Type()); ok {
		t.miss.addf(CodeUnhandledInstruction, "texture object from %s", describe(v))
		return c
	}
	if r := t.resource(v); r != nil {
		c.fields[i] = objField{set: true, res: r}
		return c
	}
	if a, ok := v.(*air.Argument); ok && t.refusedArgs[a] {
		return c // its binding's refusal names the gap
	}
	switch v.(type) {
	case *air.ConstUndef, *air.ConstPoison:
		return c // the field stays unset: reading it is refused
	}
	p := t.ptr(v)
	if p.root == nil {
		return c // refused where the pointer was made
	}
	if p.dyn != 0 {
		t.miss.add(CodeUnhandledInstruction, "texture object holding a computed pointer")
		return c
	}
	c.fields[i] = objField{set: true, ptr: p}
	return c
}

// describe names the kind of a value for a refusal.
func describe(v air.Value) string {
	switch v := v.(type) {
	case air.Instruction:
		return v.Opcode().String()
	case *air.Argument:
		return "parameter"
	case air.Constant:
		return "constant"
	}
	return fmt.Sprintf("%T", v)
}
