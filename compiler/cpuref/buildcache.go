package cpuref

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
)

// Library variants whose bitcode differs only in metadata (a compiler
// version, a source file name, compile options) rewrite to host modules
// that differ only there: on the share, 5,201 reference builds are 2,853
// distinct once that is set aside. So a process keeps each built kernel's
// object by buildKey — the text llc reads for code, without what it never
// reads — and a build of the same key writes the kept bytes instead of
// compiling again (builtKernels, at most builtKernelBytes:
// with the engine's own memory that keeps a whole run under 1 GiB).

// builtKernelBytes bounds the objects kept in memory; past it the
// oldest go first.
const builtKernelBytes = 32 << 20

// builtKernels is the process's kept kernels.
var builtKernels = &kernelCache{max: builtKernelBytes}

// numberedNode matches a numbered metadata node's definition, capturing its
// id ("!12 = ..." or "!12 = distinct ...").
var numberedNode = regexp.MustCompile(`^(![0-9]+) = `)

// nodeRef matches a reference to a numbered metadata node.
var nodeRef = regexp.MustCompile(`![0-9]+\b`)

// dbgAttachment matches an instruction's debug location.
var dbgAttachment = regexp.MustCompile(`, !dbg ![0-9]+\b`)

// buildKey names what llc and the linker make of host (fuse: the fused
// build): every line but the module's ID comment, its source file name,
// named metadata other than llvm.*'s (AIR's !air.* lists, which no LLVM
// pass or backend reads) and !llvm.ident (the .comment section's producer
// string), and numbered metadata nodes nothing kept refers to, directly or
// through other nodes. A host with a debug-info compile unit also loses
// its debug locations, llvm.dbg.* calls and !llvm.dbg.* lists: build
// removes its debug info before code generation either way (marked as of an
// old version, or opt-19 --strip-debug). Two hosts with one key differ only
// in what llc does not read for code, so they build to interchangeable
// objects.
func buildKey(host string, fuse bool) string {
	debug := strings.Contains(host, "\n!llvm.dbg.cu = ")
	nodes := map[string]string{}
	var order []string
	var kept []string
	for _, l := range strings.Split(host, "\n") {
		switch {
		case strings.HasPrefix(l, "; ModuleID = "), strings.HasPrefix(l, "source_filename = "):
			continue
		case strings.HasPrefix(l, "!"):
			if m := numberedNode.FindStringSubmatch(l); m != nil {
				nodes[m[1]] = l
				order = append(order, m[1])
				continue
			}
			if !strings.HasPrefix(l, "!llvm.") || strings.HasPrefix(l, "!llvm.ident = ") || debug && strings.HasPrefix(l, "!llvm.dbg.") {
				continue // named metadata code generation does not read
			}
		case debug && strings.Contains(l, "@llvm.dbg."):
			continue // a debug intrinsic's call or declaration
		case debug && strings.Contains(l, ", !dbg !"):
			l = dbgAttachment.ReplaceAllString(l, "")
		}
		kept = append(kept, l)
	}
	reached := map[string]bool{}
	var queue []string
	for _, l := range kept {
		if strings.Contains(l, "!") {
			queue = append(queue, nodeRef.FindAllString(l, -1)...)
		}
	}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		def, ok := nodes[id]
		if !ok || reached[id] {
			continue
		}
		reached[id] = true
		queue = append(queue, nodeRef.FindAllString(strings.TrimPrefix(def, id), -1)...)
	}
	h := sha256.New()
	if fuse {
		h.Write([]byte("fused\n"))
	}
	for _, l := range kept {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	for _, id := range order {
		if reached[id] {
			h.Write([]byte(nodes[id]))
			h.Write([]byte{'\n'})
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// kernelCache keeps built objects by key, up to max bytes, the
// oldest dropped first.
type kernelCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[string][]byte
	order []string
}

// get is the kept object of key.
func (c *kernelCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

// put keeps b as key's object (one larger than the whole budget is not kept).
func (c *kernelCache) put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(b) > c.max {
		return
	}
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	if _, ok := c.m[key]; ok {
		return
	}
	for c.size+len(b) > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.m[old])
		delete(c.m, old)
	}
	c.m[key] = b
	c.order = append(c.order, key)
	c.size += len(b)
}
