package translate

import (
	"errors"
	"testing"
)

func TestPlanCFG(t *testing.T) {
	tests := []struct {
		name      string
		succ      [][]int
		wantErr   string
		wantSplit int
		loops     int
		sels      int
	}{
		{"straight", [][]int{{1}, {2}, {}}, "", 0, 0, 0},
		{"diamond", [][]int{{1, 2}, {3}, {3}, {}}, "", 0, 0, 1},
		{"if without else", [][]int{{1, 2}, {2}, {}}, "", 0, 0, 1},
		{"nested ifs sharing a merge", [][]int{{1, 3}, {2, 3}, {3}, {}}, "", 0, 0, 1},         // 1 branches to 0's merge: no selection of its own
		{"or of two tests then an if", [][]int{{2, 1}, {2, 4}, {3, 4}, {4}, {}}, "", 1, 0, 2}, // the arms share 2: a dispatch joins them
		{"both arms return", [][]int{{1, 2}, {}, {}}, "", 0, 0, 1},
		{"while loop", [][]int{{1}, {2, 3}, {1}, {}}, "", 0, 1, 1},
		{"do-while loop", [][]int{{1}, {1, 2}, {}}, "", 0, 1, 0},
		{"loop with if in body", [][]int{{1}, {2, 4}, {3, 5}, {5}, {}, {1}}, "", 1, 1, 2},
		{"loop with two latches", [][]int{{1}, {2, 3}, {1, 4}, {1}, {}}, "", 2, 1, 2},
		{"loop with two exits", [][]int{{1}, {2, 3}, {1, 4}, {}, {}}, "", 1, 1, 2},
		{"irreducible", [][]int{{1, 2}, {2}, {1, 3}, {}}, "irreducible", 0, 0, 0},
		{"loop after if", [][]int{{1, 2}, {2}, {2, 3}, {}}, "", 1, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := planCFG(tc.succ)
			if tc.wantErr != "" {
				var ce *cfgError
				if !errors.As(err, &ce) || ce.shape != tc.wantErr {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(p.splits) != tc.wantSplit || len(p.loops) != tc.loops || len(p.selMerge) != tc.sels {
				t.Errorf("splits %d loops %d selections %d, want %d %d %d (succ %v, merges %v)",
					len(p.splits), len(p.loops), len(p.selMerge), tc.wantSplit, tc.loops, tc.sels, p.succ, p.selMerge)
			}
			used := map[int]bool{}
			for _, l := range p.loops {
				if l.merge >= 0 {
					used[l.merge] = true
				}
			}
			for h, m := range p.selMerge {
				if m >= 0 && used[m] {
					t.Errorf("merge %d of %d shared", m, h)
				}
				used[m] = true
			}
		})
	}
}
