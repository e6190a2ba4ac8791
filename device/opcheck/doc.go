// Package opcheck checks every air.* math operation on its own: for each
// operation a corpus declares it generates an AIR kernel that applies the
// operation to edge-case and seeded random arguments read from a buffer,
// translates it with compiler/translate, runs it on a Vulkan device and
// judges each result against the exact value computed in Go (float64,
// math/big where a product must stay exact) within the operation's bound
// from the Metal Shading Language specification's accuracy tables
// (compiler/mathbound holds them, each row citing its table; ops.go adds
// the functions defined by a formula). The result is one Row per operation and device:
// cases, worst distance in ulps, bound, verdict (pass, fail, unbounded,
// refused, error).
package opcheck
