//go:build amd64 || arm64

package vk

import (
	"testing"
	"unsafe"
)

// TestRenderPassSizes pins the render-pass structures' sizes to sizeof of their C
// counterparts in vulkan_core.h on a 64-bit target (natural alignment: pointers and
// 64-bit handles on 8 bytes).
func TestRenderPassSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"AttachmentDescription", unsafe.Sizeof(AttachmentDescription{}), 36},
		{"AttachmentReference", unsafe.Sizeof(AttachmentReference{}), 8},
		{"SubpassDescription", unsafe.Sizeof(SubpassDescription{}), 72},
		{"SubpassDependency", unsafe.Sizeof(SubpassDependency{}), 28},
		{"RenderPassCreateInfo", unsafe.Sizeof(RenderPassCreateInfo{}), 64},
		{"FramebufferCreateInfo", unsafe.Sizeof(FramebufferCreateInfo{}), 64},
		{"RenderPassBeginInfo", unsafe.Sizeof(RenderPassBeginInfo{}), 64},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, C's is %d", c.name, c.got, c.want)
		}
	}
}
