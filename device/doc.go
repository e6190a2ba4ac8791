// Package device drives Vulkan devices for airpipe: it loads the system Vulkan loader at run
// time (purego, no cgo), lists and chooses physical devices, compiles SPIR-V on a compile target
// (RADV's null device for real AMD ISA without hardware, lavapipe) with the driver's ISA
// statistics, and implements the device agreement of seed 001 (align, indirect command buffers,
// fills, split, timeline values, device loss, stop) over Vulkan queues, command buffers,
// timeline semaphores and timestamp queries.
//
// A machine without Vulkan is not an error of the caller: every entry point then returns an
// error wrapping ErrNoVulkan (and ErrUnavailable), and nothing crashes.
//
// Compile stage:
//
//	targets, _ := device.ParseTargets("radv:navi21,lavapipe")
//	c, err := device.OpenChildCompiler(targets[0], []string{os.Args[0], "__compile-child"}, nil)
//	// errors.Is(err, device.ErrUnavailable): the target is absent here
//	st, err := c.CompileCompute(spirv, "main", [3]uint32{})
//	// *DriverError: refused (VkResult, driver message); *CrashError: the driver died
//
// where the program's "__compile-child" subcommand calls ServeCompileChild(os.Stdin,
// os.Stdout). OpenCompiler does the same in-process, without the crash isolation.
//
// Agreement and execution:
//
//	d, _ := device.Open("auto", device.Options{}) // or "lavapipe"
//	p, _ := d.LoadPipeline(spirv, "main")
//	buf, _ := d.NewBuffer(4096)
//	err := d.Run(ctx, p, device.DispatchArgs{Groups: ..., Threads: ..., Bindings: ...})
//	ic, _ := d.ICB(args, []device.Dispatch{...})
//	v, _ := d.Submit(func(enc *device.Encoder, arg any, v uint64) error {
//		if err := enc.Execute(ic); err != nil {
//			return err
//		}
//		return enc.Split(&start, &end)
//	}, nil)
//	err = d.Wait(ctx, v)
//	d.Stop()
//
// Drawing (the emulator's fragment and vertex checks):
//
//	ts, _ := device.FragmentTargets(frag, "main") // one RGBA32 target per colour output, masked
//	px, err := d.Draw(ctx, frag, "main", device.DrawArgs{Width: 4, Height: 4, Targets: ts,
//		Inputs: map[uint32][]uint32{0: {...}}, Bindings: ...}) // pixels per target
//	depth := make([]byte, 4*4*4) // DrawArgs.Depth: filled with the D32_SFLOAT depth words after the draw
//	rec, err := d.CaptureVertices(ctx, vert, "main", device.VertexArgs{Vertices: 3,
//		Attributes: ..., Outputs: []device.VertexOutput{{Location: -1, BuiltIn: 0, Offset: 0}},
//		Stride: 16, Initial: ...}) // per-vertex records, through transform feedback
//
// Textures and timing (the texture contract: uniform content, 4 texels per dimension):
//
//	tex, _ := d.NewTexture(device.TextureSpec{Dim: device.Dim2D, Kind: 'f', Texel: cpuref.TexelWords(i, 'f')})
//	defer tex.Free() // released once the work that uses it has completed
//	var tm device.Timing
//	err := d.Run(ctx, p, device.DispatchArgs{..., Timing: &tm, Bindings: []device.Binding{
//		{Set: 0, Binding: 32, Texture: tex},   // SAMPLED_IMAGE
//		{Set: 0, Binding: 160, Sampler: true}, // SAMPLER: the device's one NEAREST, clamped sampler
//	}})
//	// tm.Start, tm.End: the GPU times of the command buffer (Encoder.Split), 0 without timestamps
//
// Storage textures (Metal write / read_write access; one per call, since shaders change them):
//
//	st, _ := d.NewTexture(device.TextureSpec{Dim: device.Dim2D, Kind: 'f', Texel: cpuref.TexelWords(i, 'f'), Storage: true})
//	defer st.Free()
//	err := d.Run(ctx, p, device.DispatchArgs{..., Bindings: []device.Binding{
//		{Set: 0, Binding: 480 + i, Texture: st}, // STORAGE_IMAGE, GENERAL layout
//	}})
//	texels, err := st.Read(ctx) // 4·4·16 bytes, row-major: cpuref's buffer StorageTextureBase+i
//
// Specialization (Metal function constant k is SpecId 100+k; one 32-bit word each: float bits,
// two's complement, or 0/1 for a bool). A Pipeline builds and caches one VkPipeline per distinct
// threads and specialization; Draw and CaptureVertices take the same field:
//
//	err := d.Run(ctx, p, device.DispatchArgs{..., Specialization: []device.SpecValue{
//		{ID: 100, Word: 1}, {ID: 101, Word: math.Float32bits(0.5)}}})
//	// *ArgumentError: a SpecId twice, a workgroup-size SpecId, a bool not 0/1, a non-32-bit constant
package device
