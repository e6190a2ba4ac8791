declare float @air.fast_sqrt.f32(float)
declare float @air.fma.f32(float, float, float)

define float @g(float %x) {
  %s = call float @air.fast_sqrt.f32(float %x)
  %r = call float @air.fma.f32(float %s, float %x, float 1.0)
  ret float %r
}
