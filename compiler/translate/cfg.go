package translate

import (
	"fmt"
	"sort"
)

// The structuriser turns a reducible LLVM CFG into Vulkan's structured
// control flow. It works on an abstract graph: nodes 0..n-1 are the LLVM
// blocks in function order, with successors in terminator operand order;
// it appends synthetic forwarding nodes when one block would otherwise merge
// two constructs (a split: edges from some predecessors into a target are
// routed through a new node, whose phis the emitter forwards). Shapes it
// cannot express are refused with a cfgError naming the shape.
//
// Every loop gets one back edge (extra back edges are split into a single
// latch), one exit block (its merge; several exits are refused), and its
// latch as continue target. Every block with two or more distinct successors
// (other than a latch) is a selection whose merge is its immediate
// post-dominator in its loop's region, where leaving the loop, continuing and
// returning all go to one virtual exit; when that exit is the post-dominator,
// the merge is a fresh unreachable block.

// cfgError is a control-flow shape outside the structured subset.
type cfgError struct{ shape string }

func (e *cfgError) Error() string { return "unsupported control flow: " + e.shape }

// cfgSplit routes the edges from preds into target through node.
type cfgSplit struct {
	node, target int
	preds        []int
	// A clone (clone set) is a copy of target entered from preds; succ is
	// target's successors when it was made.
	clone bool
	succ  []int
	// A dispatch node (target -1) replaces a loop's several exits: the
	// edges from predsOf[i] into targets[i] all enter node, which branches
	// on which exit was taken (a selector phi) to targets[i].
	targets []int
	predsOf [][]int
}

// loopPlan is one loop: its header, merge (-1: none, a fresh unreachable
// block) and continue target (the latch; the header itself for a one-block loop).
type loopPlan struct {
	header, merge, cont int
}

// cfgPlan is the structured shape of one function.
type cfgPlan struct {
	// succ is every node's successors after the splits.
	succ [][]int
	// orig is the number of LLVM blocks; nodes at or above it are synthetic.
	orig int
	// cloneOf maps a duplicated block's node to the LLVM block it copies.
	cloneOf map[int]int
	// folded are the conditional branches whose both targets left a loop
	// and now go to its dispatch node: the exit numbers of the true and
	// false targets (the dispatch's selector is chosen by the condition).
	folded map[int][2]int
	// splits are the synthetic nodes in creation order.
	splits []cfgSplit
	// order is the emission order: reachable nodes in reverse post-order.
	order []int
	// loops by header node.
	loops map[int]*loopPlan
	// selMerge is the merge node of each selection header (-1: a fresh unreachable block).
	selMerge map[int]int
	// reach keeps reachBefore's answers for the graph as it is: emptied
	// when an attempt begins and whenever the graph changes.
	reach map[reachKey]map[int]bool
}

// reachKey is one question to reachBefore.
type reachKey struct {
	b, m          int
	collapseStart bool
}

const maxCFGSplits = 4096

// maxCFGWork bounds iterations × nodes², about two seconds of planning.
const maxCFGWork = 500_000_000

// noExit is collapsedSucc's answer for a loop without an exit: a dead end,
// which is not the virtual exit (that would make it a way out of a construct).
const noExit = -2

func planCFG(succ [][]int) (*cfgPlan, error) {
	p := &cfgPlan{orig: len(succ)}
	p.succ = make([][]int, len(succ))
	for i, s := range succ {
		p.succ[i] = append([]int(nil), s...)
	}
	for iter := 0; ; iter++ {
		if iter > maxCFGSplits+len(succ) {
			return nil, &cfgError{"structuring did not converge"}
		}
		// Each attempt costs about n² (dominators, post-dominators, joins):
		// a hostile graph is refused rather than structured for hours.
		if n := int64(len(p.succ)); int64(iter)*n*n > maxCFGWork {
			return nil, &cfgError{"control flow too large to structure"}
		}
		done, err := p.try()
		if err != nil {
			return nil, err
		}
		if done {
			return p, nil
		}
	}
}

// split adds a node forwarding the edges from preds into target and returns false
// so that planning restarts on the changed graph.
func (p *cfgPlan) split(preds []int, target int) {
	p.reach = nil
	n := len(p.succ)
	p.succ = append(p.succ, []int{target})
	for _, q := range preds {
		for i, s := range p.succ[q] {
			if s == target {
				p.succ[q][i] = n
			}
		}
	}
	p.splits = append(p.splits, cfgSplit{node: n, target: target, preds: append([]int(nil), preds...)})
}

// maxClones bounds how many blocks the structuriser may duplicate.
const maxClones = 64

// cloneShared duplicates block c, a block of b's selection construct that is
// also entered from outside it (the short-circuit shape of `if (a || b)`),
// so that b's preds of c enter a copy of their own. Only a block that
// dominates no other block, heads no loop and is no latch is duplicated:
// its values are then used only in it and in its successors' phis.
func (p *cfgPlan) cloneShared(c int, construct map[int]bool, b int, f *cfgFacts, loops map[int]*loopInfo, loopOf []int) bool {
	if len(p.cloneOf) >= maxClones || loops[c] != nil || loopOf[c] != loopOf[b] || len(p.succ[c]) == 0 {
		return false
	}
	if c >= p.orig {
		if _, ok := p.cloneOf[c]; !ok {
			return false // a synthetic node
		}
	}
	if h := loopOf[c]; h >= 0 && loops[h].latches[0] == c {
		return false
	}
	for y := range f.idom {
		if y != c && f.idom[y] == c {
			return false
		}
	}
	var preds []int
	for _, q := range f.preds[c] {
		if construct[q] || q == b {
			preds = append(preds, q)
		}
	}
	if len(preds) == 0 || len(preds) == len(f.preds[c]) {
		return false
	}
	sort.Ints(preds)
	src := c
	if o, ok := p.cloneOf[c]; ok {
		src = o
	}
	p.reach = nil
	n := len(p.succ)
	p.succ = append(p.succ, append([]int(nil), p.succ[c]...))
	for _, q := range preds {
		for i, s := range p.succ[q] {
			if s == c {
				p.succ[q][i] = n
			}
		}
	}
	if p.cloneOf == nil {
		p.cloneOf = map[int]int{}
	}
	p.cloneOf[n] = src
	p.splits = append(p.splits, cfgSplit{node: n, target: c, preds: preds, clone: true, succ: append([]int(nil), p.succ[c]...)})
	return true
}

// maxLoopExits bounds the exits a dispatch node may join.
const maxLoopExits = 16

// dispatch routes every edge from body into exits through one new node that
// branches to the exit taken, so that a loop has a single exit (its merge)
// or a selection a single merge.
func (p *cfgPlan) dispatch(body map[int]bool, exits []int, f *cfgFacts) {
	p.reach = nil
	d := len(p.succ)
	p.succ = append(p.succ, append([]int(nil), exits...))
	ev := cfgSplit{node: d, target: -1, targets: exits}
	// A conditional branch whose both targets are exits becomes a plain
	// branch to the dispatch; which exit it took is a select on its condition.
	for b := range body {
		s := p.succ[b]
		if len(s) == 2 && s[0] != s[1] && contains(exits, s[0]) && contains(exits, s[1]) {
			if p.folded == nil {
				p.folded = map[int][2]int{}
			}
			p.folded[b] = [2]int{indexOf(exits, s[0]), indexOf(exits, s[1])}
		}
	}
	for _, e := range exits {
		var preds []int
		for _, q := range f.preds[e] {
			if body[q] {
				preds = append(preds, q)
				for i, s := range p.succ[q] {
					if s == e {
						p.succ[q][i] = d
					}
				}
			}
		}
		sort.Ints(preds)
		ev.predsOf = append(ev.predsOf, preds)
	}
	p.splits = append(p.splits, ev)
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// graph facts recomputed on every planning attempt.
type cfgFacts struct {
	n      int
	rpo    []int
	rpoNum []int // -1 when unreachable
	preds  [][]int
	idom   []int
}

func (p *cfgPlan) facts() *cfgFacts {
	n := len(p.succ)
	f := &cfgFacts{n: n, preds: make([][]int, n)}
	f.rpo, f.rpoNum = reversePostorder(p.succ, 0)
	for _, b := range f.rpo {
		for _, s := range p.succ[b] {
			if !contains(f.preds[s], b) {
				f.preds[s] = append(f.preds[s], b)
			}
		}
	}
	f.idom = dominators(f.rpo, f.rpoNum, f.preds)
	return f
}

// reversePostorder walks succ depth first from root (iteratively, so deep
// graphs cannot overflow the stack) and returns the reachable nodes in
// reverse post-order together with each node's index in that order (-1 when
// unreachable; len(succ) entries).
func reversePostorder(succ [][]int, root int) (rpo, rpoNum []int) {
	rpoNum = make([]int, len(succ))
	for i := range rpoNum {
		rpoNum[i] = -1
	}
	var post []int
	visited := make([]bool, len(succ))
	type frame struct{ node, next int }
	stack := []frame{{root, 0}}
	visited[root] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(succ[top.node]) {
			s := succ[top.node][top.next]
			top.next++
			if !visited[s] {
				visited[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.node)
		stack = stack[:len(stack)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		rpoNum[post[i]] = len(rpo)
		rpo = append(rpo, post[i])
	}
	return rpo, rpoNum
}

// dominators is Cooper, Harvey and Kennedy's iterative algorithm over nodes
// in reverse post-order (rpo[0] is the root); unreachable nodes get -1.
func dominators(rpo, rpoNum []int, preds [][]int) []int {
	idom := make([]int, len(rpoNum))
	for i := range idom {
		idom[i] = -1
	}
	if len(rpo) == 0 {
		return idom
	}
	root := rpo[0]
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for rpoNum[a] > rpoNum[b] {
				a = idom[a]
			}
			for rpoNum[b] > rpoNum[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			nd := -1
			for _, q := range preds[b] {
				if rpoNum[q] < 0 || idom[q] < 0 {
					continue
				}
				if nd < 0 {
					nd = q
				} else {
					nd = intersect(q, nd)
				}
			}
			if nd >= 0 && idom[b] != nd {
				idom[b] = nd
				changed = true
			}
		}
	}
	return idom
}

func (f *cfgFacts) dominates(a, b int) bool {
	for {
		if a == b {
			return true
		}
		d := f.idom[b]
		if d < 0 || d == b {
			return false
		}
		b = d
	}
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func distinct(s []int) []int {
	var out []int
	for _, x := range s {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

type loopInfo struct {
	header  int
	latches []int
	body    map[int]bool
	exits   []int
	// parent is the innermost other loop containing the header (-1: none),
	// set once every body is known.
	parent int
}

// try plans the current graph; it returns false after a split (replan).
func (p *cfgPlan) try() (bool, error) {
	p.reach = nil
	f := p.facts()
	// Loops from back edges; a retreating edge that is not a back edge is irreducible.
	loops := map[int]*loopInfo{}
	for _, u := range f.rpo {
		for _, v := range p.succ[u] {
			if f.rpoNum[v] > f.rpoNum[u] {
				continue
			}
			if !f.dominates(v, u) {
				return false, &cfgError{"irreducible"}
			}
			l := loops[v]
			if l == nil {
				l = &loopInfo{header: v, body: map[int]bool{v: true}}
				loops[v] = l
			}
			if !contains(l.latches, u) {
				l.latches = append(l.latches, u)
			}
		}
	}
	headers := make([]int, 0, len(loops))
	for h := range loops {
		headers = append(headers, h)
	}
	sort.Slice(headers, func(i, j int) bool { return f.rpoNum[headers[i]] < f.rpoNum[headers[j]] })
	for _, h := range headers {
		l := loops[h]
		if len(l.latches) > 1 {
			p.split(l.latches, h)
			return false, nil
		}
		work := append([]int(nil), l.latches...)
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if l.body[b] {
				continue
			}
			l.body[b] = true
			work = append(work, f.preds[b]...)
		}
		for b := range l.body {
			for _, s := range p.succ[b] {
				if !l.body[s] && !contains(l.exits, s) {
					l.exits = append(l.exits, s)
				}
			}
		}
		if len(l.exits) > 1 {
			if len(l.exits) > maxLoopExits {
				return false, &cfgError{fmt.Sprintf("loop with %d exits", len(l.exits))}
			}
			for b := range l.body {
				var outs []int
				for _, s := range p.succ[b] {
					if !l.body[s] && !contains(outs, s) {
						outs = append(outs, s)
					}
				}
				if len(outs) > 2 || len(outs) == 2 && len(p.succ[b]) != 2 {
					return false, &cfgError{"block leaving its loop to several exits"}
				}
			}
			exits := append([]int(nil), l.exits...)
			sort.Slice(exits, func(i, j int) bool { return f.rpoNum[exits[i]] < f.rpoNum[exits[j]] })
			p.dispatch(l.body, exits, f)
			return false, nil
		}
		for _, s := range p.succ[l.latches[0]] {
			if s != h && !contains(l.exits, s) {
				return false, &cfgError{"loop latch branching inside its loop"}
			}
		}
	}
	// Each loop's parent (collapsedSucc): nested loops have bodies of
	// different sizes, so the smallest is one loop.
	for _, h := range headers {
		l := loops[h]
		l.parent = -1
		for _, ph := range headers {
			if pl := loops[ph]; ph != h && pl.body[h] && (l.parent < 0 || len(pl.body) < len(loops[l.parent].body)) {
				l.parent = ph
			}
		}
	}
	// Innermost loop of each node: the smallest body containing it (the
	// first in header order among equals), each body walked once.
	loopOf := make([]int, f.n)
	for b := range loopOf {
		loopOf[b] = -1
	}
	for _, h := range headers {
		size := len(loops[h].body)
		for b := range loops[h].body {
			if b >= 0 && b < f.n && (loopOf[b] < 0 || size < len(loops[loopOf[b]].body)) {
				loopOf[b] = h
			}
		}
	}
	ipdom := p.regionPostDominators(f, loops, loopOf)

	p.loops = map[int]*loopPlan{}
	p.selMerge = map[int]int{}
	claimed := map[int]bool{}
	for _, h := range headers {
		claimed[h] = true
		claimed[loops[h].latches[0]] = true
	}
	for _, b := range f.rpo {
		if l := loops[b]; l != nil {
			merge := -1
			if len(l.exits) == 1 {
				merge = l.exits[0]
				if claimed[merge] || !f.dominates(b, merge) {
					var inner []int
					for _, q := range f.preds[merge] {
						if l.body[q] {
							inner = append(inner, q)
						}
					}
					p.split(inner, merge)
					return false, nil
				}
				claimed[merge] = true
			}
			p.loops[b] = &loopPlan{header: b, merge: merge, cont: l.latches[0]}
		}
		if _, ok := p.folded[b]; ok || len(p.succ[b]) < 2 {
			continue
		}
		if h := loopOf[b]; h >= 0 && loops[h].latches[0] == b {
			if len(p.succ[b]) > 2 {
				return false, &cfgError{"switch as loop latch"}
			}
			continue // the latch's branch is the loop's back edge and exit
		}
		if len(p.succ[b]) > 2 {
			// A switch: its cases may not break or continue a loop directly.
			for _, s := range p.regionSucc(b, f.n, loops, loopOf) {
				if s < 0 {
					return false, &cfgError{"switch case leaving its loop"}
				}
			}
		}
		m := ipdom[b]
		if m < 0 {
			m = p.joinIgnoringEarlyReturns(b, f, loops, loopOf)
		}
		if m < 0 {
			p.selMerge[b] = -1
			continue
		}
		if claimed[m] || !f.dominates(b, m) {
			if p.breaksEnclosing(b, f, loops, loopOf) {
				continue // a plain branch: one arm leaves the enclosing selection
			}
			construct := p.reachBefore(b, m, false, loops, loopOf)
			var inner []int
			for _, c := range sortedKeys(construct) {
				if !f.dominates(b, c) {
					if p.cloneShared(c, construct, b, f, loops, loopOf) {
						return false, nil
					}
					if p.selectionDispatch(b, construct, f, loops, loopOf) {
						return false, nil
					}
					return false, &cfgError{"unstructured selection (shared arm)"}
				}
				if contains(p.succ[c], m) {
					inner = append(inner, c)
				}
			}
			sort.Ints(inner)
			p.split(inner, m)
			return false, nil
		}
		if p.armsShare(b, m, f, loops, loopOf) {
			return false, nil
		}
		claimed[m] = true
		p.selMerge[b] = m
	}
	if err := p.verify(f, loops, loopOf); err != nil {
		return false, err
	}
	p.order = f.rpo
	return true, nil
}

// selectionDispatch gives selection b, whose construct holds blocks that
// b does not dominate (arms shared with blocks outside it), one merge: every
// edge from a block b dominates to a block outside that set (the shared
// arms and b's old merge) enters one dispatch node, dominated by b, that
// branches on which edge was taken. Breaks and continues of b's loop stay.
// It returns false when the edges cannot be dispatched.
func (p *cfgPlan) selectionDispatch(b int, construct map[int]bool, f *cfgFacts, loops map[int]*loopInfo, loopOf []int) bool {
	L, latch := loopOf[b], -1
	if L >= 0 {
		latch = loops[L].latches[0]
	}
	body := map[int]bool{}
	for x := range construct {
		if x != latch && f.dominates(b, x) {
			body[x] = true
		}
	}
	return p.dispatchBody(body, b, latch, L, f, loops)
}

// dispatchBody makes every edge that leaves body, other than one to latch
// or (body inside loop L >= 0) a break or a continue of L, enter one
// dispatch node, and reports whether it did. It does not when a block of
// body leaves it by more than two edges, or by two while it has others;
// when the exits are fewer than two (nothing to join) or more than
// maxLoopExits; or when only block b's own edges leave (no progress; b -1
// when body holds no such block).
func (p *cfgPlan) dispatchBody(body map[int]bool, b, latch, L int, f *cfgFacts, loops map[int]*loopInfo) bool {
	var exits []int
	fromOthers := false
	for _, x := range sortedKeys(body) {
		var outs []int
		for _, s := range p.succ[x] {
			if body[s] || s == latch || L >= 0 && (!loops[L].body[s] || s == L) {
				continue
			}
			if !contains(outs, s) {
				outs = append(outs, s)
			}
			fromOthers = fromOthers || x != b
			if !contains(exits, s) {
				exits = append(exits, s)
			}
		}
		if len(outs) > 2 || len(outs) == 2 && len(p.succ[x]) != 2 {
			return false
		}
	}
	if len(exits) < 2 || len(exits) > maxLoopExits || !fromOthers {
		return false
	}
	sort.Slice(exits, func(i, j int) bool { return f.rpoNum[exits[i]] < f.rpoNum[exits[j]] })
	p.dispatch(body, exits, f)
	return true
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// armsShare keeps the arms of two-way selection b (merge m) a tree: when a
// block is reachable from both arms before m (one arm's target entered from
// the other arm too), SPIR-V accepts the edge into the other arm, but
// drivers that parse constructs as a tree (Mesa's) refuse it. The blocks
// before the shared part, b and those only one arm reaches and its target
// dominates, then leave through one dispatch node, the selection's new
// merge, which enters the shared part or m. It reports whether it did.
func (p *cfgPlan) armsShare(b, m int, f *cfgFacts, loops map[int]*loopInfo, loopOf []int) bool {
	arms := distinct(p.succ[b])
	if len(arms) != 2 || contains(arms, m) {
		return false
	}
	L, latch := loopOf[b], -1
	if L >= 0 {
		latch = loops[L].latches[0]
	}
	var regions [2]map[int]bool
	for i, a := range arms {
		if a == latch || L >= 0 && (!loops[L].body[a] || a == L) {
			return false // a break or continue arm
		}
		regions[i] = p.reachBefore(a, m, true, loops, loopOf)
	}
	shared := false
	for x := range regions[0] {
		if regions[1][x] && x != latch {
			shared = true
			break
		}
	}
	if !shared {
		return false
	}
	body := map[int]bool{b: true}
	for i, a := range arms {
		for x := range regions[i] {
			if !regions[1-i][x] && x != latch && f.dominates(a, x) {
				body[x] = true
			}
		}
	}
	return p.dispatchBody(body, -1, latch, L, f, loops)
}

// breaksEnclosing reports whether two-way branch b can stay a plain
// conditional branch, no selection of its own: one of its targets is the
// merge of the innermost selection construct containing b, a structured exit
// of that construct (the `a || b` shape, whose second test branches both
// into the shared arm and past it).
func (p *cfgPlan) breaksEnclosing(b int, f *cfgFacts, loops map[int]*loopInfo, loopOf []int) bool {
	if len(p.succ[b]) != 2 || p.succ[b][0] == p.succ[b][1] {
		return false
	}
	for h := f.idom[b]; h >= 0; h = f.idom[h] {
		if h != loopOf[b] && loopOf[h] != loopOf[b] {
			return false
		}
		if m, ok := p.selMerge[h]; ok && m >= 0 && p.reachBefore(h, m, false, loops, loopOf)[b] {
			// The other target must be b's own: an edge into another arm
			// of h is refused by tree-parsing drivers.
			other := p.succ[b][0]
			if other == m {
				other = p.succ[b][1]
			}
			return contains(p.succ[b], m) && f.dominates(b, other)
		}
		if h == loopOf[b] {
			return false // the innermost construct is b's loop
		}
		if f.idom[h] == h {
			return false
		}
	}
	return false
}

// verify checks the plan against the structured-control-flow rules the
// emitter relies on, so that a shape the planner mishandles is refused by
// name rather than emitted invalid: every block of a selection construct is
// dominated by its header and leaves it only through its merge, a break, a
// continue or a return; a switch's cases do not fall through into each other.
func (p *cfgPlan) verify(f *cfgFacts, loops map[int]*loopInfo, loopOf []int) error {
	for b, m := range p.selMerge {
		construct := p.reachBefore(b, m, false, loops, loopOf)
		latch := -1
		if h := loopOf[b]; h >= 0 {
			latch = loops[h].latches[0]
		}
		for x := range construct {
			if x == latch && x != b {
				continue // a continue
			}
			if !f.dominates(b, x) {
				return &cfgError{"unstructured selection"}
			}
			if x == b {
				continue
			}
			for _, q := range f.preds[x] {
				if !construct[q] {
					return &cfgError{"selection entered from outside"}
				}
			}
		}
		if len(p.succ[b]) <= 2 {
			continue
		}
		cases := distinct(p.succ[b])
		for _, c := range cases {
			if c == m {
				continue
			}
			for x := range p.reachBefore(c, m, true, loops, loopOf) {
				if x != c && contains(cases, x) {
					return &cfgError{"switch case falling through"}
				}
				if !f.dominates(c, x) && x != latch {
					return &cfgError{"switch cases sharing blocks"}
				}
			}
		}
	}
	return nil
}

// regionSucc is b's successors in its loop's region: leaving the loop or
// taking its back edge goes to the virtual exit (-1), and entering an inner
// loop goes to that loop's collapsed node (n + header).
func (p *cfgPlan) regionSucc(b int, n int, loops map[int]*loopInfo, loopOf []int) []int {
	var out []int
	L := loopOf[b]
	for _, s := range p.succ[b] {
		switch {
		case L >= 0 && (!loops[L].body[s] || s == L):
			out = append(out, -1)
		case loops[s] != nil:
			out = append(out, n+s)
		default:
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = append(out, -1)
	}
	return out
}

// collapsedSucc is a collapsed inner loop's successor in its parent's
// region: its exit block, -1 for the virtual exit (the exit leaves the
// parent loop too), or noExit for a loop that never exits.
func collapsedSucc(h int, loops map[int]*loopInfo, loopOf []int, n int) int {
	l := loops[h]
	if len(l.exits) == 0 {
		return noExit
	}
	if len(l.exits) != 1 {
		return -1
	}
	e := l.exits[0]
	// The parent region: the innermost loop containing h other than h.
	parent := l.parent
	if parent >= 0 && (!loops[parent].body[e] || e == parent) {
		return -1
	}
	if loops[e] != nil {
		return n + e
	}
	return e
}

// regionPostDominators returns each node's immediate post-dominator in its
// region graph, or -1 when that is the virtual exit.
func (p *cfgPlan) regionPostDominators(f *cfgFacts, loops map[int]*loopInfo, loopOf []int) []int {
	n := f.n
	exit := 2 * n
	total := 2*n + 1
	succ := make([][]int, total)
	for _, b := range f.rpo {
		for _, s := range p.regionSucc(b, n, loops, loopOf) {
			if s < 0 {
				s = exit
			}
			succ[b] = append(succ[b], s)
		}
		if loops[b] != nil {
			switch s := collapsedSucc(b, loops, loopOf, n); {
			case s == noExit:
			case s < 0:
				succ[n+b] = []int{exit}
			default:
				succ[n+b] = []int{s}
			}
		}
	}
	// Dominators of the reverse graph rooted at the exit.
	rpreds := make([][]int, total) // predecessors in the reverse graph = successors
	rsucc := make([][]int, total)
	for u := range succ {
		for _, v := range succ[u] {
			rsucc[v] = append(rsucc[v], u)
			rpreds[u] = append(rpreds[u], v)
		}
	}
	order, num := reversePostorder(rsucc, exit)
	pdom := dominators(order, num, rpreds)
	out := make([]int, n)
	for b := 0; b < n; b++ {
		d := pdom[b]
		switch {
		case d < 0 || d == exit:
			out[b] = -1
		case d >= n:
			out[b] = d - n // a collapsed loop: its header is the merge
		default:
			out[b] = d
		}
	}
	return out
}

// reachBefore is the set of nodes reachable from b, b included, in b's
// region without passing through m. An inner loop met on the way counts whole
// (its body) and the walk goes on at its exit; with collapseStart, b itself
// is such a loop (a switch case that is a loop header). The answer is kept
// until the graph changes and shared between callers: read only.
func (p *cfgPlan) reachBefore(b, m int, collapseStart bool, loops map[int]*loopInfo, loopOf []int) map[int]bool {
	key := reachKey{b, m, collapseStart}
	if seen, ok := p.reach[key]; ok {
		return seen
	}
	seen := p.reachWalk(b, m, collapseStart, loops, loopOf)
	if p.reach == nil {
		p.reach = map[reachKey]map[int]bool{}
	}
	p.reach[key] = seen
	return seen
}

// reachWalk is reachBefore's walk.
func (p *cfgPlan) reachWalk(b, m int, collapseStart bool, loops map[int]*loopInfo, loopOf []int) map[int]bool {
	n := len(p.succ)
	seen := map[int]bool{}
	seenLoop := map[int]bool{}
	var work []int
	visit := func(s int) {
		if s < 0 {
			return
		}
		h := s
		if s >= n {
			h = s - n
		}
		if h == m {
			return
		}
		if s >= n {
			if !seenLoop[h] {
				seenLoop[h] = true
				for c := range loops[h].body {
					seen[c] = true
				}
				work = append(work, s)
			}
			return
		}
		if !seen[s] {
			seen[s] = true
			work = append(work, s)
		}
	}
	if collapseStart && loops[b] != nil {
		visit(n + b)
	} else {
		seen[b] = true
		work = append(work, b)
	}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x >= n {
			visit(collapsedSucc(x-n, loops, loopOf, n))
			continue
		}
		for _, s := range p.regionSucc(x, n, loops, loopOf) {
			visit(s)
		}
	}
	return seen
}

// joinIgnoringEarlyReturns finds the merge of selection b when the paths
// from b meet only at the virtual exit because some of them return early:
//   - an arm target that b does not dominate is entered from outside b's
//     construct, so it can only be the merge;
//   - otherwise a return reachable from only one arm is an early exit of b's
//     construct and is ignored, and the merge is b's immediate
//     post-dominator among the paths reaching the blocks two arms share;
//   - when the arms share nothing, the one arm that does not only return
//     (if there is exactly one) continues past the selection: its target is
//     the merge.
//
// It returns -1 when there is no merge (a fresh unreachable block then).
func (p *cfgPlan) joinIgnoringEarlyReturns(b int, f *cfgFacts, loops map[int]*loopInfo, loopOf []int) int {
	n := f.n
	exit := 2 * n
	next := func(x int) []int {
		if x >= n {
			s := collapsedSucc(x-n, loops, loopOf, n)
			switch {
			case s == noExit:
				return nil
			case s < 0:
				return []int{exit}
			}
			return []int{s}
		}
		if len(p.succ[x]) == 0 {
			return nil // a return: classified below
		}
		var out []int
		for _, s := range p.regionSucc(x, n, loops, loopOf) {
			if s < 0 {
				s = exit
			}
			out = append(out, s)
		}
		return out
	}
	reach := func(from int) map[int]bool {
		seen := map[int]bool{from: true}
		work := []int{from}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, s := range next(x) {
				if s != exit && !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
		return seen
	}
	var arms []map[int]bool
	var targets, outside []int
	for _, s := range distinct(next(b)) {
		if s == exit {
			continue
		}
		arms = append(arms, reach(s))
		targets = append(targets, s)
		h := s
		if h >= n {
			h -= n
		}
		if !f.dominates(b, h) || h == b {
			outside = append(outside, h)
		}
	}
	if len(outside) == 1 {
		return outside[0]
	}
	if len(arms) < 2 {
		return -1
	}
	shared := map[int]bool{}
	for i := range arms {
		for j := i + 1; j < len(arms); j++ {
			for x := range arms[i] {
				if arms[j][x] {
					shared[x] = true
				}
			}
		}
	}
	if len(shared) == 0 {
		// Which arms go on rather than only return: they reach a loop exit,
		// a continue, or a block outside b's dominance?
		var goOn []int
		for i, a := range arms {
			for x := range a {
				hx := x
				if hx >= n {
					hx -= n
				}
				if contains(next(x), exit) || !f.dominates(b, hx) {
					goOn = append(goOn, targets[i])
					break
				}
			}
		}
		if len(goOn) == 1 {
			m := goOn[0]
			if m >= n {
				m -= n
			}
			return m
		}
		return -1
	}
	all := reach(b)
	// Local graph over the nodes reachable from b, indexed densely; a return
	// reachable from every arm goes to the exit, an early one is a dead end.
	idx := map[int]int{}
	var nodes []int
	for x := range all {
		idx[x] = len(nodes)
		nodes = append(nodes, x)
	}
	ex := len(nodes)
	rsucc := make([][]int, ex+1) // reverse edges: from a node to its predecessors
	for _, x := range nodes {
		succ := next(x)
		if x < n && len(p.succ[x]) == 0 && shared[x] {
			succ = []int{exit}
		}
		for _, s := range succ {
			j := ex
			if s != exit {
				j = idx[s]
			}
			rsucc[j] = append(rsucc[j], idx[x])
		}
	}
	// Dominators of the reverse graph from the exit.
	order, num := reversePostorder(rsucc, ex)
	preds := make([][]int, ex+1) // predecessors in the reverse graph = successors
	for u := range rsucc {
		for _, v := range rsucc[u] {
			preds[v] = append(preds[v], u)
		}
	}
	pdom := dominators(order, num, preds)
	d := pdom[idx[b]]
	if d < 0 || d == ex {
		return -1
	}
	m := nodes[d]
	if m >= n {
		m -= n
	}
	return m
}
