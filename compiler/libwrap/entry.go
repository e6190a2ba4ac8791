package libwrap

import (
	"errors"
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
)

// Target is what a row's function is translated as: a module and its entry
// point, and for a library function the wrapper they come from.
type Target struct {
	Module     *air.Module
	EntryPoint air.EntryPoint
	// Wrapped is set for a library function (Module is then its Module).
	Wrapped *Wrapped
}

// NoEntryError is a row's function with no entry point to translate
// (codes.TranslateNoEntryPoint): the metadata cannot be read, or names no
// entry point for it. Detail is "metadata" or the function's name.
type NoEntryError struct {
	Detail string
	Reason string
}

func (e *NoEntryError) Error() string { return e.Reason }

// DataOnlyError is a module that holds data only (DataOnly, CodeDataOnly):
// nothing to translate, neither a failure nor a pass.
type DataOnlyError struct {
	// Detail is DataOnly's: "globals only" or "empty module".
	Detail string
}

func (e *DataOnlyError) Error() string {
	return "the module holds data only (" + e.Detail + ": no function with a body, no entry point): nothing to translate"
}

// EntryFor is what the row's function named name (empty when the row names
// none) of m is translated as. A library function (Find: an air.visible
// function, or, when libraryTyped — the container types the function
// unqualified, visible or extern — one the module defines outside every
// stage's metadata) is the callee of airpipe's wrapper kernel (Wrap); any
// other function is the module's entry point of that name, or the module's
// only entry point when the module defines no function of that name. The
// error is an *Error (a library function the wrapper ABI cannot carry,
// with its Kind), a *DataOnlyError, or a *NoEntryError.
func EntryFor(m *air.Module, name string, libraryTyped bool) (Target, error) {
	fn, kind, isLib, err := Find(m, name)
	if err == nil && isLib && (kind == Visible || libraryTyped) {
		w, err := Wrap(m, fn, kind)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				return Target{}, &NoEntryError{Detail: "metadata", Reason: err.Error()}
			}
			le.Kind = kind
			return Target{}, le
		}
		return Target{Module: w.Module, EntryPoint: w.EntryPoint, Wrapped: w}, nil
	}
	if detail, ok := DataOnly(m); ok {
		return Target{}, &DataOnlyError{Detail: detail}
	}
	eps, err := air.EntryPoints(m)
	if err != nil {
		return Target{}, &NoEntryError{Detail: "metadata", Reason: err.Error()}
	}
	for _, ep := range eps {
		if ep.Function != nil && ep.Function.Name == name {
			return Target{Module: m, EntryPoint: ep}, nil
		}
	}
	// A library may name its function otherwise than the module does; then
	// the module's only entry point is the function. But when the module
	// defines a function of that name which is no entry point (a visible or
	// extern function sharing the module with a kernel), that function is
	// what the row is about, and another's verdict must never stand for it.
	if f := m.Function(name); len(eps) == 1 && (f == nil || f.IsDeclaration()) {
		return Target{Module: m, EntryPoint: eps[0]}, nil
	}
	return Target{}, &NoEntryError{Detail: name, Reason: fmt.Sprintf("the module's metadata names %d entry points and none is %q", len(eps), name)}
}
