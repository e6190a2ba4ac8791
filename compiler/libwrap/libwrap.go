package libwrap

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/internal/codes"
)

// Entry is the name of the kernel the wrapper adds to the module.
const Entry = "airpipe.wrap"

// ABIVersion changes whenever the wrapper's layout or bindings change
// (README.md is the ABI).
const ABIVersion = "2"

// The wrapper's buffers (Metal air.buffer indices, and so Vulkan bindings).
const (
	// ParamBuffer holds one parameter record per thread.
	ParamBuffer = 0
	// ResultBuffer holds one result record per thread.
	ResultBuffer = 1
	// FirstPointerBuffer is the buffer of the first device or constant
	// pointer parameter; the k-th such parameter has FirstPointerBuffer+k.
	FirstPointerBuffer = 2
	// PointerStride is the bytes of a pointer buffer given to each thread:
	// thread t receives the buffer's address plus t×PointerStride.
	PointerStride = 1024
	// MaxPointerBuffers bounds the pointer parameters (Metal has 31 buffer
	// indices; 0 and 1 are the records').
	MaxPointerBuffers = 29
)

// CodeInterface is the code of a library function whose parameter or
// result the wrapper ABI does not carry; the detail names it ("texture
// handle %struct._texture_2d_t", "threadgroup pointer", "result ptr").
const CodeInterface = codes.TranslateLibraryInterface

// CodeNotFound is the code of a row whose library function the module does
// not define.
const CodeNotFound = codes.TranslateLibraryNotFound

// Kind says how a module declares a library function.
type Kind string

// The kinds of library function.
const (
	// Visible is a function listed in !air.visible (stitchable).
	Visible Kind = "visible"
	// Extern is a function the module defines with external linkage and
	// lists in no stage's metadata (Core Image kernels compiled with
	// -fcikernel, unqualified functions).
	Extern Kind = "extern"
)

// Error is a library function the wrapper refuses, with its code and detail.
type Error struct {
	Function string
	Code     codes.Code
	Detail   string
	Reason   string
	// Kind is how the module declares the function (set by EntryFor).
	Kind Kind
}

func (e *Error) Error() string {
	return fmt.Sprintf("library function @%s: %s (%s)", e.Function, e.Reason, e.Detail)
}

// Slot is where one value lives in the ABI's records or buffers.
type Slot struct {
	// Param is the library function's parameter number (-1 for the result).
	Param int `json:"param"`
	// Type is the value's LLVM type.
	Type string `json:"type"`
	// Role is "value" (in the parameter record), "device-pointer" (its own
	// buffer), "thread-pointer" (an alloca the wrapper fills from the
	// parameter record and copies back to the result record), "texture" or
	// "sampler" (an argument of the wrapper's own) or "result".
	Role string `json:"role"`
	// Offset is the byte offset in the record (records), 0 for buffers.
	Offset uint64 `json:"offset"`
	// OutOffset is a thread pointer's offset in the result record.
	OutOffset uint64 `json:"out_offset,omitempty"`
	// Size is the bytes the value takes (its alloc size).
	Size uint64 `json:"size"`
	// Buffer is the Metal buffer index of a device pointer, the texture
	// or sampler index of a handle (handles.go), else -1.
	Buffer int `json:"buffer"`
}

// Layout is the ABI of one wrapped function: its records' strides and
// where each value sits.
type Layout struct {
	// ParamStride and ResultStride are the bytes between consecutive
	// threads' records (each a multiple of 4 and of the record's alignment).
	ParamStride, ResultStride uint64
	// ParamAlign and ResultAlign are the records' alignments.
	ParamAlign, ResultAlign uint64
	// Slots are the parameters, in order, then the result (when not void).
	Slots []Slot
}

// Wrapped is a module with the wrapper kernel added.
type Wrapped struct {
	// Module is the original module's contents plus the wrapper function
	// and its !air.kernel node; the original module is not changed.
	Module *air.Module
	// EntryPoint is the wrapper's entry point, as air.EntryPoints decodes it.
	EntryPoint air.EntryPoint
	// Function is the wrapped library function (shared with the original).
	Function *air.Function
	// Kind is how the module declares it.
	Kind Kind
	// Layout is the records' layout.
	Layout Layout
}

// Find returns the library function a row named name stands for: the
// function of that name when the module lists it in !air.visible or
// defines it with external linkage outside every stage's metadata; else,
// when the module defines no function of that name, its only visible
// function. ok is false when name is no library function of the module
// (an entry point, or nothing the module defines); err is set when the
// module's metadata cannot be read.
func Find(m *air.Module, name string) (*air.Function, Kind, bool, error) {
	eps, err := air.EntryPoints(m)
	if err != nil {
		return nil, "", false, err
	}
	var visible []*air.Function
	staged := map[*air.Function]bool{}
	for _, ep := range eps {
		if ep.Function == nil {
			continue
		}
		staged[ep.Function] = true
		if ep.Stage == air.Visible {
			visible = append(visible, ep.Function)
		}
	}
	f := m.Function(name)
	if f != nil && !f.IsDeclaration() {
		for _, v := range visible {
			if v == f {
				return f, Visible, true, nil
			}
		}
		if staged[f] || f.Linkage == air.Internal || f.Linkage == air.Private {
			return nil, "", false, nil
		}
		return f, Extern, true, nil
	}
	if f == nil && len(visible) == 1 && len(eps) == 1 && !visible[0].IsDeclaration() {
		return visible[0], Visible, true, nil
	}
	return nil, "", false, nil
}

// Wrap builds the wrapper of library function fn of module m (README.md is
// the ABI): a new module holding m's globals, functions and metadata and,
// added, kernel Entry whose thread t loads fn's parameters from record t of
// ParamBuffer, calls fn, and stores its result into record t of
// ResultBuffer. m itself is not modified (it may be shared with other
// rows). A parameter or result the ABI does not carry is an *Error.
func Wrap(m *air.Module, fn *air.Function, kind Kind) (*Wrapped, error) {
	refuse := func(detail, format string, args ...any) error {
		return &Error{Function: fn.Name, Code: CodeInterface, Detail: detail, Reason: fmt.Sprintf(format, args...)}
	}
	if m.Function(Entry) != nil {
		return nil, refuse("name "+Entry, "the module already defines @%s", Entry)
	}
	if fn.IsDeclaration() {
		return nil, &Error{Function: fn.Name, Code: CodeNotFound, Detail: fn.Name, Reason: "the function has no body"}
	}
	if fn.Sig.VarArg {
		return nil, refuse("variadic", "a variadic function")
	}
	if err := refuseByMetadata(m, fn, refuse); err != nil {
		return nil, err
	}
	lay, err := layout(fn, refuse)
	if err != nil {
		return nil, err
	}
	w := &Wrapped{Function: fn, Kind: kind, Layout: lay}
	w.Module, w.EntryPoint = build(m, fn, lay)
	return w, nil
}

// refuseByMetadata refuses the parameters an air.visible node describes as
// textures, samplers or Core Image objects (by their Metal type name),
// which the ABI gives no harness value — except a texture2d or sampler
// parameter the function uses as such a handle (handles.go).
func refuseByMetadata(m *air.Module, fn *air.Function, refuse func(string, string, ...any) error) error {
	eps, err := air.EntryPoints(m)
	if err != nil {
		return err
	}
	for _, ep := range eps {
		if ep.Function != fn {
			continue
		}
		for _, in := range ep.Inputs {
			n := in.ArgTypeName
			if metadataHandle(fn, in.Param, n) {
				continue // a 2D texture or sampler the wrapper gives (handles.go)
			}
			if strings.Contains(n, "texture") || strings.Contains(n, "sampler") || strings.HasPrefix(n, "coreimage::") {
				return refuse("parameter type "+n, "parameter %d is a %s, which the wrapper ABI gives no value", in.Param, n)
			}
		}
	}
	return nil
}

// layout places fn's parameters and result in the ABI's records.
func layout(fn *air.Function, refuse func(string, string, ...any) error) (Layout, error) {
	var lay Layout
	var in, out uint64
	lay.ParamAlign, lay.ResultAlign = 4, 4
	place := func(off *uint64, align *uint64, t air.Type) (uint64, uint64, error) {
		s, err := allocSize(t)
		if err != nil {
			return 0, 0, err
		}
		a, err := alignOf(t)
		if err != nil {
			return 0, 0, err
		}
		o := air.RoundUp(*off, a)
		*off = o + s
		*align = max(*align, a)
		return o, s, nil
	}
	var result *Slot
	if _, void := fn.Sig.Ret.(*air.VoidType); !void {
		if err := valueType(fn.Sig.Ret); err != nil {
			return lay, refuse("result "+fn.Sig.Ret.String(), "the result's type %s: %v", fn.Sig.Ret, err)
		}
		o, s, err := place(&out, &lay.ResultAlign, fn.Sig.Ret)
		if err != nil {
			return lay, refuse("result "+fn.Sig.Ret.String(), "no layout for the result's type: %v", err)
		}
		result = &Slot{Param: -1, Type: fn.Sig.Ret.String(), Role: "result", Offset: o, Size: s, Buffer: -1}
	}
	pointers, textures, samplers := 0, 0, 0
	for i, t := range fn.Sig.Params {
		slot := Slot{Param: i, Type: t.String(), Role: "value", Buffer: -1}
		if p, ok := t.(*air.PointerType); ok {
			if h := handleOf(fn, fn.Args[i]); h.role != "" || h.refused != "" {
				// A texture or sampler handle (handles.go).
				s, err := handleSlot(i, p, h, &textures, &samplers, refuse)
				if err != nil {
					return lay, err
				}
				lay.Slots = append(lay.Slots, s)
				continue
			}
			elem := pointee(fn, i, p)
			if st, ok := elem.(*air.StructType); ok && st.Opaque {
				return lay, refuse("handle "+st.String(), "parameter %d points to the opaque %s (a texture, sampler or other handle), which the wrapper ABI gives no value", i, st)
			}
			switch p.AddrSpace {
			case 1, 2:
				if pointers == MaxPointerBuffers {
					return lay, refuse("pointer parameters", "more than %d pointer parameters", MaxPointerBuffers)
				}
				slot.Role, slot.Buffer, slot.Size = "device-pointer", FirstPointerBuffer+pointers, PointerStride
				pointers++
			case 0:
				if elem == nil {
					return lay, refuse("thread pointer of unknown pointee", "parameter %d is a thread pointer whose pointee type the module does not state", i)
				}
				if err := valueType(elem); err != nil {
					return lay, refuse("thread pointer to "+elem.String(), "parameter %d points to %s: %v", i, elem, err)
				}
				o, s, err := place(&in, &lay.ParamAlign, elem)
				if err != nil {
					return lay, refuse("thread pointer to "+elem.String(), "no layout for %s: %v", elem, err)
				}
				oo, _, _ := place(&out, &lay.ResultAlign, elem)
				slot.Role, slot.Offset, slot.OutOffset, slot.Size, slot.Type = "thread-pointer", o, oo, s, elem.String()
			case 3:
				return lay, refuse("threadgroup pointer", "parameter %d points to threadgroup memory, which the wrapper ABI does not share between threads", i)
			default:
				return lay, refuse(fmt.Sprintf("pointer in address space %d", p.AddrSpace), "parameter %d is a pointer in address space %d", i, p.AddrSpace)
			}
			lay.Slots = append(lay.Slots, slot)
			continue
		}
		if err := valueType(t); err != nil {
			return lay, refuse("parameter "+t.String(), "parameter %d's type %s: %v", i, t, err)
		}
		o, s, err := place(&in, &lay.ParamAlign, t)
		if err != nil {
			return lay, refuse("parameter "+t.String(), "no layout for parameter %d's type: %v", i, err)
		}
		slot.Offset, slot.Size = o, s
		lay.Slots = append(lay.Slots, slot)
	}
	if result != nil {
		lay.Slots = append(lay.Slots, *result)
	}
	lay.ParamStride = air.RoundUp(max(in, 4), lay.ParamAlign)
	lay.ResultStride = air.RoundUp(max(out, 4), lay.ResultAlign)
	return lay, nil
}

// pointee is the type a pointer parameter points to: its byval, sret or
// elementtype attribute's type, else the typed pointer's element type
// (nil when the module says neither).
func pointee(fn *air.Function, i int, p *air.PointerType) air.Type {
	for _, a := range fn.Attrs.Param(i) {
		if a.Type != nil && (a.Kind == "byval" || a.Kind == "sret" || a.Kind == "elementtype" || a.Kind == "byref") {
			return a.Type
		}
	}
	return p.Elem
}

// valueType checks that t is a value the records carry: integers up to 64
// bits, floats, vectors of them, and arrays and structs of those.
func valueType(t air.Type) error {
	switch t := t.(type) {
	case *air.IntType:
		if t.Bits > 64 {
			return fmt.Errorf("integers wider than 64 bits are not carried")
		}
		return nil
	case *air.FloatType:
		switch t.Kind {
		case air.Half, air.BFloat, air.Float, air.Double:
			return nil
		}
	case *air.VectorType:
		if it, ok := t.Elem.(*air.IntType); ok && it.Bits == 1 {
			return fmt.Errorf("vectors of i1 are not carried")
		}
		if t.Scalable {
			break
		}
		return valueType(t.Elem)
	case *air.ArrayType:
		return valueType(t.Elem)
	case *air.StructType:
		if t.Opaque {
			return fmt.Errorf("opaque struct")
		}
		for _, f := range t.Fields {
			if it, ok := f.(*air.IntType); ok && it.Bits == 1 {
				return fmt.Errorf("an i1 field is not carried")
			}
			if err := valueType(f); err != nil {
				return err
			}
		}
		return nil
	case *air.PointerType:
		return fmt.Errorf("pointers are not carried in records")
	}
	return fmt.Errorf("%s is not carried", t)
}
