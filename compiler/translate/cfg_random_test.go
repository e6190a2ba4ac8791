package translate

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/device"
)

// randomKernel builds a kernel whose body is the control-flow graph succ
// (no successors: ret; one: br; two: conditional br on a kernel argument
// bit; three or more: switch on the argument).
func randomKernel(succ [][]int) (*air.Module, air.EntryPoint) {
	i1, i32 := &air.IntType{Bits: 1}, &air.IntType{Bits: 32}
	fn := &air.Function{Sig: &air.FunctionType{Ret: air.Void, Params: []air.Type{i32}}}
	fn.Name = "cfg"
	arg := &air.Argument{Typ: i32, Index: 0, Func: fn}
	fn.Args = []*air.Argument{arg}
	for i := range succ {
		fn.Blocks = append(fn.Blocks, &air.Block{Func: fn, Index: i})
	}
	// Every block with predecessors starts with a phi: its predecessor's
	// phi when it has one, else the predecessor's number, so that splits and
	// dispatches must forward values correctly.
	preds := make([][]int, len(succ))
	for i, s := range succ {
		for _, d := range s {
			preds[d] = append(preds[d], i)
		}
	}
	phis := make([]*air.Phi, len(succ))
	for i := range succ {
		if i > 0 && len(preds[i]) > 0 {
			phis[i] = &air.Phi{InstBase: air.InstBase{Typ: i32, Parent: fn.Blocks[i]}}
			fn.Blocks[i].Insts = append(fn.Blocks[i].Insts, phis[i])
		}
	}
	for i := range succ {
		if phis[i] == nil {
			continue
		}
		for _, q := range preds[i] {
			var v air.Value = &air.ConstInt{Typ: i32, Bits: uint64(q)}
			if phis[q] != nil {
				v = phis[q]
			}
			phis[i].Incoming = append(phis[i].Incoming, air.Incoming{Value: v, Block: fn.Blocks[q]})
		}
	}
	// Every reachable block also computes a value from its immediate
	// dominator's value (an SSA use across blocks that no phi carries), so
	// that structuring must keep definitions dominating their uses.
	rpo, rpoNum := reversePostorder(succ, 0)
	idom := dominators(rpo, rpoNum, preds)
	vals := make([]air.Value, len(succ))
	for _, i := range rpo {
		var x air.Value = arg
		if i > 0 && idom[i] >= 0 {
			x = vals[idom[i]]
		}
		add := &air.BinOp{InstBase: air.InstBase{Typ: i32, Parent: fn.Blocks[i]}, Op: air.OpAdd, X: x, Y: &air.ConstInt{Typ: i32, Bits: uint64(i)}}
		fn.Blocks[i].Insts = append(fn.Blocks[i].Insts, add)
		vals[i] = add
	}
	for i, s := range succ {
		bl := fn.Blocks[i]
		switch len(s) {
		case 0:
			bl.Insts = append(bl.Insts, &air.Ret{InstBase: air.InstBase{Typ: air.Void, Parent: bl}})
		case 1:
			bl.Insts = append(bl.Insts, &air.Br{InstBase: air.InstBase{Typ: air.Void, Parent: bl}, True: fn.Blocks[s[0]]})
		case 2:
			bit := &air.BinOp{InstBase: air.InstBase{Typ: i32, Parent: bl}, Op: air.OpAnd, X: arg, Y: &air.ConstInt{Typ: i32, Bits: uint64(1) << uint(i%31)}}
			c := &air.Cmp{InstBase: air.InstBase{Typ: i1, Parent: bl}, Pred: 33, X: bit, Y: &air.ConstInt{Typ: i32}}
			bl.Insts = append(bl.Insts, bit, c, &air.Br{InstBase: air.InstBase{Typ: air.Void, Parent: bl}, Cond: c, True: fn.Blocks[s[0]], False: fn.Blocks[s[1]]})
		default:
			sw := &air.Switch{InstBase: air.InstBase{Typ: air.Void, Parent: bl}, Cond: arg, Default: fn.Blocks[s[0]]}
			for k, d := range s[1:] {
				sw.Cases = append(sw.Cases, air.Case{Value: &air.ConstInt{Typ: i32, Bits: uint64(k + 1)}, Dest: fn.Blocks[d]})
			}
			bl.Insts = append(bl.Insts, sw)
		}
	}
	m := &air.Module{Functions: []*air.Function{fn}}
	ep := air.EntryPoint{Stage: air.Kernel, Function: fn, Inputs: []air.Binding{{Param: 0, Role: "air.thread_position_in_grid", Location: -1, Type: i32}}}
	return m, ep
}

// TestRandomCFGs checks the structuriser's promise on random graphs: every
// graph either translates to SPIR-V that spirv-val accepts or is refused as
// translate/unsupported-cfg; never invalid output.
func TestRandomCFGs(t *testing.T) {
	needValidator(t)
	seed := int64(1)
	if s := os.Getenv("AIRPIPE_CFG_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	rng := rand.New(rand.NewSource(seed))
	n := 300
	if s := os.Getenv("AIRPIPE_CFG_GRAPHS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 40
	}
	var ok, refused int
	shapes := map[string]int{}
	for iter := 0; iter < n; iter++ {
		size := 2 + rng.Intn(11)
		succ := make([][]int, size)
		for i := range succ {
			k := []int{0, 1, 1, 2, 2, 2, 3}[rng.Intn(7)]
			if i == size-1 {
				k = 0
			}
			for j := 0; j < k; j++ {
				// Mostly forward edges, sometimes back edges.
				var d int
				if rng.Intn(4) == 0 {
					d = rng.Intn(i + 1)
				} else {
					d = i + 1 + rng.Intn(size-i-1+boolInt(i == size-1))
					if d >= size {
						d = size - 1
					}
				}
				if d == 0 {
					d = 1 % size // the entry block has no predecessors in LLVM
				}
				succ[i] = append(succ[i], d)
			}
		}
		m, ep := randomKernel(succ)
		out, err := Translate(m, ep)
		var me *MissingError
		if errors.As(err, &me) {
			for _, f := range me.Missing {
				if f.Code != CodeUnsupportedCFG || strings.HasPrefix(f.Detail, "use of") {
					t.Fatalf("graph %v: unexpected finding %v", succ, f)
				}
				shapes[f.Detail]++
			}
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("graph %v: %v", succ, err)
		}
		if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
			var ve *spirv.ValidationError
			if errors.As(err, &ve) {
				t.Fatalf("graph %v: spirv-val rejects: %s", succ, firstErrorLine(ve.Output))
			}
			t.Fatal(err)
		}
		ok++
	}
	t.Logf("%d random graphs: %d valid, %d refused as unsupported-cfg %v", n, ok, refused, shapes)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCFGShapes validates hand-picked shapes that compilers produce.
func TestCFGShapes(t *testing.T) {
	needValidator(t)
	shapes := []struct {
		name string
		succ [][]int
	}{
		{"block leaving its loop to two exits", [][]int{{1}, {2, 3}, {4, 5}, {1}, {}, {}}},
		{"return inside a loop", [][]int{{1}, {2, 4}, {3, 5}, {1}, {}, {}}},
		{"short-circuit or", [][]int{{2, 1}, {2, 3}, {3}, {}}},
		{"short-circuit and", [][]int{{1, 3}, {2, 3}, {3}, {}}},
		{"nested loops with a break out of the inner one", [][]int{{1}, {2, 6}, {3}, {4, 5}, {2, 5}, {1}, {}}},
		{"infinite loop beside a return", [][]int{{1, 2}, {1}, {}}},
		{"switch with a shared default", [][]int{{1, 2, 3}, {4}, {4}, {4}, {}}},
		{"or of two tests then an if", [][]int{{2, 1}, {2, 4}, {3, 4}, {4}, {}}},
		{"shared arm after a nested test, in a loop", [][]int{{1, 2}, {4}, {3, 13}, {11}, {5, 8}, {6, 8}, {7}, {10, 7}, {9}, {10, 9}, {4, 2}, {12, 14}, {15}, {}, {13, 11}, {14, 15}}},
		{"or whose second test skips the shared arm", [][]int{{2, 1}, {2, 3}, {3}, {}}},
		{"a switch's cases sharing a stencil-copy join", [][]int{{1, 20}, {2, 20}, {3, 6}, {4, 6}, {20, 5}, {20, 5}, {19, 7, 8, 9, 10}, {19}, {19}, {19}, {17, 11, 12, 13, 14, 15, 16}, {18}, {18}, {18}, {18}, {18}, {18}, {18}, {19}, {20}, {}}},
		{"a dispatch whose both targets enter a later dispatch", [][]int{{7, 4}, {4, 9}, {8, 9}, {5, 8}, {5, 10}, {10, 5}, {8, 7}, {8, 8, 10}, {9, 3}, {10, 2}, {}}},
	}
	// Mesa parses constructs as a tree (an edge into another arm of a
	// selection is refused although SPIR-V allows it): lavapipe must build
	// every shape too.
	dev, devErr := device.Open("lavapipe", device.Options{})
	if devErr == nil {
		defer func() { _ = dev.Stop() }()
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			m, ep := randomKernel(sh.succ)
			out, err := Translate(m, ep)
			if err != nil {
				t.Fatal(err)
			}
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				t.Fatal(err)
			}
			if devErr != nil {
				t.Skipf("lavapipe: %v", devErr)
			}
			if _, err := dev.LoadPipeline(out.SPIRV, out.Reflection.Entry); err != nil {
				t.Fatalf("lavapipe refuses the structured CFG: %v", err)
			}
		})
	}
}
