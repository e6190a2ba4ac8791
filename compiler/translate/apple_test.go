package translate

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// appleForms is what the translator does with each Apple-shaped fixture
// (issue 16): nil findings means carried (spirv-val accepts the module),
// otherwise exactly these findings, each naming the form.
var appleForms = map[string][]string{
	"apple_pack565.ll":      nil,
	"apple_null_texture.ll": nil,
	"apple_fnconst_vec.ll":  {"translate/unsupported-interface function constant @_ZN4mtlk12shader_stateE.MTL_FC_INIT_0_Dv4_j of Metal type uint4"},
	"apple_get_null_texture.ll": {
		"translate/unhandled-intrinsic air.get_null_texture_2d",
		"translate/unhandled-instruction pointer from *air.Argument",
		"translate/unhandled-instruction pointer from call",
		"translate/unhandled-intrinsic air.is_null_texture_2d",
	},
	"apple_indirect_buffer.ll":         {"translate/unsupported-interface air.indirect_buffer"},
	"apple_intwidth.ll":                nil,
	"apple_intwidth_intrinsic.ll":      {"translate/unhandled-intrinsic llvm.ctlz.i3"},
	"apple_intwidth_memory.ll":         {"translate/unsupported-type load of i3", "translate/unsupported-type store of i3"},
	"apple_render_target_unindexed.ll": {"translate/unsupported-interface air.render_target -1"},
	"apple_texture_unindexed.ll": {
		"translate/unsupported-interface air.texture index -1",
		"translate/unhandled-instruction texture function on a non-texture argument",
	},
	"apple_visible_fn_ref.ll": {
		"translate/unhandled-instruction external global @custom_fn.MTL_VISIBLE_FN_REF",
		"translate/unhandled-instruction call (indirect)",
		"translate/unhandled-instruction load of a pointer",
	},
	"apple_cmdbuf.ll": {
		"translate/unhandled-intrinsic llvm.cil.get.cmd.buffer.gpu.addr.p1",
		"translate/unhandled-instruction inttoptr",
		"translate/unhandled-instruction pointer from inttoptr",
		"translate/unhandled-instruction ptrtoint",
	},
	"apple_ptrint.ll": {
		"translate/unhandled-instruction ptrtoint",
		"translate/unhandled-instruction inttoptr",
		"translate/unhandled-instruction pointer from inttoptr",
	},
}

// TestAppleForms: every apple_*.ll fixture is listed, and translates as
// listed — carried and accepted by spirv-val, or refused with exactly the
// findings that name its form.
func TestAppleForms(t *testing.T) {
	needValidator(t)
	files, _ := filepath.Glob("testdata/apple_*.ll")
	if len(files) != len(appleForms) {
		t.Errorf("%d apple_*.ll fixtures, %d listed", len(files), len(appleForms))
	}
	for _, f := range files {
		name := filepath.Base(f)
		want, listed := appleForms[name]
		if !listed {
			t.Errorf("%s: not listed", name)
			continue
		}
		m, ep := fixtureEntry(t, name)
		out, err := Translate(m, ep)
		var got []string
		var miss *MissingError
		switch {
		case errors.As(err, &miss):
			for _, x := range miss.Missing {
				got = append(got, x.String())
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: findings %q, want %q", name, got, want)
			continue
		}
		if want == nil {
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				t.Errorf("%s: spirv-val: %v", name, err)
			}
		}
	}
}

// TestIsNullTextureBound: is_null_texture of a bound texture is the
// constant false, so the kernel's null branch (the 7.0) is dead; a
// translation that answered true would store 7.0 (tested by the
// disassembly: the branch condition is OpConstantFalse).
func TestIsNullTextureBound(t *testing.T) {
	needValidator(t)
	out := translatedFixture(t, "apple_null_texture.ll")
	cmd := exec.Command("spirv-dis", "--raw-id", "-")
	cmd.Stdin = bytes.NewReader(out.SPIRV)
	text, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text, []byte("OpConstantFalse")) || bytes.Contains(text, []byte("OpConstantTrue")) {
		t.Errorf("is_null_texture of a bound texture is not the constant false:\n%s", text)
	}
}
