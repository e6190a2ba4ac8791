// Package memo keeps, for one run, the answers of deterministic work by a
// key naming everything an answer depends on, so that identical inputs are
// worked on once: only an answer the worker calls a verdict is kept, and
// callers arriving while an attempt is under way wait for it.
package memo

import "sync"

// Answers maps keys to kept answers. The zero value is ready for use.
type Answers[V any] struct {
	mu sync.Mutex
	m  map[string]*answer[V]
}

// answer is one key's answer: done closes once the first attempt ends;
// kept says whether v is the answer or the attempt left none.
type answer[V any] struct {
	done chan struct{}
	v    V
	kept bool
}

// Do returns the kept answer for key, or runs f for it: f's answer is kept
// for later callers when keep says it is a verdict. A caller that finds an
// attempt under way waits for it, and runs f itself when that one kept
// nothing (a cancelled, timed-out or crashed attempt, or a panic, which
// goes on to Do's caller). reused says the answer is an earlier caller's.
func (s *Answers[V]) Do(key string, f func() (v V, keep bool)) (v V, reused bool) {
	for {
		s.mu.Lock()
		if s.m == nil {
			s.m = map[string]*answer[V]{}
		}
		a, found := s.m[key]
		if !found {
			a = &answer[V]{done: make(chan struct{})}
			s.m[key] = a
		}
		s.mu.Unlock()
		if found {
			<-a.done
			if a.kept {
				return a.v, true
			}
			// The attempt left no answer and dropped itself: run again,
			// unless another caller already is.
			continue
		}
		func() {
			// Waiters wake even when f panics.
			defer func() {
				if !a.kept {
					s.mu.Lock()
					delete(s.m, key)
					s.mu.Unlock()
				}
				close(a.done)
			}()
			a.v, a.kept = f()
		}()
		return a.v, false
	}
}
