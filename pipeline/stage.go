package pipeline

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Stage is one step of the pipeline: a value in one explicit, ordered list.
type Stage[T any] struct {
	// Name is the stage's stable name, used in results and flags.
	Name string
	// Version changes whenever the stage's behaviour changes; it is part of
	// every cache key.
	Version string
	// Workers bounds the stage's pool; 0 means the engine's default.
	Workers int
	// Timeout bounds one item's run of this stage; 0 means the engine's default.
	Timeout time.Duration
	// PerOccurrence stages run for every item. The others run once per
	// distinct item key and their results are copied to every item with the
	// same key. Per-occurrence stages must come first in the list.
	PerOccurrence bool
	// Refine, on a shared stage, narrows the item key from this stage on:
	// two items share this stage's result, and every later stage's, only
	// when the engine's Key and every Refine up to here agree on them. A
	// stage whose outcome depends on more than what Key names sets it
	// (translate depends on which function of a module is the entry point,
	// not only on the module's bytes); the stages before it stay shared
	// under the coarser key. It is part of the cache key of the stage and
	// every later one.
	Refine func(item T) string
	// Run does the stage's work for one item. It must respect ctx.
	Run func(ctx context.Context, item T) Result
	// Restore, when set, rebuilds the in-memory artifacts a passed run of
	// the stage leaves for later stages, without judging again (the cached
	// result holds the verdict). With it, a cached stage is not rerun when
	// only a later stage changed; without it, the stage runs again.
	Restore func(ctx context.Context, item T, cached Result) error
	// Needs names the artifacts the stage reads that an earlier stage
	// leaves on the item (translate needs the reader's module). The list is
	// refused at start when no stage before this one Provides a need, so a
	// stage whose input a replaced stage no longer makes fails by name once,
	// not once per item.
	Needs []string
	// Provides names the artifacts a passed run of the stage leaves on the
	// item for later stages. A stage that is skipped keeps its Provides:
	// the stages after it are still listed and say per item what they lack.
	Provides []string
}

// checkStages verifies the list's order invariants, like a compiler's pass
// table: names unique and non-empty, a Run for each, per-occurrence stages
// forming a prefix (without a Refine), and every stage's Needs provided by
// a stage before it (CheckNeeds).
func checkStages[T any](stages []Stage[T]) error {
	seen := map[string]bool{}
	shared := false
	for i, s := range stages {
		switch {
		case s.Name == "":
			return fmt.Errorf("pipeline: stage %d has no name", i)
		case seen[s.Name]:
			return fmt.Errorf("pipeline: stage %q listed twice", s.Name)
		case s.Run == nil:
			return fmt.Errorf("pipeline: stage %q has no Run", s.Name)
		case s.PerOccurrence && shared:
			return fmt.Errorf("pipeline: per-occurrence stage %q comes after a shared stage", s.Name)
		case s.PerOccurrence && s.Refine != nil:
			return fmt.Errorf("pipeline: per-occurrence stage %q has a Refine; it runs for every item anyway", s.Name)
		}
		seen[s.Name] = true
		if !s.PerOccurrence {
			shared = true
		}
	}
	return CheckNeeds(stages)
}

// CheckNeeds reports the first stage of the list one of whose Needs no
// stage before it Provides, naming the stage, the need and, when a later
// stage provides it, that stage (the order is wrong rather than the input
// missing).
func CheckNeeds[T any](stages []Stage[T]) error {
	provided := map[string]bool{}
	for i, s := range stages {
		for _, n := range s.Needs {
			if provided[n] {
				continue
			}
			for _, later := range stages[i+1:] {
				if slices.Contains(later.Provides, n) {
					return fmt.Errorf("pipeline: stage %q needs %s, which only %q after it provides", s.Name, n, later.Name)
				}
			}
			return fmt.Errorf("pipeline: stage %q needs %s, which no stage before it provides", s.Name, n)
		}
		for _, p := range s.Provides {
			provided[p] = true
		}
	}
	return nil
}
