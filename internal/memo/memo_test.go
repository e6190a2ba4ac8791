package memo

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestAnswers: a kept answer is given to every later caller of its
// key (reused), an answer not kept is worked out again, other keys are
// their own, callers arriving during an attempt wait for it and share it,
// and a panicking attempt wakes its waiters, who then work it out.
func TestAnswers(t *testing.T) {
	var s Answers[int]
	runs := 0
	f := func(v int, keep bool) func() (int, bool) {
		return func() (int, bool) { runs++; return v, keep }
	}
	a, b := "words\x00radv", "words\x00lavapipe"
	if v, reused := s.Do(a, f(7, true)); v != 7 || reused {
		t.Fatalf("first: %d %v", v, reused)
	}
	if v, reused := s.Do(a, f(8, true)); v != 7 || !reused || runs != 1 {
		t.Fatalf("kept: %d %v after %d runs", v, reused, runs)
	}
	if v, _ := s.Do(b, f(9, true)); v != 9 || runs != 2 {
		t.Fatalf("another key: %d after %d runs", v, runs)
	}
	c := "c"
	s.Do(c, f(1, false))
	if v, reused := s.Do(c, f(2, true)); v != 2 || reused || runs != 4 {
		t.Fatalf("not kept: %d %v after %d runs", v, reused, runs)
	}

	// Concurrent callers of one key: one attempt, every caller its answer.
	var n atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]int, 8)
	d := "d"
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = s.Do(d, func() (int, bool) { n.Add(1); <-release; return 42, true })
		}()
	}
	close(release)
	wg.Wait()
	for i, v := range got {
		if v != 42 {
			t.Fatalf("caller %d got %d", i, v)
		}
	}
	if n.Load() != 1 {
		t.Fatalf("%d attempts for one key", n.Load())
	}

	// A panic in the attempt: the panic goes on, and the key is free again.
	e := "e"
	func() {
		defer func() { _ = recover() }()
		s.Do(e, func() (int, bool) { panic("driver") })
	}()
	if v, reused := s.Do(e, f(3, true)); v != 3 || reused {
		t.Fatalf("after a panic: %d %v", v, reused)
	}
}

// TestKey: the same parts make the same key; parts split otherwise, in
// another order, or with another byte make another.
func TestKey(t *testing.T) {
	key := func(parts ...string) string {
		var k Key
		for _, p := range parts {
			k.Part([]byte(p))
		}
		return k.String()
	}
	base := key("ab", "c")
	if key("ab", "c") != base {
		t.Fatal("the same parts, another key")
	}
	for name, k := range map[string]string{
		"split otherwise": key("a", "bc"),
		"reordered":       key("c", "ab"),
		"another byte":    key("ab", "d"),
		"one part more":   key("ab", "c", ""),
		"none":            key(),
	} {
		if k == base {
			t.Errorf("%s: the same key", name)
		}
	}
	var a, b Key
	a.Int(1)
	b.Int(2)
	if a.String() == b.String() {
		t.Error("two integers, one key")
	}
}
