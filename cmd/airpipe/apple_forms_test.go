package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
)

// appleFormsCorpus packs the Apple-shaped fixtures with airpipe's own pack
// (issue 16): a Core Image library whose extern (type 5) functions share
// modules, a tracepoint library of data only (its one function typed
// unqualified), and a library of kernels and a fragment function holding
// the interface and operation forms.
func appleFormsCorpus(t *testing.T) string {
	t.Helper()
	as, err := exec.LookPath("llvm-as-19")
	if err != nil {
		t.Skip("llvm-as-19 not installed: cannot assemble the fixtures")
	}
	tmp := t.TempDir()
	bc := func(dir, name string) string {
		out := filepath.Join(tmp, strings.TrimSuffix(name, ".ll")+".bc")
		if msg, err := exec.Command(as, filepath.Join("..", "..", "compiler", dir, "testdata", name), "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("llvm-as-19 %s: %v\n%s", name, err, msg)
		}
		return out
	}
	root := t.TempDir()
	ci, ciN, ciK := bc("libwrap", "ci_sampler.ll"), bc("libwrap", "ci_normalized.ll"), bc("libwrap", "extern_cikernel.ll")
	runOK(t, "pack", "-o", filepath.Join(root, "coreimage.metallib"),
		"_sampleShift:5="+ci, "_destCoord:5="+ci, "_blendOver:5="+ciN, "_colorAbsDiff:5="+ciK, "_max3:5="+ciK, "_threshold:5="+ciK)
	runOK(t, "pack", "-o", filepath.Join(root, "tracepoint_rt.metallib"), "__tracepoint_data:3="+bc("libwrap", "data_only.ll"))
	var forms []string
	for _, f := range []string{"apple_pack565", "apple_null_texture", "apple_intwidth", "apple_indirect_buffer", "apple_cmdbuf", "apple_visible_fn_ref", "apple_fnconst_vec", "apple_texture_unindexed"} {
		forms = append(forms, f+":kernel="+bc("translate", f+".ll"))
	}
	forms = append(forms, "apple_render_target_unindexed:fragment="+bc("translate", "apple_render_target_unindexed.ll"))
	runOK(t, append([]string{"pack", "-o", filepath.Join(root, "forms.metallib")}, forms...)...)
	return root
}

// TestAppleFormsEndToEnd: through container, reader (llvm-dis agreeing)
// and translate, every row of the Apple-shaped libraries gets its own
// verdict: Core Image kernels translate behind the wrapper except the
// destination, refused by name; the tracepoint library is unjudged as data
// only; each interface form is carried or refused by its exact name.
func TestAppleFormsEndToEnd(t *testing.T) {
	root := appleFormsCorpus(t)
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", "--json", "--oracle", "llvm-dis",
		"--stages", "container,reader,translate", root)
	_, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]string{
		"_sampleShift":                  {"passed", "", ""},
		"_blendOver":                    {"passed", "", ""},
		"_colorAbsDiff":                 {"passed", "", ""},
		"_max3":                         {"passed", "", ""},
		"_threshold":                    {"passed", "", ""},
		"_destCoord":                    {"failed", "translate/library-interface", `parameter %"struct.coreimage::destination"`},
		"__tracepoint_data":             {"unjudged", "translate/data-only", "globals only"},
		"apple_pack565":                 {"passed", "", ""},
		"apple_null_texture":            {"passed", "", ""},
		"apple_intwidth":                {"passed", "", ""},
		"apple_indirect_buffer":         {"failed", "translate/unsupported-interface", "air.indirect_buffer"},
		"apple_cmdbuf":                  {"failed", "translate/unhandled-intrinsic", "llvm.cil.get.cmd.buffer.gpu.addr.p1"},
		"apple_visible_fn_ref":          {"failed", "translate/unhandled-instruction", "external global @custom_fn.MTL_VISIBLE_FN_REF"},
		"apple_fnconst_vec":             {"failed", "translate/unsupported-interface", "function constant @_ZN4mtlk12shader_stateE.MTL_FC_INIT_0_Dv4_j of Metal type uint4"},
		"apple_texture_unindexed":       {"failed", "translate/unsupported-interface", "air.texture index -1"},
		"apple_render_target_unindexed": {"failed", "translate/unsupported-interface", "air.render_target -1"},
	}
	if len(rows) != len(want) {
		t.Errorf("%d rows, want %d", len(rows), len(want))
	}
	for _, r := range rows {
		w, ok := want[r.Function]
		if !ok {
			t.Errorf("unexpected row %s!%s", r.Source, r.Function)
			continue
		}
		if r.ReaderStatus != "passed" {
			t.Errorf("%s: reader %s (%s %s): the reader must read it and llvm-dis agree", r.Function, r.ReaderStatus, r.FailureCode, r.FailureDetail)
			continue
		}
		code, detail := r.FailureCode, r.FailureDetail
		if r.TranslateStatus == "unjudged" {
			// A row set aside keeps its code and message as its reason.
			code, _, _ = strings.Cut(r.StatusReason, ": ")
			if strings.Contains(r.StatusReason, "("+w[2]+":") {
				detail = w[2]
			}
		}
		if r.TranslateStatus != w[0] || code != w[1] || detail != w[2] {
			t.Errorf("%s: translate %s %s %q, want %s %s %q", r.Function, r.TranslateStatus, code, detail, w[0], w[1], w[2])
		}
	}
}
