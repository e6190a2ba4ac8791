package device

// matchAliased says whether a texture made from spec may be bound at b when
// several variables of the module alias b's set and binding (Metal's
// conditional arguments sharing a texture index under predicates that
// exclude each other, one variable per argument): Vulkan requires the view
// to match the OpTypeImage of the variable the shader accesses it through
// (vkCmdDispatch/vkCmdDraw VUID viewType-07752, "accessed as a result of
// this command"), not every variable declared on the binding. So the
// texture must match b's image or that of another variable on the same
// binding; matchImage's error for b otherwise.
func matchAliased(declared []spirvBinding, b spirvBinding, spec TextureSpec) error {
	err := matchImage(b.Image, spec)
	if err == nil {
		return nil
	}
	for _, o := range declared {
		if o.Set == b.Set && o.Binding == b.Binding && o.Type == b.Type && matchImage(o.Image, spec) == nil {
			return nil
		}
	}
	return err
}
