package air

// Value is anything an instruction can use as an operand. Implementers:
// *Argument, *Block, *Function, *GlobalVariable, *MetadataValue, every
// Constant and every Instruction.
type Value interface {
	// Type is the value's type.
	Type() Type
}

// Argument is a function parameter.
type Argument struct {
	Typ   Type
	Name  string // empty when unnamed
	Index int
	Func  *Function
}

// Type implements Value.
func (a *Argument) Type() Type { return a.Typ }

// MetadataValue is metadata used as an operand (a call's metadata argument).
type MetadataValue struct{ MD Metadata }

// Type implements Value.
func (*MetadataValue) Type() Type { return MDType }

// Block is a basic block: a label and its instructions, the last a terminator.
type Block struct {
	Name  string // empty when unnamed
	Insts []Instruction
	Func  *Function
	Index int // position in Func.Blocks
	// UseOrder is the bitcode's use-list order of the block's uses by
	// terminators (USELIST_CODE_BB: the new position of each use of the
	// default order), nil when the bitcode gives none. It changes no
	// meaning; LLVM lists a block's predecessors in this order.
	UseOrder []uint64
}

// Type implements Value.
func (*Block) Type() Type { return Label }

// Linkage is a global value's linkage, numbered as LLVM's enum (not as the bitcode encodes it).
type Linkage uint8

// The linkages.
const (
	External Linkage = iota
	AvailableExternally
	LinkOnceAny
	LinkOnceODR
	WeakAny
	WeakODR
	Appending
	Internal
	Private
	ExternalWeak
	Common
)

var linkageNames = [...]string{"", "available_externally", "linkonce", "linkonce_odr", "weak", "weak_odr", "appending", "internal", "private", "extern_weak", "common"}

// String is the linkage keyword ("" for external).
func (l Linkage) String() string {
	if int(l) < len(linkageNames) {
		return linkageNames[l]
	}
	return "linkage?"
}

// UnnamedAddr is none, unnamed_addr or local_unnamed_addr.
type UnnamedAddr uint8

// The unnamed_addr kinds.
const (
	NoUnnamedAddr UnnamedAddr = iota
	GlobalUnnamedAddr
	LocalUnnamedAddr
)

// GlobalCommon are the fields functions and global variables share.
type GlobalCommon struct {
	Name        string
	Linkage     Linkage
	Visibility  uint8 // 0 default, 1 hidden, 2 protected
	DLLStorage  uint8 // 0 default, 1 dllimport, 2 dllexport
	UnnamedAddr UnnamedAddr
	DSOLocal    bool
	Section     string
	Partition   string
	Align       uint64 // bytes, 0 when unspecified
	AddrSpace   int
	// Attached is the object's metadata attachments (!dbg, ...).
	Attached []Attachment
}

// GlobalVariable is a module-level variable or constant.
type GlobalVariable struct {
	GlobalCommon
	ValueType             Type
	Constant              bool
	Init                  Constant // nil for a declaration
	ThreadLocal           uint8    // 0 none, 1 generaldynamic, 2 localdynamic, 3 initialexec, 4 localexec
	ExternallyInitialized bool
	ptrType               *PointerType
}

// Type implements Value: a pointer in the variable's address space.
func (g *GlobalVariable) Type() Type { return g.ptrType }

// SetPointerType sets the pointer type Type returns (the reader does this).
func (g *GlobalVariable) SetPointerType(p *PointerType) { g.ptrType = p }

// Function is a function declaration or definition.
type Function struct {
	GlobalCommon
	Sig         *FunctionType
	CallingConv uint32
	Attrs       AttributeList
	Args        []*Argument
	Blocks      []*Block // empty for a declaration
	GC          string
	Prologue    Constant
	Prefix      Constant
	Personality Constant
	ptrType     *PointerType
}

// Type implements Value: a pointer in the function's address space.
func (f *Function) Type() Type { return f.ptrType }

// SetPointerType sets the pointer type Type returns (the reader does this).
func (f *Function) SetPointerType(p *PointerType) { f.ptrType = p }

// IsDeclaration reports whether f has no body.
func (f *Function) IsDeclaration() bool { return len(f.Blocks) == 0 }

// Module is one LLVM module.
type Module struct {
	SourceFilename string
	Triple         string
	DataLayout     string
	// Producer is the IDENTIFICATION block's string ("" when absent), Epoch its epoch.
	Producer string
	Epoch    uint64
	// Version is the MODULE_CODE_VERSION (0, 1 or 2).
	Version uint64
	// Types is the module's type table in bitcode order.
	Types []Type
	// Structs lists identified struct types in type-table order.
	Structs     []*StructType
	Globals     []*GlobalVariable
	Functions   []*Function
	NamedMD     []*NamedMD
	MDKinds     map[uint64]string // metadata kind id -> name (dbg, tbaa, ...)
	SyncScopes  []string
	BundleTags  []string
	ModuleAsm   string
	SectionName []string
}

// Function returns the function named name, or nil.
func (m *Module) Function(name string) *Function {
	for _, f := range m.Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// NamedMetadata returns the named metadata called name, or nil.
func (m *Module) NamedMetadata(name string) *NamedMD {
	for _, n := range m.NamedMD {
		if n.Name == name {
			return n
		}
	}
	return nil
}
