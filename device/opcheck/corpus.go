package opcheck

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

// Declaration is one air.* function a corpus declares: its name, its
// LLVM signature and how many distinct modules declare it.
type Declaration struct {
	Name, Signature string
	Modules         int
}

// Scan lists the air.* declarations of every distinct function module
// (by SHA-256 of its bitcode) of the .metallib files under root. A
// library or module that cannot be read is an error: the corpus is
// expected to parse.
func Scan(root string) ([]Declaration, int, error) {
	var libs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".metallib") {
			libs = append(libs, p)
		}
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(libs)
	seen := map[[32]byte]bool{}
	decls := map[string]*Declaration{}
	for _, p := range libs {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, 0, err
		}
		lib, err := mtlb.Parse(data)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %v", p, err)
		}
		for _, f := range lib.Functions {
			raw, err := f.RawBitcode()
			if err != nil {
				return nil, 0, fmt.Errorf("%s %s: %v", p, f.Name, err)
			}
			sum := sha256.Sum256(raw)
			if seen[sum] {
				continue
			}
			seen[sum] = true
			m, err := bitcode.ReadModule(raw)
			if err != nil {
				return nil, 0, fmt.Errorf("%s %s: %v", p, f.Name, err)
			}
			for _, fn := range m.Functions {
				if !fn.IsDeclaration() || !strings.HasPrefix(fn.Name, "air.") {
					continue
				}
				d := decls[fn.Name]
				if d == nil {
					d = &Declaration{Name: fn.Name, Signature: fn.Sig.String()}
					decls[fn.Name] = d
				}
				d.Modules++
			}
		}
	}
	out := make([]Declaration, 0, len(decls))
	for _, d := range decls {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, len(seen), nil
}

// notMath names the air.* declarations that are not math operations and
// why opcheck leaves them to other checks, by the name's first token.
func notMath(name string) string {
	op := strings.SplitN(strings.TrimPrefix(name, "air."), ".", 2)[0]
	switch {
	case strings.HasPrefix(op, "sample_") || strings.HasPrefix(op, "read_texture") || strings.HasPrefix(op, "write_texture") ||
		strings.HasPrefix(op, "gather_") || strings.HasPrefix(op, "get_") || strings.HasPrefix(op, "fence_") || strings.HasPrefix(op, "calculate_"):
		return "texture operation"
	case op == "atomic":
		return "atomic operation"
	case strings.HasPrefix(op, "simd") || strings.HasPrefix(op, "quad_") || op == "is_uniform" || op == "wait_simdgroup_events":
		return "SIMD-group operation"
	case op == "wg" || op == "mem" || strings.HasSuffix(op, "barrier"):
		return "barrier"
	case op == "dfdx" || op == "dfdy" || op == "fwidth":
		return "derivative (needs a fragment quad)"
	case op == "any" || op == "all":
		return "boolean reduction"
	case op == "discard_fragment" || strings.HasPrefix(op, "set_") || op == "intersect" || op == "is_function_constant_defined" ||
		op == "normalize_function_constant_predicate":
		return "not a math operation"
	}
	return ""
}

// Select splits declarations into the operations opcheck evaluates, the
// ones set aside as not math (with the reason), and the math ones it
// cannot evaluate (the reason names the declaration). A declaration whose
// signature is not the one its name implies is refused too.
func Select(decls []Declaration) (ops []*Op, aside map[string]string, unknown map[string]string) {
	aside, unknown = map[string]string{}, map[string]string{}
	for _, d := range decls {
		if why := notMath(d.Name); why != "" {
			aside[d.Name] = why
			continue
		}
		op, err := ParseOp(d.Name)
		if err != nil {
			unknown[d.Name] = err.Error()
			continue
		}
		if d.Signature != "" && d.Signature != op.Signature() {
			unknown[d.Name] = fmt.Sprintf("%s: declared %s, opcheck expects %s", d.Name, d.Signature, op.Signature())
			continue
		}
		ops = append(ops, op)
	}
	return ops, aside, unknown
}

// Builtin is the list of air.* declarations of ../shared/corpus (616
// libraries, 3,407 distinct modules; scanned 2026-12), used when no
// corpus is given. Signatures are left to the names.
var Builtin = []string{
	"air.abs.s.i32", "air.all.v2i1", "air.any.v2i1", "air.atomic.global.add.f32", "air.atomic.global.add.u.i32",
	"air.atomic.global.cmpxchg.weak.i32", "air.atomic.global.load.i32", "air.atomic.global.store.i32",
	"air.clamp.f16", "air.clamp.v3f16", "air.convert.f.bf16.f.f16", "air.convert.f.f16.f.bf16",
	"air.convert.f.f16.s.i32", "air.convert.f.f32.f.f16", "air.convert.f.f32.s.i16", "air.convert.f.f32.s.i32",
	"air.convert.f.f32.u.i1", "air.convert.f.f32.u.i16", "air.convert.f.f32.u.i32",
	"air.convert.f.v2f16.f.v2f32", "air.convert.f.v2f32.f.v2f16", "air.convert.f.v2f32.u.v2i16",
	"air.convert.f.v2f32.u.v2i32", "air.convert.f.v3f32.u.v3i1", "air.convert.f.v3f32.u.v3i16",
	"air.convert.f.v3f32.u.v3i8", "air.convert.f.v4f16.f.v4f32", "air.convert.f.v4f16.u.v4i32",
	"air.convert.f.v4f32.f.v4f16", "air.convert.f.v4f32.u.v4i1", "air.convert.s.i32.f.f16",
	"air.convert.s.i32.f.f32", "air.convert.s.i8.f.f32", "air.convert.u.i1.f.f32", "air.convert.u.i16.f.f16",
	"air.convert.u.i16.f.f32", "air.convert.u.i32.f.f16", "air.convert.u.i32.f.f32", "air.convert.u.i8.f.f32",
	"air.convert.u.v2i1.u.v2i32", "air.convert.u.v2i32.f.v2f32", "air.convert.u.v2i32.u.v2i16",
	"air.convert.u.v2i64.u.v2i16", "air.convert.u.v3i32.f.v3f32", "air.convert.u.v3i32.u.v3i16",
	"air.convert.u.v4i32.f.v4f32", "air.dfdx.v2f32", "air.dfdy.v2f32", "air.discard_fragment", "air.dot.v2f32",
	"air.dot.v3f16", "air.dot.v3f32", "air.dot.v4f16", "air.dot.v4f32", "air.exp2.f32", "air.exp2.v4f16",
	"air.fabs.f16", "air.fabs.f32", "air.fabs.v2f32", "air.fabs.v3f16", "air.fast_acos.f32",
	"air.fast_asin.f32", "air.fast_atan2.f32", "air.fast_ceil.f32", "air.fast_clamp.f32",
	"air.fast_clamp.v2f32", "air.fast_clamp.v3f32", "air.fast_clamp.v4f32", "air.fast_cos.f32",
	"air.fast_exp.f32", "air.fast_exp2.f32", "air.fast_exp2.v2f32", "air.fast_fabs.f32", "air.fast_fabs.v2f32",
	"air.fast_fabs.v3f32", "air.fast_fabs.v4f32", "air.fast_floor.f32", "air.fast_floor.v2f32",
	"air.fast_floor.v3f32", "air.fast_floor.v4f32", "air.fast_fmax.f32", "air.fast_fmax.v2f32",
	"air.fast_fmax.v3f32", "air.fast_fmax.v4f32", "air.fast_fmax3.f32", "air.fast_fmin.f32",
	"air.fast_fmin.v3f32", "air.fast_fmin3.f32", "air.fast_fmod.f32", "air.fast_fmod.v3f32",
	"air.fast_fmod.v4f32", "air.fast_fract.f32", "air.fast_fract.v2f32", "air.fast_log.f32", "air.fast_pow.f32",
	"air.fast_pow.v3f32", "air.fast_powr.v3f32", "air.fast_round.f32", "air.fast_round.v2f32",
	"air.fast_rsqrt.f32", "air.fast_saturate.f32", "air.fast_saturate.v2f32", "air.fast_saturate.v4f32",
	"air.fast_sin.f32", "air.fast_sincos.f32", "air.fast_sqrt.f32", "air.fast_sqrt.v3f32", "air.fast_tan.f32",
	"air.floor.f32", "air.fma.f32", "air.fma.v2f32", "air.fmax.f16", "air.fmax.f32", "air.fmax.v3f16",
	"air.fmax3.f16", "air.fmin.f16", "air.fmin.f32", "air.fmin.v2f16", "air.fmin.v3f16", "air.fmin3.f16",
	"air.fwidth.v2f32", "air.gather_texture_2d.v4f16", "air.get_depth_texture_3d",
	"air.get_function_pointer_visible_function_table", "air.get_height_texture_2d",
	"air.get_height_texture_2d_array", "air.get_height_texture_2d_ms", "air.get_height_texture_3d",
	"air.get_height_texture_cube", "air.get_null_intersection_function_table",
	"air.get_num_samples_texture_2d_ms", "air.get_read_sampler", "air.get_width_texture_2d",
	"air.get_width_texture_2d_array", "air.get_width_texture_2d_ms", "air.get_width_texture_3d",
	"air.get_width_texture_cube", "air.intersect.instancing.triangle_data", "air.is_function_constant_defined",
	"air.is_uniform.i1", "air.is_uniform.i32", "air.max.s.i32", "air.max.u.v2i16", "air.max.u.v3i16",
	"air.min.s.i32", "air.min.u.i32", "air.mix.f16", "air.mix.f32", "air.mix.v2f16", "air.mix.v2f32",
	"air.mix.v3f32", "air.mix.v4f32", "air.normalize_function_constant_predicate.i8", "air.pack.snorm4x8.v4f32",
	"air.pack.unorm4x8.srgb.v4f32", "air.pack.unorm4x8.v4f32", "air.read_texture_2d.s.v4i32",
	"air.read_texture_2d.u.v4i32", "air.read_texture_2d.v4f32", "air.read_texture_2d_array.s.v4i32",
	"air.read_texture_2d_array.u.v4i32", "air.read_texture_2d_array.v4f32", "air.read_texture_2d_ms.s.v4i32",
	"air.read_texture_2d_ms.u.v4i32", "air.read_texture_2d_ms.v4f32", "air.read_texture_3d.s.v4i32",
	"air.read_texture_3d.u.v4i32", "air.read_texture_3d.v4f32", "air.read_texture_cube.s.v4i32",
	"air.read_texture_cube.u.v4i32", "air.read_texture_cube.v4f32", "air.rsqrt.f32", "air.sample_depth_2d.f32",
	"air.sample_texture_1d.v4f32", "air.sample_texture_1d_array.v4f16", "air.sample_texture_1d_array.v4f32",
	"air.sample_texture_2d.s.v4i32", "air.sample_texture_2d.u.v4i32", "air.sample_texture_2d.v4f16",
	"air.sample_texture_2d.v4f32", "air.sample_texture_2d_array.s.v4i32", "air.sample_texture_2d_array.u.v4i32",
	"air.sample_texture_2d_array.v4f32", "air.sample_texture_2d_grad.v4f32", "air.sample_texture_3d.s.v4i32",
	"air.sample_texture_3d.u.v4i32", "air.sample_texture_3d.v4f32", "air.sample_texture_cube.s.v4i32",
	"air.sample_texture_cube.u.v4i32", "air.sample_texture_cube.v4f16", "air.sample_texture_cube.v4f32",
	"air.sample_texture_cube_array.v4f32", "air.set_index_mesh", "air.set_position_mesh",
	"air.set_primitive_count_mesh", "air.sign.f32", "air.sign.v2f32", "air.sign.v3f16", "air.simd_ballot.i64",
	"air.simd_broadcast_first.f16", "air.simd_broadcast_first.f32", "air.simd_max.f16", "air.simd_max.f32",
	"air.simd_min.f16", "air.simd_min.f32", "air.simd_shuffle_down.f16", "air.simd_shuffle_down.f32",
	"air.simd_shuffle_down.s.i16", "air.simd_shuffle_down.s.i32", "air.simd_shuffle_down.s.i8",
	"air.simd_shuffle_down.u.i16", "air.simd_shuffle_down.u.i32", "air.simd_shuffle_down.u.i8",
	"air.simd_shuffle_down.u.v2i32", "air.simd_shuffle_xor.f32", "air.simd_sum.f32", "air.simd_sum.u.i16",
	"air.simd_vote_all.i64", "air.simdgroup.barrier", "air.simdgroup_async_copy_1d.p3i8.p1i8",
	"air.simdgroup_async_copy_2d.p1i8.p3i8", "air.simdgroup_async_copy_2d.p3i8.p1i8",
	"air.simdgroup_matrix_8x8_load.v64f16.p1f16",
	"air.simdgroup_matrix_8x8_multiply_accumulate.v64f16.v64f16.v64f16.v64f16",
	"air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f16.v64f16.v64f32",
	"air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f16.v64f32",
	"air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f32.v64f32",
	"air.simdgroup_matrix_8x8_store.v64f16.p3f16", "air.sqrt.f16", "air.sqrt.f32", "air.unpack.snorm4x8.v4f32",
	"air.unpack.unorm4x8.srgb.v4f32", "air.unpack.unorm4x8.v4f16", "air.unpack.unorm4x8.v4f32",
	"air.wait_simdgroup_events", "air.wg.barrier", "air.write_texture_2d.i16.v4f32",
	"air.write_texture_2d.s.v4i32", "air.write_texture_2d.u.v4i32", "air.write_texture_2d.v4f32",
	"air.write_texture_2d_array.i16.v4f32", "air.write_texture_2d_array.s.v4i32",
	"air.write_texture_2d_array.u.v4i32", "air.write_texture_2d_array.v4f32", "air.write_texture_3d.i16.v4f32",
	"air.write_texture_3d.s.v4i32", "air.write_texture_3d.u.v4i32", "air.write_texture_3d.v4f32",
	"air.write_texture_cube.i16.v4f32", "air.write_texture_cube.s.v4i32", "air.write_texture_cube.u.v4i32",
	"air.write_texture_cube.v4f32",
}

// BuiltinDeclarations is Builtin as declarations (no signature, no counts).
func BuiltinDeclarations() []Declaration {
	out := make([]Declaration, len(Builtin))
	for i, n := range Builtin {
		out[i] = Declaration{Name: n}
	}
	return out
}
