package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// spirvAnswers keeps, for one run, a deterministic tool's answer on each
// SPIR-V module it was given, by a key naming everything the answer depends
// on (the words' SHA-256 first). Library variants whose bitcode differs
// only in metadata or a compiler version translate to the same words: on
// the share, 3,370 translations are 1,151 distinct modules. spirv-val and a
// driver's compiler answer the same words the same way, so each distinct
// module is validated and compiled once per target. Only a verdict is kept
// (keep in do): a cancelled, timed-out or crashed attempt is made again by
// the next module that needs it. The engine's own reuse covers identical
// bitcode; this covers identical translations.
type spirvAnswers[V any] struct {
	mu sync.Mutex
	m  map[string]*spirvAnswer[V]
}

// spirvAnswer is one key's answer: done closes once the first attempt
// ends; kept says whether v is the answer or the attempt left none.
type spirvAnswer[V any] struct {
	done chan struct{}
	v    V
	kept bool
}

// spirvKey is the key of words under the given other inputs.
func spirvKey(words []byte, inputs ...string) string {
	sum := sha256.Sum256(words)
	k := hex.EncodeToString(sum[:])
	for _, in := range inputs {
		k += "\x00" + in
	}
	return k
}

// do returns the kept answer for key, or runs f for it: f's answer is kept
// for later callers when keep says it is a verdict. A caller that finds an
// attempt under way waits for it, and runs f itself when that one kept
// nothing. reused says the answer is an earlier module's.
func (s *spirvAnswers[V]) do(key string, f func() (v V, keep bool)) (v V, reused bool) {
	for {
		s.mu.Lock()
		if s.m == nil {
			s.m = map[string]*spirvAnswer[V]{}
		}
		a, found := s.m[key]
		if !found {
			a = &spirvAnswer[V]{done: make(chan struct{})}
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
			// Waiters wake even when f panics (the engine recovers it as
			// this module's failure).
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
