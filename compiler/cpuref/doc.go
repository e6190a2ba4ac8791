// Package cpuref is airpipe's CPU reference: LLVM itself executes an AIR
// compute kernel, fragment function or vertex function, so that the emulator
// and device stages can compare what a translated shader computes with what
// the original means.
//
// How (seed 003 §4, item 1, extended to kernels):
//
//  1. llvm-dis-19 prints the module. Everything the reference knows about the
//     kernel — which parameter is which buffer index, which is a thread
//     position — is read from that text (textir.go, kernel.go), never from
//     airpipe's bitcode reader, so a misreading there cannot agree with itself.
//  2. The module is retargeted to x86-64 Linux (triple and datalayout; AIR's
//     vector alignments are LLVM's natural ones, so no offset moves), its
//     fast-math flags and unsafe-math attributes are dropped so the arithmetic
//     stays IEEE, its functions become internal, and each declared air.*
//     operation is replaced by a definition (ops.go) or the module is set aside.
//  3. A wrapper written in LLVM IR, airpipe_thread(ptr buffers, ptr ids),
//     builds the kernel's arguments (buffer pointers by Metal index; built-ins
//     as i32/i16 scalars or vectors) and calls it; only two pointers cross into
//     C, so no vector or struct is ever passed through the C calling convention
//     (the trap seed 003 records: "243 differ" that were an ABI mismatch).
//  4. llc-19 -O0 -fast-isel=false compiles it (SelectionDAG: LLVM 19's
//     x86 FastISel miscompiles calls that return a vector in several
//     registers, libllvm.NoFastISel; -O2 for the fused build: fusing is the DAG
//     combiner's, which -O0 does not run; the host module carries no
//     fast-math flags, so every level computes the same IEEE values, and -O0
//     takes about 30% less of a run's CPU than -O2 did, with identical rows)
//     (after opt-19 --strip-debug when it carries Apple's
//     debug info, which crashes llc's DWARF writer, and -passes=bounds-checking
//     when it has private or threadgroup arrays: bounds.go), and the harness
//     (harness_c.txt, compiled once into an executable: harness.go) loads the
//     object itself, with no linker, and runs in a child process (its own
//     process group, a time limit, RLIMIT_DATA) over the grid — threadgroup by
//     threadgroup, thread by thread — with buffers in and out through files.
//
// The grid follows the kernel's shape (GridFor): a kernel taking a scalar
// thread position runs over a line of 16 threads, a 2-D one over 4×4 (2×2
// threadgroups of 2×2), unless Options.Grid says otherwise; a kernel that
// declares air.wg.barrier runs over CooperativeGridFor (32 threads a group).
//
// Threads run one after another (a threadgroup's threads, when the kernel
// has barriers, one after another between two barriers), which hides races: a read-modify-write of
// one word by several threads adds up serially and loses updates on a GPU.
// (An NVIDIA H200 showed exactly that on a fixture that lavapipe, which also
// runs workgroups in turn, had passed.) So the harness records which thread
// changed each byte and sets aside (KindRace) a kernel in which two threads
// change the same byte other than through an atomic operation. A thread
// reading what another wrote is not detected.
//
// Buffers start as Pattern (seed 003's (i·7+13)&0xff, shifted per buffer), so
// untouched words show. A kernel that goes out of bounds, traps or writes
// nothing on them is tried on the other InputFamilies in order (small
// integers, unit floats, then typed-small and typed-medium, which give each
// element a value of its own Metal type — a long stride a small long, a
// half a half — from air.arg_type_name and air.struct_type_info
// (families.go), then zeros); the first that runs clean and writes
// something gives the inputs, chosen before any device runs. Each buffer sits between inaccessible reservations
// (1 GiB before, 68 GiB after) and ends on a page boundary, with canary bytes
// up to the next 16-byte boundary: a kernel that, on the pattern-filled
// inputs, reaches outside its buffers is reported as KindOutOfBounds instead
// of silently reading other memory; a load or store outside a private
// (alloca) or threadgroup array is caught by LLVM's bounds-checking pass and
// reported the same way (bounds.go). Denormals are flushed (MXCSR FTZ+DAZ)
// when the module says air.compile.denorms_disable, as Metal does.
//
// Fragment functions (fragment.go) run once per pixel of a 4×4 target: the
// pixel is the thread's grid position, air.position is (x+0.5, y+0.5, 0.5, 1)
// (the draw's full-screen triangle at z 0.5, w 1), the layer, viewport and
// sample index are 0, and every air.fragment_input gets a constant chosen per
// varying (Input.Words: ±(3k+2)/8 for floats, exact in half; ±(3k+1) for
// integers), the same on every pixel. The device draws with every vertex
// carrying that constant, so interpolation has nothing to blend and the
// comparison stays exact; no pixel-dependent varying is ever compared.
// Each air.render_target n is stored, widened to 32 bits per component, in
// harness buffer RenderTargetBase+n (TexelSize bytes a pixel, Clear where the
// output has no component). An air.depth output (a float; any other type is
// KindArgument) is stored as one float32 word per pixel, at byte 4·(y·W+x) of
// harness buffer DepthBuffer (56), which starts as ClearDepth (1.0) words:
// the draw's D32_SFLOAT attachment, cleared to 1.0, with compare op ALWAYS.
// An air.stencil output (a uint; any other type is KindArgument) is stored as
// the whole 32-bit word per pixel in harness buffer StencilBuffer (57), which
// starts as ClearStencil (0x5a) words: the draw's stencil aspect, cleared to
// 0x5a and replaced by the fragment's reference. Every Metal stencil format
// is 8 bits and the specification does not say whether a larger [[stencil]]
// value is masked or clamped, so the stage compares only references up to
// 255 and sets larger ones aside (device/harness's Prepare).
// air.discard_fragment (discard.go) ends the pixel's invocation past the
// wrapper's stores, so a discarded pixel keeps Clear, ClearDepth and
// ClearStencil — what the
// draw's attachments are cleared to — and compares as not written on both
// sides. front_facing, sample masks and dual-source outputs are set aside;
// derivatives run only as below.
//
// Derivatives (derivative.go). A GPU's dfdx, dfdy and fwidth are differences
// of the operand between the pixels of a 2×2 quad, which a per-pixel run has
// not computed. But on this draw the varyings are the same constant on every
// pixel and the textures are uniform: only air.position and the other
// built-ins differ between pixels. checkDerivatives, a conservative taint
// analysis of the entry point and every function it calls, marks what may
// differ: the parameters of every role other than air.fragment_input,
// air.buffer, air.texture and air.sampler (air.position, sample_id, layer...;
// sample_id is 0 here, but counts as per-pixel), every instruction with a
// marked operand (select and phi included), a defined callee's parameters and
// result, and every load once any store writes a marked value or address, or
// writes memory another pixel can read (a device buffer, a global, a generic
// pointer cast or loaded from elsewhere, an atomic, a texture write). A
// texture sample or read is marked only then: a uniform texture gives one
// texel wherever it is sampled. When every derivative's operand is unmarked
// and no branch depends on a marked value, every pixel of a quad holds the
// same v, and the GPU's difference is v − v: +0 for a finite v, NaN for ±∞
// and NaN. The reference defines exactly that on the declaration's types
// (float or half, 1 to 4 lanes, fast_ alike): dfdx(v) = dfdy(v) = v − v, an
// fsub without flags per lane, and fwidth(v) = |v − v| + |v − v|; coarse and
// fine derivatives agree. Result.Derivatives says so ("dfdy, fwidth of
// pixel-independent values: v − v"). A derivative whose operand may depend on
// the pixel, one under a branch that may (non-uniform control flow, where a
// GPU leaves it undefined), one in a compute or vertex function, and anything
// the analysis does not follow (indirect calls, inline assembly, calls to
// undefined functions, unknown instructions) are set aside (KindDerivative).
//
// Textures (textures.go). Every texture an entry point samples or reads is
// uniform: all texels of its one mip level and one layer (cube: 6 faces),
// TextureExtent texels per dimension, hold TexelWords(index, kind), a value per
// Metal texture index and component; the device fills its textures with the
// same words and binds nearest, clamp-to-edge samplers. The wrapper passes a
// texture argument a pointer to an internal constant object (texel words, kind,
// dimension) and a sampler argument a pointer to a dummy constant, so nothing
// new crosses into C. air.sample_texture_*, air.sample_depth_* and
// air.read_texture_* are defined from the module's own declarations (every
// arity): they check that the texture operand is an argument texture of their
// kind and dimension and a sample's sampler an argument sampler (else the run
// is set aside, KindTexture), then return the texel — half by exact narrowing,
// depth as word 0. A { T, i8 } result's i8 is residency, defined as 1: every
// texture here is resident (the reading compiler/translate/ABI.md also takes).
// A read first checks its coordinate against the extent, its array layer or
// cube face, and LOD 0; outside, the run reports an out-of-bounds access as a
// buffer access would. With uniform content a sample's result does not depend
// on coordinates, filtering, LOD, offsets or addressing, so the comparison stays
// exact, and it checks the shader's use of the value, which texture each
// operation reads and component order; it cannot see coordinate or addressing
// errors. Constexpr samplers (a state word baked into the AIR, sampler.go) are
// decoded only as far as evidence goes: the share's embedded sources pair two
// declarations with their words (SamplerEvidence; the table of bits per field
// is in sampler.go). Those run like argument samplers (Kernel.ConstexprSamplers;
// the device binds a VkSampler of the decoded state, and a linear one on an
// integer texture is set aside, undefined); any other word is set aside naming
// the field no evidence decodes (constexpr sampler filters, address mode,
// bits 0x..., words). air.gather_texture_2d[_array] (gather.go) returns the component it names
// of the uniform texel in all four lanes (which texels and their order cannot show).
// A texture2d_ms[_array] with read access (mstexture.go) is uniform in every one of its
// MSSamples (4) samples: reads per sample check the sample index, size and sample-count
// queries answer 4 and 4. Depth multisample textures, texture buffers, other gathers,
// compares and writes other than those below are set aside (KindTexture).
// air.is_null_texture_* (nulltexture.go) is a null-pointer test: false for
// every texture argument.
//
// Undefined values (undef.go): when a function body uses undef scalars, vectors or aggregates of them, the
// function is built twice, each undef fixed to one of two constants (undefFills): the
// first build is the reference (its input families and outputs), the second runs on the
// inputs the first chose; an output on which the two differ depends on a value LLVM and
// Metal leave undefined (KindUndefined). The function as it is, whose undef is whatever a
// register held and may change between runs, is never the reference then. Undef that
// provably reaches no value (undefdead.go: insertion bases whose undef lanes and members are
// all overwritten or never read) is not fixed, and a module with only such is built once, as it is.
//
// Writable textures (storage.go). An air.texture argument with write or read_write
// access (Texture.Writable; Param.Storage) is a 1D, 2D, 3D or cube texture (6 faces,
// face = z) or a one-layer 1D or 2D array (StorageDims) of 4 texels per dimension, 16 bytes each (four 32-bit
// components: float, int or uint; a half texture is stored as 32-bit float, as the
// device's storage image is), with Metal index 0..15 (MaxStorageTextures). It starts
// with every texel TexelWords(index, kind) and is harness buffer
// StorageTextureBase+index (40+index) of StorageBytes(dim) bytes — 64 (1D), 256 (2D,
// StorageTextureSize), 1024 (3D) — texel (x, y, z) at byte ((4z + y)·4 + x)·16 (an
// array's layer is z, always 0): Result.Inputs holds its initial texels
// (StorageTexels) and Result.Outputs what the run left, compared like any buffer.
// The wrapper passes the shader that buffer's pointer. air.write_texture_* (v4f32,
// v4f16 widened exactly, s.v4i32, u.v4i32, from the declaration; operands texture,
// coordinate, layer of an array, value, LOD; the .i16 forms alike) checks the
// coordinate, layer and LOD 0 like a read (outside: KindOutOfBounds, detail "texture
// write") and stores the four words; air.read_texture_* on a read_write texture loads
// them (half by rounding narrowing). An operation on an operand of another kind or
// dimension, a write to a texture that is not writable and a read of a write-only
// one (Metal forbids it) are set aside at run time (KindTexture, "texture operand").
// The per-byte write-conflict check covers texels as it covers buffers: two
// threads changing one texel is KindRace. Cube arrays, depth and indices beyond 15 are set
// aside. The device binds the same texture as a STORAGE_IMAGE at binding 480+index
// (compiler/translate/ABI.md) and reads it back in the same layout.
//
// Vertex functions (vertex.go) run for one triangle (vertex_id 0..2, instance
// and base ids 0): each air.vertex_input gets a value per vertex and component
// (Input.PerVertex, the same pattern), and output j lands widened at byte 16·j
// of the vertex's record in OutputBuffer; the device captures the same
// records through transform feedback.
//
// Function constants (funcconst.go). AIR keeps a Metal function constant in
// an externally initialized addrspace(2) global with an undef initializer,
// listed in !air.function_constants with its Metal type, name and index; the
// corpus's modules copy it into a plain global in a static initializer
// (llvm.global_ctors), which the harness runs before any thread (they run
// when it loads the kernel's object). The reference fixes every constant to the value of the shared
// contract, FunctionConstantWord(index, type) — bool true; float and half
// (index+1)/4; char, short, int 2+index; uchar, ushort, uint 4+index — and
// the device specializes the translated shader (SpecId 100+index) with the
// same 32-bit words: the rewrite gives the global that value in its own LLVM
// type (i8 bool 1, i16 ushort truncated, half converted exactly) and drops
// externally_initialized. Kernel.FunctionConstants lists them, by index, for
// kernels, fragment and vertex functions alike. One specialization is
// judged, not every one: the contract's, unless it puts two present
// conditional arguments on one slot (below). Set aside (KindFunctionConstant, Detail naming the
// constant): a constant of another type (vectors, 64-bit), one stored in an
// LLVM type other than its Metal type's, two sharing an index, an externally
// initialized global the list does not name. air.normalize_function_constant_predicate
// (.i8, .i1) is read as normalizing a bool to 0 or 1 (x != 0), the identity
// on the 0 and 1 the corpus gives it.
//
// Conditional arguments (conditional.go, staticinit.go). An argument or
// output with the key air.function_constant exists only when its predicate,
// a bool global the static initializer computes from the function
// constants, holds. The reference evaluates the initializer's straight-line
// integer code in Go with the contract's values (LLVM's semantics; what it
// cannot evaluate leaves a predicate unknown, set aside naming why) and the
// host module checks the result with a constructor of its own (exit 11 on a
// difference). A present argument is read as any; an absent one gets null
// or zero and an absent output is none. Kernel.Conditional lists them.
// When the contract's values put two present arguments on one slot (bools
// meant to be exclusive, all true), the function-constant search
// (fcsearch.go) tries, on the AIR alone, the assignments nearest the
// contract — the bool constants the contested predicates' initializer reads
// turned false, one, then two, …, lowest indices first — and keeps the
// first that leaves no shared slot; its words are the Kernel.FunctionConstants
// the host module and the device are specialized with, and
// Kernel.FunctionConstantSearch names it. When none does, the shared slot
// is set aside by name, saying how many were tried.
//
// What it cannot judge, and says so with a *NotJudgeableError (Kind, Detail,
// Reason) rather than answering: textures it does not give and constexpr
// samplers (above), barriers other than air.wg.barrier, threadgroup-memory
// arguments (air.threadgroup: their size is the dispatch's), barrier
// divergence and outputs that depend on unwritten threadgroup memory or on
// thread order (below), SIMD-group values and operations it does not run
// (below), function constants of the kinds above, other stages (object, mesh,
// visible functions), a discard declared otherwise than void(), derivatives of values that may
// depend on the pixel (above), argument roles it cannot
// supply, operations Metal does not define to the bit (ApproximateOps; the
// order-only ones, OrderOnlyOps, are run and reported instead),
// air.* operations it does not define (KindUnknownOp), kernels that go out of
// bounds, trap or do not finish on the pattern-filled inputs, and modules llc
// refuses. A missing tool is ErrUnavailable, never a verdict.
//
// Circularity (seed 003 §4, item 4). Defining air.* operations here would put
// this package's reading of each name on both sides of the comparison if the
// translator's author and this one shared a belief about what a name means.
// The operations defined (ExactOps) are limited to those whose Metal meaning
// is a C or IEEE 754 function fixed to the bit — conversions (round to
// nearest even; float→integer round toward zero, saturating, NaN→0), integer
// min/max, fmin/fmax (C fminf/fmaxf), fabs/floor/ceil/trunc/rint/round (C),
// saturate/clamp, fma (one rounding) and 32-bit global atomics (serial
// execution makes them trivially atomic) — and each is an LLVM instruction or
// intrinsic, so LLVM's definition, not ours, computes the answer. Two of those
// readings are choices, and are said here: float→integer outside the target's
// range (Metal leaves it undefined; a mismatch there is a false red, never a
// false green), and fast_fmin/fast_fmax on NaN (fast math lets Metal differ).
// Everything transcendental, square roots, divisions and length/normalize/
// distance (ApproximateOps) are set aside as KindApproximate: no verdict is
// ever based on them.
//
// Order-only operations (orderonly.go). dot, mix, cross, length_squared and
// distance_squared (OrderOnlyOps) are approximate only in that Metal leaves
// open the order and fusing of their IEEE additions and multiplications; the
// specification gives each as a formula (dot(a, b) = Σ a[i]·b[i]; mix(x, y,
// a) = x + (y − x)·a; cross; length_squared(x) = dot(x, x); distance_squared
// (a, b) = length_squared(a − b)). The reference defines them, on the
// module's own declaration types (float and half, scalars and vectors of 2 to
// 4 lanes, fast_ variants alike), in one canonical order: plain fmul, fadd
// and fsub without fast-math flags, each rounded once, sums left to right
// from the first product (((p0 + p1) + p2) + p3, so −0 products sum to −0),
// nothing fused; cross lane i is a[i+1]·b[i+2] − a[i+2]·b[i+1]. With
// Options.FuseMulAdd llc may fuse them like any other multiply-add; the
// definitions carry no contract flag of their own. Result.Approximate names,
// as declared, the order-only operations a module declares: the stage then
// compares its float outputs within a documented ULP bound (see stages and
// docs/codes.md), never bit for bit, and never claims a bit-exact pass;
// integer words and untouched buffer words are still compared exactly. Two
// readings are choices: the ULP bound presumes the specification's formula
// (a GPU computing mix as x·(1 − a) + y·a can differ by more, a false red,
// never a false green), and mix with a outside [0, 1], which Metal leaves
// undefined, is computed by the same formula (a mismatch there is a false
// red).
//
// Atomics: threads run one after another, so a kernel whose result depends on
// the order its atomics happen in (one that writes the value a fetch-add
// returned, a float atomic sum) can differ from a GPU's run without either
// being wrong. A kernel that declares an air.atomic.* operation, like one
// with barriers or threadgroup memory, is also run with the threads of each
// group in reverse order, which sets such a kernel aside as
// KindOrderDependent ("thread order"); an order that only differs between
// threadgroups still shows as a mismatch (a false red), never as a pass.
//
// Threadgroups (threadgroup.go). A kernel's addrspace(3) globals are its
// threadgroup memory: one region, between inaccessible guard pages, refilled
// before every threadgroup (groups run one after another, each with its own
// copy); their initializers are dropped, since Metal leaves threadgroup memory
// uninitialised. A module that declares air.wg.barrier runs every thread of a
// group on its own stack (ucontext); each runs up to its next barrier or its
// end, and all pass once every thread waits at the same call site with the
// same mem_flags. A thread that ends while another waits, or threads at
// different call sites, is barrier divergence (KindBarrierDivergence).
// air.atomic.local.* are the global atomics on threadgroup pointers. The
// write-conflict check works per segment (a thread's run between barriers):
// two threads of one group changing a byte are ordered only by a barrier
// between them whose mem_flags cover its memory (mem_device buffers,
// mem_threadgroup the threadgroup region, mem_texture writable textures;
// mem_none orders nothing). Such a kernel runs three times — threadgroup
// memory 0x00 then 0xff, then 0x00 with the threads of each segment in
// reverse order — and an output that differs depends on unwritten threadgroup
// memory or on thread order (KindOrderDependent): undefined on a GPU.
//
// SIMD-groups (simd.go). Options.SIMDWidth is the device's SIMD-group
// (subgroup) width W; a simdgroup's lanes are W consecutive threads by
// linear index, which gives the SIMD-group built-ins. Every simd_* call,
// is_uniform and simdgroup_barrier is a rendezvous of the simdgroup's lanes
// at one call site on the cooperative contexts; each lane then computes
// Metal's result from every lane's operand (shuffles, broadcasts,
// reductions, prefix scans, ballots, votes). Lanes that do not all meet
// there are SIMD-group divergence (KindSIMDDivergence); no width, a partial
// simdgroup, a shuffle of a lane outside it, quad-groups and a simdgroup
// matrix origin other than zero are KindSIMDGroup. Float sums and products
// are order-only. An is_uniform whose only use is llvm.assume is an
// assumption (MSL's uniform<T>), not a rendezvous: it is removed
// (simdunread.go). Simdgroup matrices (simdmatrix.go) are defined on the whole
// row-major matrix every lane holds (load, store by lane 0, multiply-accumulate
// in one documented order, order-only).
//
// Pack and unpack (packops.go). air.unpack.{unorm,snorm}{4x8,2x16} are
// Metal's c / (2^n − 1) and max(−1, c / (2^(n−1) − 1)), divided in double
// and rounded once more to float or half, which is correctly rounded for
// every code (tested exhaustively against math/big); air.pack.* are
// intRTNE(clamp(x) · (2^n − 1)) with NaN → 0, the product in float as the
// formula writes it. The sRGB forms go through powr, which Metal bounds
// rather than defines, and are set aside (KindApproximate, naming the
// operation). air.pack.unorm.rgb565.v3f16/.v3f32 (pack565.go) is the unorm
// rule lane by lane at 5, 6 and 5 bits, lane 0 least significant, into a
// ushort. bfloat ↔ half widens to float exactly and rounds once.
//
// The harness defines __truncsfbf2 (float to bfloat, absent from libgcc
// 12) with the rounding compiler/translate/ABI.md gives bfloat.
package cpuref
