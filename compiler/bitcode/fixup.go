package bitcode

import "github.com/airpipe/airpipe/compiler/air"

// resolveForward replaces forward references in a function's instructions
// with the values they name, checking that the types agree.
func (r *reader) resolveForward(fs *fnState) *Error {
	var err *Error
	fix := func(v *air.Value) {
		f, ok := (*v).(*fwdRef)
		if !ok || err != nil {
			return
		}
		if f.id >= uint64(len(r.values)) || r.values[f.id] == nil {
			err = malformed(r.c.r.pos, "FUNCTION_BLOCK", "forward reference to value %d never defined", f.id)
			return
		}
		nv := r.values[f.id]
		if nv.Type().String() != f.typ.String() {
			err = malformed(r.c.r.pos, "FUNCTION_BLOCK", "forward reference to value %d as %s, defined as %s", f.id, f.typ, nv.Type())
			return
		}
		*v = nv
	}
	for _, m := range fs.mdFwd {
		fix(&m.Value)
	}
	for _, in := range fs.insts {
		switch i := in.(type) {
		case *air.BinOp:
			fix(&i.X)
			fix(&i.Y)
		case *air.UnaryOp:
			fix(&i.X)
		case *air.Freeze:
			fix(&i.X)
		case *air.Cast:
			fix(&i.X)
		case *air.Alloca:
			fix(&i.Count)
		case *air.Load:
			fix(&i.Ptr)
		case *air.Store:
			fix(&i.Val)
			fix(&i.Ptr)
		case *air.GEP:
			fix(&i.Base)
			for k := range i.Indices {
				fix(&i.Indices[k])
			}
		case *air.Cmp:
			fix(&i.X)
			fix(&i.Y)
		case *air.Phi:
			for k := range i.Incoming {
				fix(&i.Incoming[k].Value)
			}
		case *air.Select:
			fix(&i.Cond)
			fix(&i.X)
			fix(&i.Y)
		case *air.Call:
			fix(&i.Callee)
			for k := range i.Args {
				fix(&i.Args[k])
			}
			for _, b := range i.Bundles {
				for k := range b.Args {
					fix(&b.Args[k])
				}
			}
		case *air.Ret:
			if i.X != nil {
				fix(&i.X)
			}
		case *air.Br:
			if i.Cond != nil {
				fix(&i.Cond)
			}
		case *air.Switch:
			fix(&i.Cond)
		case *air.ExtractElement:
			fix(&i.Vec)
			fix(&i.Index)
		case *air.InsertElement:
			fix(&i.Vec)
			fix(&i.Elem)
			fix(&i.Index)
		case *air.ShuffleVector:
			fix(&i.X)
			fix(&i.Y)
		case *air.ExtractValue:
			fix(&i.Agg)
		case *air.InsertValue:
			fix(&i.Agg)
			fix(&i.Val)
		case *air.AtomicRMW:
			fix(&i.Ptr)
			fix(&i.Val)
		case *air.CmpXchg:
			fix(&i.Ptr)
			fix(&i.Cmp)
			fix(&i.New)
		}
	}
	return err
}
