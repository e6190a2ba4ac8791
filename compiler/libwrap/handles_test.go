package libwrap

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
)

// TestHandles: a pointer passed as the texture operand of a 2D float or
// half operation is a texture of the wrapper (index in parameter order,
// access sample when any use samples), the sampler operand of a 2D sample
// a sampler; through a defined callee too. Other texture operations, and
// a handle in another address space, are refused by name.
func TestHandles(t *testing.T) {
	const decls = `declare { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float, float, i32)
declare { <4 x half>, i8 } @air.read_texture_2d.v4f16(ptr addrspace(1), <2 x i32>, i32, i32)
declare <4 x float> @air.sample_texture_cube.v4f32(ptr addrspace(1), ptr addrspace(2), <3 x float>, i1, float)
`
	for _, c := range []struct {
		name, ll string
		roles    []string // role:type:index per slot, "" for a refusal
		refused  string
	}{
		{"sampled texture and sampler", `define <4 x float> @f(ptr addrspace(1) %t, ptr addrspace(2) %s, <2 x float> %p) {
  %r = call { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1) %t, ptr addrspace(2) %s, <2 x float> %p, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.0, float 0.0, i32 0)
  %v = extractvalue { <4 x float>, i8 } %r, 0
  ret <4 x float> %v
}`, []string{"texture:texture2d<float, sample>:0", "sampler:sampler:0", "value:<2 x float>:-1", "result:<4 x float>:-1"}, ""},
		{"read half texture through a helper", `define internal <4 x half> @g(ptr addrspace(1) %u) {
  %r = call { <4 x half>, i8 } @air.read_texture_2d.v4f16(ptr addrspace(1) %u, <2 x i32> zeroinitializer, i32 0, i32 0)
  %v = extractvalue { <4 x half>, i8 } %r, 0
  ret <4 x half> %v
}
define <4 x half> @f(ptr addrspace(1) %a, ptr addrspace(1) %b) {
  %x = call <4 x half> @g(ptr addrspace(1) %a)
  %y = call <4 x half> @g(ptr addrspace(1) %b)
  %z = fadd <4 x half> %x, %y
  ret <4 x half> %z
}`, []string{"texture:texture2d<half, read>:0", "texture:texture2d<half, read>:1", "result:<4 x half>:-1"}, ""},
		{"cube texture", `define <4 x float> @f(ptr addrspace(1) %t, ptr addrspace(2) %s) {
  %v = call <4 x float> @air.sample_texture_cube.v4f32(ptr addrspace(1) %t, ptr addrspace(2) %s, <3 x float> zeroinitializer, i1 true, float 0.0)
  ret <4 x float> %v
}`, nil, "handle passed to @air.sample_texture_cube.v4f32"},
		{"texture in the sampler's address space", `define <4 x half> @f(ptr addrspace(2) %t) {
  %r = call { <4 x half>, i8 } @air.read_texture_2d.v4f16(ptr addrspace(2) %t, <2 x i32> zeroinitializer, i32 0, i32 0)
  %v = extractvalue { <4 x half>, i8 } %r, 0
  ret <4 x half> %v
}`, nil, "handle in address space 2"},
	} {
		ll := header + decls + c.ll
		if c.name == "texture in the sampler's address space" {
			ll = header + `declare { <4 x half>, i8 } @air.read_texture_2d.v4f16(ptr addrspace(2), <2 x i32>, i32, i32)
` + c.ll
		}
		m := assemble(t, ll)
		w, err := Wrap(m, m.Function("f"), Extern)
		if c.refused != "" {
			e, ok := err.(*Error)
			if !ok || e.Code != CodeInterface || e.Detail != c.refused {
				t.Errorf("%s: %v, want %s %q", c.name, err, CodeInterface, c.refused)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, s := range w.Layout.Slots {
			got = append(got, s.Role+":"+s.Type+":"+itoa(s.Buffer))
		}
		if len(got) != len(c.roles) {
			t.Errorf("%s: slots %q, want %q", c.name, got, c.roles)
			continue
		}
		for i := range got {
			if got[i] != c.roles[i] {
				t.Errorf("%s: slots %q, want %q", c.name, got, c.roles)
				break
			}
		}
		if err := air.Verify(w.Module); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		textures := 0
		for _, in := range w.EntryPoint.Inputs {
			if in.Role == "air.texture" || in.Role == "air.sampler" {
				textures++
			}
		}
		if want := len(c.roles) - 1 - countRole(c.roles, "value"); textures != want {
			t.Errorf("%s: %d texture and sampler arguments on the wrapper, want %d", c.name, textures, want)
		}
	}
}

func countRole(roles []string, role string) int {
	n := 0
	for _, r := range roles {
		if len(r) > len(role) && r[:len(role)+1] == role+":" {
			n++
		}
	}
	return n
}
