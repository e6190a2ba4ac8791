// Package codes is airpipe's one registry of failure codes: every code a
// stage, the engine or the corpus readers emit is declared here once, with
// what it means and an example of its detail (modelled on go/types'
// internal/types/errors/codes.go).
//
// The list is append-only. A released code keeps its name and meaning
// forever: rankings, baselines and diffs across runs group by code and
// detail, never by message. A new code is added at the end of its stage's
// block, with a doc comment whose last paragraph begins "Example detail:",
// and a row in docs/codes.md; TestCodesDocumented fails otherwise, and it
// fails too when a code-shaped string literal ("stage/kebab-name") appears
// in the Go sources without being declared here.
//
// Exec stages (pipeline/execstage) name codes of their own from their
// configuration; those are the user's and are not listed here, except the
// three suffixes every exec stage may produce (Suffix).
package codes

// Code is a stable failure code: "stage/what" for a stage's own codes, a
// bare word for the engine's (crash, timeout, cancelled, oom).
type Code string

// Stage is the part of c before its slash: the stage that owns it, or ""
// for an engine code.
func (c Code) Stage() string {
	for i := 0; i < len(c); i++ {
		if c[i] == '/' {
			return string(c[:i])
		}
	}
	return ""
}

// Engine codes: any stage's run can end in them.
const (
	// Crash is a panic inside a stage, or an external tool killed by a
	// signal. The detail is "panic@" and 8 hex digits hashing the function
	// names on the panicking stack (stable across builds, so the same bug
	// groups), or the tool and its signal.
	//
	// Example detail: panic@1a2b3c4d
	Crash Code = "crash"

	// Timeout is a stage that ran past its per-module timeout (--timeout,
	// or an exec stage's own). The detail is the stage's name.
	//
	// Example detail: translate
	Timeout Code = "timeout"

	// Cancelled is a module whose stage the run's interruption (Ctrl-C,
	// SIGTERM) stopped before or while it ran; the status is not-run. The
	// detail is the stage's name.
	//
	// Example detail: emulator
	Cancelled Code = "cancelled"

	// OOM is an external tool that ran out of its memory limit. The detail
	// is the program.
	//
	// Example detail: spirv-val
	OOM Code = "oom"
)

// Container codes: the library and the function's slice of it.
const (
	// ContainerMalformedLibrary is a library that does not parse as a
	// whole; the row has function index -1. The detail names the broken
	// construct, or repeats the code when the parser names none.
	//
	// Example detail: function[3] tag OFFT
	ContainerMalformedLibrary Code = "container/malformed-library"

	// ContainerFileTooLarge is a file larger than --max-file-size; the row
	// has function index -1.
	//
	// The detail repeats the code.
	//
	// Example detail: container/file-too-large
	ContainerFileTooLarge Code = "container/file-too-large"

	// ContainerUnreadable is a file that could not be read; the row has
	// function index -1.
	//
	// The detail repeats the code.
	//
	// Example detail: container/unreadable
	ContainerUnreadable Code = "container/unreadable"

	// ContainerBitcodeOutOfBounds is a function whose bitcode slice lies
	// outside the bitcode section or the file. The detail names the
	// construct.
	//
	// Example detail: function[2] "main0" bitcode 4096+512
	ContainerBitcodeOutOfBounds Code = "container/bitcode-out-of-bounds"

	// ContainerMissingHash is a function without a HASH tag to check its
	// bitcode against.
	//
	// Example detail: function[0] "main0"
	ContainerMissingHash Code = "container/missing-hash"

	// ContainerHashMismatch is a function whose bitcode's SHA-256 differs
	// from its HASH tag.
	//
	// Example detail: function[0] "main0"
	ContainerHashMismatch Code = "container/hash-mismatch"

	// ContainerBadWrapper is a slice whose LLVM bitcode wrapper header
	// (0x0B17C0DE) is invalid.
	//
	// Example detail: function[0] "main0"
	ContainerBadWrapper Code = "container/bad-wrapper"

	// ContainerNotALibrary is a file named *.metallib that holds no library
	// and no AIR module; the row has function index -1.
	//
	// The detail repeats the code.
	//
	// Example detail: container/not-a-library
	ContainerNotALibrary Code = "container/not-a-library"

	// ContainerFileChanged is a file that shrank, grew or was rewritten
	// while it was read; the row has function index -1.
	//
	// The detail repeats the code.
	//
	// Example detail: container/file-changed
	ContainerFileChanged Code = "container/file-changed"
)

// Reader codes: airpipe's own LLVM bitcode reader (compiler/bitcode) and
// its oracle.
const (
	// ReaderUnknownRecord is a record the bitcode reader does not know:
	// refused by name, never skipped. The detail is the block, the record
	// and its code.
	//
	// Example detail: FUNCTION_BLOCK/INST_INVOKE(code 13)
	ReaderUnknownRecord Code = "reader/unknown-record"

	// ReaderUnknownBlock is a block the bitcode reader does not know.
	//
	// Example detail: BLOCK(id 26)
	ReaderUnknownBlock Code = "reader/unknown-block"

	// ReaderMalformed is input that breaks the bitstream or the module
	// format. The detail names the construct.
	//
	// Example detail: FUNCTION_BLOCK/INST_BR
	ReaderMalformed Code = "reader/malformed"

	// ReaderUnsupported is a known construct the reader refuses. The detail
	// names it.
	//
	// Example detail: FUNCTION_BLOCK/INST_SWITCH
	ReaderUnsupported Code = "reader/unsupported"

	// ReaderOracleDisagrees (with --oracle llvm-dis): the module as airpipe
	// prints it differs from llvm-dis-19's after normalisation. The detail
	// is the first differing line.
	//
	// Example detail: line 42
	ReaderOracleDisagrees Code = "reader/oracle-disagrees"

	// ReaderOracleFailed (with --oracle llvm-dis): llvm-dis-19 itself could
	// not read the module; the status is unjudged, neither our failure nor
	// our pass.
	//
	// Example detail: (empty)
	ReaderOracleFailed Code = "reader/oracle-failed"

	// ReaderOverBudget is a module the reader did not read because its
	// estimated cost (bitcode.AllocationBound: 128 bytes per input byte
	// plus 1 MiB) exceeds the reader's memory budget (run
	// --reader-memory). The detail gives the module's size.
	//
	// Example detail: 52428800 bytes
	ReaderOverBudget Code = "reader/over-budget"
)

// Translate codes: AIR to SPIR-V (compiler/translate, compiler/libwrap)
// and spirv-val's verdict.
const (
	// TranslateUnhandledIntrinsic is a call to an air.* or llvm.* function
	// with no lowering. The detail is the function's name.
	//
	// Example detail: air.atomic.global.add.f32
	TranslateUnhandledIntrinsic Code = "translate/unhandled-intrinsic"

	// TranslateUnhandledInstruction is an LLVM instruction, or a form of
	// one, with no lowering. The detail is the opcode.
	//
	// Example detail: sample without a sampler argument
	TranslateUnhandledInstruction Code = "translate/unhandled-instruction"

	// TranslateUnsupportedType is a type the translator cannot represent.
	// The detail is the LLVM type.
	//
	// Example detail: <64 x float>
	TranslateUnsupportedType Code = "translate/unsupported-type"

	// TranslateUnsupportedCFG is control flow outside the structured subset
	// the translator emits. The detail names the shape.
	//
	// Example detail: switch cases sharing blocks
	TranslateUnsupportedCFG Code = "translate/unsupported-cfg"

	// TranslateUnsupportedInterface is an entry-point argument role or
	// metadata key with no Vulkan binding. The detail is the key.
	//
	// Example detail: air.render_target
	TranslateUnsupportedInterface Code = "translate/unsupported-interface"

	// TranslateUnsupportedStage is an entry point of a stage with no Vulkan
	// mapping here (mesh, intersection, ...).
	//
	// Example detail: air.mesh
	TranslateUnsupportedStage Code = "translate/unsupported-stage"

	// TranslateLibraryFunction is a library (visible, stitchable) function
	// the wrapper does not take; the status is unjudged, counted apart.
	//
	// Example detail: air.visible
	TranslateLibraryFunction Code = "translate/library-function"

	// TranslateLibraryInterface is a library function whose parameter or
	// result the wrapper ABI (compiler/libwrap/README.md) does not carry.
	// The detail names the parameter or result.
	//
	// Example detail: threadgroup pointer
	TranslateLibraryInterface Code = "translate/library-interface"

	// TranslateLibraryNotFound is a library function without a body. The
	// detail is the function.
	//
	// Example detail: blend_multiply
	TranslateLibraryNotFound Code = "translate/library-not-found"

	// TranslateInvalidSPIRV is spirv-val's rejection of what the translator
	// produced: the validator's words are the verdict, never input. The
	// detail is spirv-val's first line with numbers as N.
	//
	// Example detail: ID N has not been defined
	TranslateInvalidSPIRV Code = "translate/invalid-spirv"

	// TranslateInternalError is the translator failing in itself (an entry
	// point without a body, a module it could not encode): a defect of
	// airpipe's, neither a missing feature nor spirv-val's verdict.
	//
	// Example detail: translator
	TranslateInternalError Code = "translate/internal-error"

	// TranslateNoIR is a translate stage that found no in-memory module: the
	// reader stage was skipped (--skip-stages). The detail is the stage that
	// should have provided it; compile uses it too, with detail translate,
	// when translate was skipped. (A stage list in which an exec stage
	// replaced that stage is refused before the run: pipeline.Stage.Needs.)
	//
	// Example detail: reader
	TranslateNoIR Code = "translate/no-ir"

	// TranslateNoEntryPoint is a module whose metadata names no entry point
	// for the library's function. The detail is the function.
	//
	// Example detail: main0
	TranslateNoEntryPoint Code = "translate/no-entry-point"

	// TranslateDataOnly (unjudged) is a row whose module holds data only:
	// globals (and declarations), no function with a body and no entry
	// point (GPUCompiler's tracepoint runtime libraries): there is nothing
	// to translate, which is neither a translate failure nor a pass. The
	// detail is "globals only", or "empty module" when it has no globals.
	//
	// Example detail: globals only
	TranslateDataOnly Code = "translate/data-only"
)

// Compile codes: the SPIR-V compiled by real drivers (device.Compile in a
// child process).
const (
	// CompileDriverRejected is a driver refusing the pipeline; the message
	// holds its own words (VK_EXT_debug_report).
	//
	// Example detail: radv-navi21 vkCreateComputePipelines VK_ERROR_UNKNOWN
	CompileDriverRejected Code = "compile/driver-rejected"

	// CompileDriverCrash is a driver that crashed, or hung past the
	// timeout, in its compile child: only this module fails. The detail is
	// the target.
	//
	// Example detail: radv-navi21
	CompileDriverCrash Code = "compile/driver-crash"

	// CompileSPIRVRejected is SPIR-V the device layer could not read. The
	// detail is the target.
	//
	// Example detail: lavapipe
	CompileSPIRVRejected Code = "compile/spirv-rejected"

	// CompileBadArgument is an entry point or interface that did not fit
	// the API. The detail is the target.
	//
	// Example detail: lavapipe
	CompileBadArgument Code = "compile/bad-argument"

	// CompileInternalError is a compile that failed in airpipe's own
	// machinery (the compile child's protocol, a pipeline kind the compile
	// stage does not build) with no driver verdict and no misuse of the
	// API by the module: a defect of airpipe's. The detail is the target.
	//
	// Example detail: radv-navi21
	CompileInternalError Code = "compile/internal-error"
)

// Emulator codes: the SPIR-V run on lavapipe against the CPU reference
// (compiler/cpuref). Every one has a device twin (OnDevice).
const (
	// EmulatorMismatch is lavapipe's output differing from LLVM's CPU
	// execution of the AIR. The detail is the first differing 32-bit word;
	// the message holds expected and got.
	//
	// Example detail: buffer 3 word 2
	EmulatorMismatch Code = "emulator/mismatch"

	// EmulatorNoReference (unjudged) is an entry point the CPU reference
	// cannot run. The detail is the reason's kind and the thing it names.
	//
	// Example detail: unknown-op air.unpack.snorm4x8.v4f32
	EmulatorNoReference Code = "emulator/no-reference"

	// EmulatorWritesNothing (unjudged) is a function with nothing it could
	// write, or whose run changed nothing on either side: never a pass.
	//
	// Example detail: no writable buffer
	EmulatorWritesNothing Code = "emulator/writes-nothing"

	// EmulatorNotImplemented (unjudged) is a function kind the emulator does
	// not run, or an image the SPIR-V declares in another shape than the
	// reference's texture.
	//
	// Example detail: mesh
	EmulatorNotImplemented Code = "emulator/not-implemented"

	// EmulatorNoTranslation is an emulator stage that found no SPIR-V in
	// memory: the translate stage was skipped (--skip-stages).
	//
	// Example detail: translate
	EmulatorNoTranslation Code = "emulator/no-translation"

	// EmulatorInterfaceMismatch is SPIR-V whose bindings are not the AIR
	// entry point's buffers. The detail names the binding.
	//
	// Example detail: set 0 binding 2
	EmulatorInterfaceMismatch Code = "emulator/interface-mismatch"

	// EmulatorDriverError is the driver refusing the pipeline or the
	// dispatch. The detail is the Vulkan call.
	//
	// Example detail: vkCreateComputePipelines
	EmulatorDriverError Code = "emulator/driver-error"

	// EmulatorDriverCrash is the emulator's child process dying while the
	// device ran the module (a driver crash): only this module fails. The
	// detail is the signal or exit status.
	//
	// Example detail: signal segmentation fault
	EmulatorDriverCrash Code = "emulator/driver-crash"

	// EmulatorDeviceLost is a dispatch that lost the device (a GPU fault or
	// a hang past the stage's timeout). The detail is the entry point.
	//
	// Example detail: main0
	EmulatorDeviceLost Code = "emulator/device-lost"

	// EmulatorContractionDependent (unjudged) is output that matches neither
	// the unfused nor the fused reference, but only at words where those
	// two differ from each other: the AIR permits contraction, so no
	// reference fixes them. The detail is the first such word.
	//
	// Example detail: buffer 0 word 7
	EmulatorContractionDependent Code = "emulator/contraction-dependent"

	// EmulatorFastMathUndefined (unjudged) is output that differs from the
	// reference only at words the reference computed as a NaN or an
	// infinity, in a module with fast-math flags: the AIR fixes no value
	// there. The detail is the first such word.
	//
	// Example detail: buffer 1 word 0
	EmulatorFastMathUndefined Code = "emulator/fast-math-undefined"

	// EmulatorApproximateUnmatched (unjudged) is output that differs from
	// the reference with the device's approximate results substituted,
	// where some of the reference's approximate calls had operands the
	// device never recorded (they took the C library's value, which the
	// device was free not to compute). The detail is the first differing
	// word.
	//
	// Example detail: buffer 0 word 12
	EmulatorApproximateUnmatched Code = "emulator/approximate-unmatched"

	// EmulatorDenormalDependent (unjudged) is output that matches none of
	// the references the AIR permits (float denormals flushed or kept, in
	// a module compiled with air.compile.denorms_disable; multiply-adds
	// fused or not where it permits contraction), but only at words where
	// those references differ from each other, some of them between
	// flushing and keeping denormals (MSL §8.5 lets a GPU do either,
	// operation by operation). The detail is the first such word.
	//
	// Example detail: buffer 4 word 1
	EmulatorDenormalDependent Code = "emulator/denormal-dependent"
)

// Device codes: the emulator's checks on a real GPU (--device). Each
// emulator code has its twin here, the same check's verdict on the GPU.
const (
	// DeviceMismatch is EmulatorMismatch on a real GPU.
	//
	// Example detail: buffer 1 word 4
	DeviceMismatch Code = "device/mismatch"

	// DeviceNoReference is EmulatorNoReference on a real GPU.
	//
	// Example detail: texture air.texture
	DeviceNoReference Code = "device/no-reference"

	// DeviceWritesNothing is EmulatorWritesNothing on a real GPU.
	//
	// Example detail: no writable buffer
	DeviceWritesNothing Code = "device/writes-nothing"

	// DeviceNotImplemented is EmulatorNotImplemented on a real GPU.
	//
	// Example detail: mesh
	DeviceNotImplemented Code = "device/not-implemented"

	// DeviceNoTranslation is EmulatorNoTranslation on a real GPU.
	//
	// Example detail: translate
	DeviceNoTranslation Code = "device/no-translation"

	// DeviceInterfaceMismatch is EmulatorInterfaceMismatch on a real GPU.
	//
	// Example detail: set 0 binding 2
	DeviceInterfaceMismatch Code = "device/interface-mismatch"

	// DeviceDriverError is EmulatorDriverError on a real GPU.
	//
	// Example detail: vkCreateComputePipelines
	DeviceDriverError Code = "device/driver-error"

	// DeviceDriverCrash is EmulatorDriverCrash on a real GPU.
	//
	// Example detail: signal segmentation fault
	DeviceDriverCrash Code = "device/driver-crash"

	// DeviceDeviceLost is EmulatorDeviceLost on a real GPU.
	//
	// Example detail: main0
	DeviceDeviceLost Code = "device/device-lost"

	// DeviceContractionDependent is EmulatorContractionDependent on a real
	// GPU.
	//
	// Example detail: buffer 0 word 7
	DeviceContractionDependent Code = "device/contraction-dependent"

	// DeviceFastMathUndefined is EmulatorFastMathUndefined on a real GPU.
	//
	// Example detail: buffer 1 word 0
	DeviceFastMathUndefined Code = "device/fast-math-undefined"

	// DeviceFlaky (unjudged) is a device mismatch that was run twice more
	// and whose three runs disagree with each other. The detail is the
	// first run's.
	//
	// Example detail: buffer 1 word 4
	DeviceFlaky Code = "device/flaky"

	// DeviceApproximateUnmatched is EmulatorApproximateUnmatched on a real
	// GPU.
	//
	// Example detail: buffer 0 word 12
	DeviceApproximateUnmatched Code = "device/approximate-unmatched"

	// DeviceDenormalDependent is EmulatorDenormalDependent on a real GPU.
	//
	// Example detail: buffer 4 word 1
	DeviceDenormalDependent Code = "device/denormal-dependent"
)

// onDevice pairs every emulator code with its device twin.
var onDevice = map[Code]Code{
	EmulatorMismatch:             DeviceMismatch,
	EmulatorNoReference:          DeviceNoReference,
	EmulatorWritesNothing:        DeviceWritesNothing,
	EmulatorNotImplemented:       DeviceNotImplemented,
	EmulatorNoTranslation:        DeviceNoTranslation,
	EmulatorInterfaceMismatch:    DeviceInterfaceMismatch,
	EmulatorDriverError:          DeviceDriverError,
	EmulatorDriverCrash:          DeviceDriverCrash,
	EmulatorDeviceLost:           DeviceDeviceLost,
	EmulatorContractionDependent: DeviceContractionDependent,
	EmulatorFastMathUndefined:    DeviceFastMathUndefined,
	EmulatorApproximateUnmatched: DeviceApproximateUnmatched,
	EmulatorDenormalDependent:    DeviceDenormalDependent,
}

// OnDevice is the device stage's code for a verdict the emulator's check
// reached on a real GPU: an emulator code's device twin; any other code
// (an engine code) is returned as it is.
func OnDevice(c Code) Code {
	if d, ok := onDevice[c]; ok {
		return d
	}
	return c
}

// Corpus codes: what the firmware reader (corpus/ipsw) refuses. They are
// no stage's failure: each names a refused entry in run.json's
// refused_reasons, and the refusal's provenance names the layer.
const (
	// CorpusBadIPSW is a .ipsw file that is not a readable zip.
	//
	// Example detail: iPhone15,2_17.0_21A329_Restore.ipsw
	CorpusBadIPSW Code = "corpus/bad-ipsw"

	// CorpusEncryptedImage is an Apple Encrypted Archive image (magic
	// "AEA1", iOS 18 and later) whose key is not available here.
	//
	// Example detail: 090-12345-001.dmg.aea
	CorpusEncryptedImage Code = "corpus/encrypted-image"

	// CorpusUnsafePath is a zip or image entry whose name is absolute,
	// climbs out with "..", or holds a backslash or a control character.
	//
	// Example detail: ../../etc/passwd
	CorpusUnsafePath Code = "corpus/unsafe-path"

	// CorpusImageTooLarge is an image whose declared size exceeds the
	// image budget.
	//
	// Example detail: 090-12345-001.dmg
	CorpusImageTooLarge Code = "corpus/image-too-large"

	// CorpusDecompressionBomb is an entry whose compression ratio exceeds
	// the cap, or that inflates past its declared size.
	//
	// Example detail: 090-12345-001.dmg
	CorpusDecompressionBomb Code = "corpus/decompression-bomb"

	// CorpusImageMissing is an image the manifest names and the zip lacks.
	//
	// Example detail: 090-12345-001.dmg
	CorpusImageMissing Code = "corpus/image-missing"

	// CorpusNoManifest is a firmware with neither a readable
	// BuildManifest.plist nor Restore.plist; every top-level .dmg is taken
	// instead.
	//
	// Example detail: BuildManifest.plist
	CorpusNoManifest Code = "corpus/no-manifest"

	// CorpusImageUnreadable is an image 7-Zip could not list.
	//
	// Example detail: 090-12345-001.dmg
	CorpusImageUnreadable Code = "corpus/image-unreadable"

	// CorpusImageDamaged is an image 7-Zip listed in full but with errors
	// (truncated or damaged); what it extracts is still checked.
	//
	// Example detail: 090-12345-001.dmg
	CorpusImageDamaged Code = "corpus/image-damaged"

	// CorpusExtractFailed is 7-Zip failing to extract, or a file that came
	// out missing, not regular, or of another size than listed; the files
	// it did extract are kept.
	//
	// Example detail: System/Library/Frameworks/CoreImage.framework/default.metallib
	CorpusExtractFailed Code = "corpus/extract-failed"

	// CorpusExtractTooLarge is a selection whose listed sizes, or the bytes
	// 7-Zip actually wrote, pass the extraction budget.
	//
	// Example detail: 090-12345-001.dmg
	CorpusExtractTooLarge Code = "corpus/extract-too-large"

	// CorpusEncryptedVolume is an APFS container with an encrypted volume,
	// which 7-Zip cannot open.
	//
	// Example detail: 090-12345-001.dmg
	CorpusEncryptedVolume Code = "corpus/encrypted-volume"

	// CorpusPartitionUnopened is a partition map (UDIF, GPT, APM, MBR) 7-Zip
	// opened with no file system inside it opened; its partitions are not
	// read.
	//
	// Example detail: 090-12345-001.dmg
	CorpusPartitionUnopened Code = "corpus/partition-unopened"

	// CorpusHardLinkUnresolved is an HFS+ hard link (listed by 7-Zip as an
	// empty file) not resolved to its private-data inode file.
	//
	// Example detail: usr/lib/libfoo.dylib
	CorpusHardLinkUnresolved Code = "corpus/hard-link-unresolved"

	// CorpusSparseHole is an APFS sparse file whose holes 7-Zip filled with
	// container blocks instead of zeros; its content is refused.
	//
	// Example detail: System/Library/Caches/dyld_shared_cache_arm64e
	CorpusSparseHole Code = "corpus/sparse-hole"

	// CorpusLinkUnresolved is a symbolic link named like a candidate that
	// reaches no regular file inside the image (outside its root, absent,
	// or a loop).
	//
	// Example detail: System/Library/Frameworks/Metal.framework/default.metallib
	CorpusLinkUnresolved Code = "corpus/link-unresolved"

	// CorpusMissing7z is a firmware that needs 7-Zip, which is not
	// installed (Debian p7zip-full).
	//
	// Example detail: 7z
	CorpusMissing7z Code = "corpus/missing-7z"
)

// Suffix is the part after the slash of a code every exec stage may
// produce under its own name ("translate/tool-failed" for an exec stage
// standing in for translate). docs/codes.md lists them as
// "<stage>/suffix".
type Suffix string

// The exec stages' codes (pipeline/execstage).
const (
	// ToolFailed is a tool that failed with no classification rule
	// matching its output; the message holds its last lines. The detail is
	// the exit status.
	//
	// Example detail: exit 1
	ToolFailed Suffix = "tool-failed"

	// BadProtocol is a tool under the JSON protocol that printed something
	// else than one outcome object. The detail names the problem.
	//
	// Example detail: not-an-object
	BadProtocol Suffix = "bad-protocol"

	// MissingArtifact is a tool that passed but did not write an artifact
	// it declares. The detail is the artifact's name.
	//
	// Example detail: spirv
	MissingArtifact Suffix = "missing-artifact"
)

// For is the code the suffix makes for the named stage.
func (s Suffix) For(stage string) Code { return Code(stage + "/" + string(s)) }
