package main

import (
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"
)

// shard is one part of a deterministic split of the inputs: shard i of n
// owns the files whose key hashes to i modulo n. The zero shard owns all.
type shard struct{ i, n int }

// parseShard reads "I/N" (0 <= I < N).
func parseShard(s string) (shard, error) {
	if s == "" {
		return shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return shard{}, fmt.Errorf("%q is not I/N with 0 <= I < N", s)
	}
	return shard{i, n}, nil
}

// name is the shard's file-name form ("" when unsharded).
func (s shard) name() string {
	if s.n <= 1 {
		return ""
	}
	return fmt.Sprintf("%dof%d", s.i, s.n)
}

// owns reports whether key belongs to this shard.
func (s shard) owns(key string) bool {
	if s.n <= 1 {
		return true
	}
	h := fnv.New32a()
	io.WriteString(h, key)
	return int(h.Sum32()%uint32(s.n)) == s.i
}
