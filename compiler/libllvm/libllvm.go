// Package libllvm runs the two LLVM tools the CPU reference needs on every
// module — llvm-dis-19 (bitcode to text) and llc-19 (text to an x86-64
// object) — inside a long-lived child process that loads LLVM's own library
// (libLLVM.so.19.1, the one both tools are linked with) through its C API,
// so that a module costs no process start: starting an LLVM tool costs
// ~18 ms of CPU (relocating the 129 MB library, its static initializers)
// before it reads anything, a quarter of a reference's CPU.
//
// What it does is the tools' own code, called the way the tools call it:
// Disassemble is llvm-dis-19's read and print of a module (a fresh context
// per module, so named types are not renamed by an earlier module's);
// Compile is llc-19 -O0 -mcpu=x86-64 -relocation-model=pic -fast-isel=false
// -filetype=obj (the module's triple and data layout must be the target machine's, every
// function without a target-cpu attribute gets llc's, the module is
// verified first). A module with constructors or destructors is left to
// llc: llc puts them in .init_array, the C API's target machine in .ctors.
// Optimize is opt-19 -S with --strip-debug and -passes; Build is Optimize,
// functions renamed, and Compile on one parse of the module, where the tools
// would print and read it again.
// Anything else — a module it cannot read, parse, verify or compile,
// another triple or data layout, a crash or a timeout of the child — is
// reported as ErrDeclined, and the caller runs the tool itself, whose
// verdict (its exit status and words) is then the one that counts. The
// library is loaded with purego, so airpipe keeps building without cgo.
package libllvm

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Library is the shared library the child loads: llvm-19's, which
// llvm-dis-19 and llc-19 are linked with.
const Library = "libLLVM.so.19.1"

// Triple is the only target Compile builds for, the reference's host.
const Triple = "x86_64-pc-linux-gnu"

// ErrDeclined says the library did not do what was asked, for whatever
// reason (wrapped): the caller runs the tool instead.
var ErrDeclined = errors.New("libllvm: declined")

// api is the part of LLVM's C API used here.
type api struct {
	contextCreate     func() uintptr
	contextDispose    func(ctx uintptr)
	createMemBufCopy  func(data unsafe.Pointer, size uintptr, name string) uintptr
	parseBitcode      func(ctx, buf uintptr, mod *uintptr, msg *unsafe.Pointer) int32
	parseIR           func(ctx, buf uintptr, mod *uintptr, msg *unsafe.Pointer) int32
	printModule       func(mod uintptr) unsafe.Pointer
	disposeMessage    func(msg unsafe.Pointer)
	disposeModule     func(mod uintptr)
	disposeMemBuf     func(buf uintptr)
	verifyModule      func(mod uintptr, action int32, msg *unsafe.Pointer) int32
	getTarget         func(mod uintptr) string
	getDataLayout     func(mod uintptr) string
	namedGlobal       func(mod uintptr, name string) uintptr
	firstFunction     func(mod uintptr) uintptr
	nextFunction      func(fn uintptr) uintptr
	getStringAttr     func(fn uintptr, idx int32, key string, keyLen uint32) uintptr
	createStringAttr  func(ctx uintptr, key string, keyLen uint32, value string, valueLen uint32) uintptr
	addAttr           func(fn uintptr, idx int32, attr uintptr)
	initTargetInfo    func()
	initTarget        func()
	initTargetMC      func()
	initAsmPrinter    func()
	targetFromTriple  func(triple string, t *uintptr, msg *unsafe.Pointer) int32
	createTMOptions   func() uintptr
	disposeTMOptions  func(o uintptr)
	tmOptionsSetCPU   func(o uintptr, cpu string)
	tmOptionsSetOpt   func(o uintptr, level int32)
	tmOptionsSetReloc func(o uintptr, reloc int32)
	createTM          func(t uintptr, triple string, o uintptr) uintptr
	createTargetData  func(tm uintptr) uintptr
	copyTargetDataRep func(td uintptr) unsafe.Pointer
	disposeTargetData func(td uintptr)
	emitToMemBuf      func(tm, mod uintptr, fileType int32, msg *unsafe.Pointer, out *uintptr) int32
	bufferStart       func(buf uintptr) unsafe.Pointer
	bufferSize        func(buf uintptr) uintptr
	stripDebugInfo    func(mod uintptr) int32
	createPBOptions   func() uintptr
	disposePBOptions  func(o uintptr)
	runPasses         func(mod uintptr, passes string, tm uintptr, o uintptr) uintptr
	errorMessage      func(err uintptr) unsafe.Pointer
	disposeErrMessage func(msg unsafe.Pointer)
	parseCommandLine  func(argc int32, argv unsafe.Pointer, overview unsafe.Pointer)
	namedFunction     func(mod uintptr, name string) uintptr
	setValueName      func(v uintptr, name string, n uintptr)
}

// Values of LLVM-C enums used here.
const (
	returnStatusAction   = 2  // LLVMReturnStatusAction
	codeGenLevelNone     = 0  // LLVMCodeGenLevelNone: llc -O0
	relocPIC             = 2  // LLVMRelocPIC
	objectFile           = 1  // LLVMObjectFile
	attributeFunctionIdx = -1 // LLVMAttributeFunctionIndex
)

// machine is the loaded library with llc's target machine.
type machine struct {
	api
	tm uintptr
	// dataLayout is the target machine's data layout.
	dataLayout string
}

// load opens the library once and builds llc's target machine.
var load = sync.OnceValues(func() (*machine, error) {
	h, err := purego.Dlopen(Library, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("dlopen %s: %w", Library, err)
	}
	m := &machine{}
	for _, f := range []struct {
		fn   any
		name string
	}{
		{&m.contextCreate, "LLVMContextCreate"},
		{&m.contextDispose, "LLVMContextDispose"},
		{&m.createMemBufCopy, "LLVMCreateMemoryBufferWithMemoryRangeCopy"},
		{&m.parseBitcode, "LLVMParseBitcodeInContext"},
		{&m.parseIR, "LLVMParseIRInContext"},
		{&m.printModule, "LLVMPrintModuleToString"},
		{&m.disposeMessage, "LLVMDisposeMessage"},
		{&m.disposeModule, "LLVMDisposeModule"},
		{&m.disposeMemBuf, "LLVMDisposeMemoryBuffer"},
		{&m.verifyModule, "LLVMVerifyModule"},
		{&m.getTarget, "LLVMGetTarget"},
		{&m.getDataLayout, "LLVMGetDataLayoutStr"},
		{&m.namedGlobal, "LLVMGetNamedGlobal"},
		{&m.firstFunction, "LLVMGetFirstFunction"},
		{&m.nextFunction, "LLVMGetNextFunction"},
		{&m.getStringAttr, "LLVMGetStringAttributeAtIndex"},
		{&m.createStringAttr, "LLVMCreateStringAttribute"},
		{&m.addAttr, "LLVMAddAttributeAtIndex"},
		{&m.initTargetInfo, "LLVMInitializeX86TargetInfo"},
		{&m.initTarget, "LLVMInitializeX86Target"},
		{&m.initTargetMC, "LLVMInitializeX86TargetMC"},
		{&m.initAsmPrinter, "LLVMInitializeX86AsmPrinter"},
		{&m.targetFromTriple, "LLVMGetTargetFromTriple"},
		{&m.createTMOptions, "LLVMCreateTargetMachineOptions"},
		{&m.disposeTMOptions, "LLVMDisposeTargetMachineOptions"},
		{&m.tmOptionsSetCPU, "LLVMTargetMachineOptionsSetCPU"},
		{&m.tmOptionsSetOpt, "LLVMTargetMachineOptionsSetCodeGenOptLevel"},
		{&m.tmOptionsSetReloc, "LLVMTargetMachineOptionsSetRelocMode"},
		{&m.createTM, "LLVMCreateTargetMachineWithOptions"},
		{&m.createTargetData, "LLVMCreateTargetDataLayout"},
		{&m.copyTargetDataRep, "LLVMCopyStringRepOfTargetData"},
		{&m.disposeTargetData, "LLVMDisposeTargetData"},
		{&m.emitToMemBuf, "LLVMTargetMachineEmitToMemoryBuffer"},
		{&m.bufferStart, "LLVMGetBufferStart"},
		{&m.bufferSize, "LLVMGetBufferSize"},
		{&m.stripDebugInfo, "LLVMStripModuleDebugInfo"},
		{&m.createPBOptions, "LLVMCreatePassBuilderOptions"},
		{&m.disposePBOptions, "LLVMDisposePassBuilderOptions"},
		{&m.runPasses, "LLVMRunPasses"},
		{&m.errorMessage, "LLVMGetErrorMessage"},
		{&m.disposeErrMessage, "LLVMDisposeErrorMessage"},
		{&m.parseCommandLine, "LLVMParseCommandLineOptions"},
		{&m.namedFunction, "LLVMGetNamedFunction"},
		{&m.setValueName, "LLVMSetValueName2"},
	} {
		if _, err := purego.Dlsym(h, f.name); err != nil {
			return nil, fmt.Errorf("%s: %w", Library, err)
		}
		purego.RegisterLibFunc(f.fn, h, f.name)
	}
	m.setOptions(llcOptions)
	m.initTargetInfo()
	m.initTarget()
	m.initTargetMC()
	m.initAsmPrinter()
	var target uintptr
	var msg unsafe.Pointer
	if m.targetFromTriple(Triple, &target, &msg) != 0 {
		return nil, fmt.Errorf("%s: target %s: %s", Library, Triple, m.message(msg))
	}
	o := m.createTMOptions()
	m.tmOptionsSetCPU(o, "x86-64")
	m.tmOptionsSetOpt(o, codeGenLevelNone)
	m.tmOptionsSetReloc(o, relocPIC)
	m.tm = m.createTM(target, Triple, o)
	m.disposeTMOptions(o)
	if m.tm == 0 {
		return nil, fmt.Errorf("%s: no target machine for %s", Library, Triple)
	}
	td := m.createTargetData(m.tm)
	m.dataLayout = m.message(m.copyTargetDataRep(td))
	m.disposeTargetData(td)
	return m, nil
})

// llcOptions are the options Compile gives llc beyond its target
// machine's: SelectionDAG instruction selection at -O0 (NoFastISel).
var llcOptions = []string{"llc-19", NoFastISel}

// NoFastISel is the llc option that selects instructions with SelectionDAG
// at -O0 instead of FastISel. LLVM 19's x86 FastISel miscompiles calls that
// return a vector in several registers (<4 x half>, one lane per xmm
// register): the caller reassembles the vector with a lane read from a
// stack slot nothing wrote. The reference is built with SelectionDAG, which
// reads the registers.
const NoFastISel = "-fast-isel=false"

// cstrings keeps the argument strings handed to LLVM's option parser, which
// may keep pointers into them.
var cstrings [][]byte

// setOptions parses args (argv[0] first) as llc's command line does, into
// LLVM's global options.
func (m *machine) setOptions(args []string) {
	ptrs := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		b := append([]byte(a), 0)
		cstrings = append(cstrings, b)
		ptrs[i] = unsafe.Pointer(&b[0])
	}
	empty := []byte{0}
	cstrings = append(cstrings, empty)
	m.parseCommandLine(int32(len(args)), unsafe.Pointer(&ptrs[0]), unsafe.Pointer(&empty[0]))
	runtime.KeepAlive(ptrs)
}

// message is the NUL-terminated message LLVM allocated at p, freed.
func (m *machine) message(p unsafe.Pointer) string {
	s := m.cstring(p)
	if p != nil {
		m.disposeMessage(p)
	}
	return s
}

// cstring is the NUL-terminated string at p.
func (m *machine) cstring(p unsafe.Pointer) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(p, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(p), n))
}

// buffer is a memory buffer holding a copy of b, named name.
func (m *machine) buffer(b []byte, name string) uintptr {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	buf := m.createMemBufCopy(p, uintptr(len(b)), name)
	runtime.KeepAlive(b)
	return buf
}

// disassemble is llvm-dis-19 reading bitcode from its standard input
// (module identifier "<stdin>") and printing it.
func (m *machine) disassemble(bitcode []byte) (string, error) {
	ctx := m.contextCreate()
	defer m.contextDispose(ctx)
	buf := m.buffer(bitcode, "<stdin>")
	defer m.disposeMemBuf(buf) // the bitcode reader does not take it
	var mod uintptr
	var msg unsafe.Pointer
	if m.parseBitcode(ctx, buf, &mod, &msg) != 0 {
		return "", fmt.Errorf("%w: %s", ErrDeclined, m.message(msg))
	}
	defer m.disposeModule(mod)
	return m.message(m.printModule(mod)), nil
}

// compile is llc-19 -O0 -mcpu=x86-64 -relocation-model=pic -fast-isel=false
// -filetype=obj on the text ir read from a file named name.
func (m *machine) compile(ir []byte, name string) ([]byte, error) {
	return m.build(ir, name, false, "", nil)
}

// build is optimize's work on the text ir read from a file named name
// (strip, passes; none when neither is asked for), then each function named
// renames[i][0] renamed renames[i][1], then compile's work on the module —
// in one parse, where opt-19 -S, a rename in the printed text and llc-19
// read the module three times and print it once.
func (m *machine) build(ir []byte, name string, strip bool, passes string, renames [][2]string) ([]byte, error) {
	ctx := m.contextCreate()
	defer m.contextDispose(ctx)
	mod, err := m.parse(ctx, ir, name)
	if err != nil {
		return nil, err
	}
	defer m.disposeModule(mod)
	if strip || passes != "" {
		if err := m.transform(mod, strip, passes); err != nil {
			return nil, err
		}
	}
	for _, r := range renames {
		if fn := m.namedFunction(mod, r[0]); fn != 0 {
			if m.namedFunction(mod, r[1]) != 0 {
				return nil, fmt.Errorf("%w: rename %s: the module has a %s already", ErrDeclined, r[0], r[1])
			}
			m.setValueName(fn, r[1], uintptr(len(r[1])))
		}
	}
	return m.emit(ctx, mod)
}

// parse reads the text ir, named name, into a module of ctx.
func (m *machine) parse(ctx uintptr, ir []byte, name string) (uintptr, error) {
	var mod uintptr
	var msg unsafe.Pointer
	// The IR reader takes the buffer.
	if m.parseIR(ctx, m.buffer(ir, name), &mod, &msg) != 0 {
		return 0, fmt.Errorf("%w: %s", ErrDeclined, m.message(msg))
	}
	return mod, nil
}

// emit is llc-19's object of mod (compile).
func (m *machine) emit(ctx, mod uintptr) ([]byte, error) {
	var msg unsafe.Pointer
	// llc parses with the target machine's data layout and triple; with the
	// module's own equal to them, parsing with the module's is the same.
	if t := m.getTarget(mod); t != Triple {
		return nil, fmt.Errorf("%w: triple %q", ErrDeclined, t)
	}
	if dl := m.getDataLayout(mod); dl != m.dataLayout {
		return nil, fmt.Errorf("%w: data layout %q, not the target's %q", ErrDeclined, dl, m.dataLayout)
	}
	// llc puts constructors and destructors in .init_array and
	// .fini_array, the C API's target machine in .ctors and .dtors.
	for _, g := range []string{"llvm.global_ctors", "llvm.global_dtors"} {
		if m.namedGlobal(mod, g) != 0 {
			return nil, fmt.Errorf("%w: %s (llc's sections for it are not the C API's)", ErrDeclined, g)
		}
	}
	if m.verifyModule(mod, returnStatusAction, &msg) != 0 {
		return nil, fmt.Errorf("%w: %s", ErrDeclined, m.message(msg))
	}
	m.message(msg)
	// codegen::setFunctionAttributes: llc's -mcpu on every function that
	// names no CPU of its own.
	const key, cpu = "target-cpu", "x86-64"
	for fn := m.firstFunction(mod); fn != 0; fn = m.nextFunction(fn) {
		if m.getStringAttr(fn, attributeFunctionIdx, key, uint32(len(key))) == 0 {
			m.addAttr(fn, attributeFunctionIdx, m.createStringAttr(ctx, key, uint32(len(key)), cpu, uint32(len(cpu))))
		}
	}
	var out uintptr
	if m.emitToMemBuf(m.tm, mod, objectFile, &msg, &out) != 0 {
		return nil, fmt.Errorf("%w: %s", ErrDeclined, m.message(msg))
	}
	defer m.disposeMemBuf(out)
	return append([]byte(nil), unsafe.Slice((*byte)(m.bufferStart(out)), m.bufferSize(out))...), nil
}

// optimize is opt-19 -S [--strip-debug] [-passes=PASSES] on the text ir read
// from a file named name: the module verified, stripped of debug info when
// strip is set, run through the new pass manager's pipeline passes (none
// when empty) with no target machine (opt's -mcpu is empty and these
// passes use none), verified again and printed.
func (m *machine) optimize(ir []byte, name string, strip bool, passes string) (string, error) {
	ctx := m.contextCreate()
	defer m.contextDispose(ctx)
	mod, err := m.parse(ctx, ir, name)
	if err != nil {
		return "", err
	}
	defer m.disposeModule(mod)
	if err := m.transform(mod, strip, passes); err != nil {
		return "", err
	}
	return m.message(m.printModule(mod)), nil
}

// transform is what opt-19 [--strip-debug] [-passes=PASSES] does to mod
// before printing it: verified, stripped when strip is set, run through
// passes (none when empty) and verified again.
func (m *machine) transform(mod uintptr, strip bool, passes string) error {
	var msg unsafe.Pointer
	if strip {
		m.stripDebugInfo(mod)
	}
	if m.verifyModule(mod, returnStatusAction, &msg) != 0 {
		return fmt.Errorf("%w: %s", ErrDeclined, m.message(msg))
	}
	m.message(msg)
	if passes != "" {
		o := m.createPBOptions()
		err := m.runPasses(mod, passes, 0, o)
		m.disposePBOptions(o)
		if err != 0 {
			p := m.errorMessage(err)
			text := m.cstring(p)
			m.disposeErrMessage(p)
			return fmt.Errorf("%w: passes %q: %s", ErrDeclined, passes, text)
		}
	}
	if m.verifyModule(mod, returnStatusAction, &msg) != 0 {
		return fmt.Errorf("%w: after %s: %s", ErrDeclined, passes, m.message(msg))
	}
	m.message(msg)
	return nil
}
