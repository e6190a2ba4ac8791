package bitcode

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
)

// ty is a type as LLVM 19 prints it (typed pointers as ptr; unnamed
// identified structs by the printer's numbering).
func (p *printer) ty(t air.Type) string {
	if s, ok := p.typeStr[t]; ok {
		return s
	}
	var s string
	switch t := t.(type) {
	case *air.StructType:
		if !t.Literal {
			if t.Name != "" {
				s = "%" + air.QuoteName(t.Name)
			} else if n, ok := p.structNo[t]; ok {
				s = "%" + strconv.Itoa(n)
			} else {
				s = "%<unnumbered>"
			}
			break
		}
		s = p.body(t)
	case *air.VectorType:
		s = "<" + strconv.Itoa(t.Len) + " x " + p.ty(t.Elem) + ">"
		if t.Scalable {
			s = "<vscale x " + s[1:]
		}
	case *air.ArrayType:
		s = "[" + strconv.FormatUint(t.Len, 10) + " x " + p.ty(t.Elem) + "]"
	case *air.FunctionType:
		var b strings.Builder
		b.WriteString(p.ty(t.Ret))
		b.WriteString(" (")
		for i, x := range t.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.ty(x))
		}
		if t.VarArg {
			if len(t.Params) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("...")
		}
		b.WriteByte(')')
		s = b.String()
	default:
		s = t.String()
	}
	p.typeStr[t] = s
	return s
}

func (p *printer) body(t *air.StructType) string { return t.BodyWith(p.ty) }

func (p *printer) structBody(t *air.StructType) { p.s(p.body(t)) }

// sameType reports whether two types print the same (LLVM 19 has one ptr per address space).
func (p *printer) sameType(a, b air.Type) bool {
	if a == b {
		return true
	}
	return p.ty(a) == p.ty(b)
}

// typedValue prints "type value".
func (p *printer) typedValue(v air.Value) {
	p.s(p.ty(v.Type()))
	p.b(' ')
	p.valueRef(v)
}

// valueRef prints a value as an operand (without its type).
func (p *printer) valueRef(v air.Value) {
	switch x := v.(type) {
	case *air.GlobalVariable:
		p.globalName(x.Name, v)
	case *air.Function:
		p.globalName(x.Name, v)
	case *air.Argument:
		p.localName(x.Name, v)
	case *air.Block:
		p.localName(x.Name, v)
	case air.Instruction:
		p.localName(x.Common().Name, v)
	case *air.MetadataValue:
		p.mdOperandInline(x.MD)
	case air.Constant:
		p.constant(x)
	case *fwdRef:
		p.s("<badref>")
	default:
		p.s("<badref>")
	}
}

func (p *printer) globalName(name string, v air.Value) {
	p.b('@')
	if name == "" {
		p.i(p.global[v])
		return
	}
	p.s(air.QuoteName(name))
}

func (p *printer) localName(name string, v air.Value) {
	p.b('%')
	if name == "" {
		if n, ok := p.local[v]; ok {
			p.i(n)
		} else {
			p.s("<badref>")
		}
		return
	}
	p.s(air.QuoteName(name))
}

func (p *printer) constant(c air.Constant) {
	switch c := c.(type) {
	case *air.GlobalVariable, *air.Function:
		p.valueRef(c)
	case *air.ConstInt:
		if c.Typ.Bits == 1 {
			if c.Bits&1 != 0 {
				p.s("true")
			} else {
				p.s("false")
			}
			return
		}
		if c.Wide != nil {
			p.s(wideDecimal(c.Wide, c.Typ.Bits))
			return
		}
		p.buf = strconv.AppendInt(p.buf, c.Int64(), 10)
	case *air.ConstFloat:
		p.float(c)
	case *air.ConstNull:
		if _, ok := c.Typ.(*air.TokenType); ok {
			p.s("none")
			return
		}
		p.s("null")
	case *air.ConstZero:
		p.s("zeroinitializer")
	case *air.ConstUndef:
		p.s("undef")
	case *air.ConstPoison:
		p.s("poison")
	case *air.ConstAggregate:
		p.aggregate(c)
	case *air.ConstExpr:
		p.constExpr(c)
	default:
		p.s("<badconst>")
	}
}

func (p *printer) aggregate(c *air.ConstAggregate) {
	switch t := c.Typ.(type) {
	case *air.ArrayType:
		if it, ok := t.Elem.(*air.IntType); ok && it.Bits == 8 && allInts(c.Elems) {
			p.s("c\"")
			raw := make([]byte, len(c.Elems))
			for k, e := range c.Elems {
				raw[k] = byte(e.(*air.ConstInt).Bits)
			}
			p.s(air.EscapeString(string(raw)))
			p.b('"')
			return
		}
		p.b('[')
		p.elems(c.Elems)
		p.b(']')
	case *air.VectorType:
		p.b('<')
		p.elems(c.Elems)
		p.b('>')
	case *air.StructType:
		if t.Packed {
			p.b('<')
		}
		p.b('{')
		if len(c.Elems) > 0 {
			p.b(' ')
			p.elems(c.Elems)
			p.b(' ')
		}
		p.b('}')
		if t.Packed {
			p.b('>')
		}
	}
}

func allInts(es []air.Constant) bool {
	for _, e := range es {
		if _, ok := e.(*air.ConstInt); !ok {
			return false
		}
	}
	return true
}

func (p *printer) elems(es []air.Constant) {
	for i, e := range es {
		if i > 0 {
			p.s(", ")
		}
		p.typedValue(e)
	}
}

func (p *printer) constExpr(c *air.ConstExpr) {
	p.s(c.Op.String())
	if c.Op == air.OpGetElementPtr {
		if c.InBounds {
			p.s(" inbounds")
		} else if c.Flags&1 != 0 {
			p.s(" nusw")
		}
		if c.Flags&2 != 0 {
			p.s(" nuw")
		}
	}
	p.s(" (")
	if c.Op == air.OpGetElementPtr {
		p.s(p.ty(c.SourceElem))
		p.s(", ")
	}
	for i, o := range c.Ops {
		if i > 0 {
			p.s(", ")
		}
		p.typedValue(o)
	}
	if c.Op.IsCast() {
		p.s(" to ")
		p.s(p.ty(c.Typ))
	}
	p.b(')')
}

// float prints a floating-point constant as LLVM does: decimal when six
// significant digits reproduce the value exactly, else hexadecimal (float
// widened to double); half and bfloat always in hexadecimal.
func (p *printer) float(c *air.ConstFloat) {
	const hex = "0123456789ABCDEF"
	var v float64
	switch c.Typ.Kind {
	case air.Half, air.BFloat:
		if c.Typ.Kind == air.Half {
			p.s("0xH")
		} else {
			p.s("0xR")
		}
		for sh := 12; sh >= 0; sh -= 4 {
			p.b(hex[c.Bits>>uint(sh)&15])
		}
		return
	case air.Float:
		v = float64(math.Float32frombits(uint32(c.Bits)))
	case air.Double:
		v = math.Float64frombits(c.Bits)
	default:
		p.s("<unsupported float>")
		return
	}
	if !math.IsInf(v, 0) && !math.IsNaN(v) {
		s := strconv.FormatFloat(v, 'e', 5, 64)
		if back, err := strconv.ParseFloat(s, 64); err == nil && back == v {
			e := strings.IndexByte(s, 'e')
			p.s(s[:e])
			p.b('0')
			p.s(s[e:])
			return
		}
	}
	bits := math.Float64bits(v)
	if c.Typ.Kind == air.Float {
		// widen exactly, keeping NaN payloads (Go's conversion may not)
		f := uint32(c.Bits)
		if math.IsNaN(v) {
			sign := uint64(f>>31) << 63
			mant := uint64(f&0x7FFFFF) << 29
			bits = sign | 0x7FF0000000000000 | mant
		}
	}
	p.s("0x")
	p.s(strings.ToUpper(strconv.FormatUint(bits, 16)))
}

// wideDecimal prints a >64-bit integer (two's complement words, least
// significant first) in signed decimal.
func wideDecimal(words []uint64, bits int) string {
	v := new(big.Int)
	for i := len(words) - 1; i >= 0; i-- {
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(words[i]))
	}
	if bits > 0 {
		mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
		v.And(v, mask)
		if v.Bit(bits-1) == 1 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(bits)))
		}
	}
	return v.String()
}
