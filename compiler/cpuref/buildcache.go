package cpuref

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Library variants whose bitcode differs only in metadata (a compiler
// version, a source file name, compile options) rewrite to host modules
// that differ only there: on the share, buildKey makes 5,201 reference
// builds 2,252 distinct. So a process keeps each built kernel's
// object by buildKey — the text llc reads for code, without what it never
// reads — and a build of the same key writes the kept bytes instead of
// compiling again (builtKernels, at most builtKernelBytes:
// with the engine's own memory that keeps a whole run under 1 GiB).

// builtKernelBytes bounds the objects kept in memory; past it the
// oldest go first.
const builtKernelBytes = 32 << 20

// builtKernels is the process's kept kernels.
var builtKernels = &byteCache{max: builtKernelBytes}

// numberedNode matches a numbered metadata node's definition, capturing its
// id ("!12 = ..." or "!12 = distinct ...").
var numberedNode = regexp.MustCompile(`^(![0-9]+) = `)

// dbgAttachment matches a debug location or subprogram attachment (", !dbg
// !9" on an instruction, " !dbg !3" on a define line).
var dbgAttachment = regexp.MustCompile(`,? !dbg ![0-9]+\b`)

// unreadFlags are module flags that code generation for the host's ELF
// target does not read: the DWARF version (read only when a compile unit
// is emitted) and the Apple SDK version (read only for Mach-O). The
// "Debug Info Version" flag is set aside separately, where it decides nothing.
var unreadFlags = []string{`!"Dwarf Version",`, `!"SDK Version",`}

// buildKey names what llc makes of host (fuse: the fused build): every line
// but the module's ID comment, its source file name, named metadata other
// than llvm.*'s (AIR's !air.* lists, which no LLVM pass or backend reads)
// and !llvm.ident (the .comment section's producer string), and numbered
// metadata nodes nothing kept refers to, directly or through other nodes.
// Nodes are renumbered in the order the kept text first refers to them, so
// two hosts that number the same nodes differently have one key. A host
// with a debug-info compile unit also loses its debug attachments,
// llvm.dbg.* calls and !llvm.dbg.* lists: build removes its debug info
// before code generation either way (marked as of an old version, or opt-19
// --strip-debug). The module flags in unreadFlags are set aside, and "Debug
// Info Version" too where it decides nothing (debug info stripped anyway,
// or none to strip). Two hosts with one key differ only in what llc does
// not read for code, so they build to interchangeable objects.
func buildKey(host string, fuse bool) string {
	debug := strings.Contains(host, "\n!llvm.dbg.cu = ")
	versionMoot := debug || !strings.Contains(host, "!dbg ") && !strings.Contains(host, "@llvm.dbg.")
	nodes := map[string]string{}
	var kept []string
	flagsLine := -1
	for _, l := range strings.Split(host, "\n") {
		switch {
		case strings.HasPrefix(l, "; ModuleID = "), strings.HasPrefix(l, "source_filename = "):
			continue
		case strings.HasPrefix(l, "!"):
			if m := numberedNode.FindStringSubmatch(l); m != nil {
				nodes[m[1]] = l[len(m[0]):]
				continue
			}
			if !strings.HasPrefix(l, "!llvm.") || strings.HasPrefix(l, "!llvm.ident = ") || debug && strings.HasPrefix(l, "!llvm.dbg.") {
				continue // named metadata code generation does not read
			}
			if strings.HasPrefix(l, "!llvm.module.flags = ") {
				flagsLine = len(kept)
			}
		case debug && strings.Contains(l, "@llvm.dbg."):
			continue // a debug intrinsic's call or declaration
		case debug && strings.Contains(l, "!dbg !"):
			l = dbgAttachment.ReplaceAllString(l, "")
		}
		kept = append(kept, l)
	}
	if flagsLine >= 0 {
		kept[flagsLine] = readFlags(kept[flagsLine], nodes, versionMoot)
	}
	number := map[string]string{}
	var order []string
	renumber := func(id string) string {
		n, ok := number[id]
		if !ok {
			n = "!" + strconv.Itoa(len(order))
			number[id] = n
			order = append(order, id)
		}
		return n
	}
	h := sha256.New()
	if fuse {
		h.Write([]byte("fused\n"))
	}
	for _, l := range kept {
		h.Write([]byte(replaceNodeRefs(l, renumber)))
		h.Write([]byte{'\n'})
	}
	for i := 0; i < len(order); i++ { // renumber appends the nodes a definition reaches
		def := replaceNodeRefs(nodes[order[i]], renumber)
		h.Write([]byte(number[order[i]] + " = " + def + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readFlags is the !llvm.module.flags line without the flags code
// generation does not read (versionMoot: nor "Debug Info Version").
func readFlags(line string, nodes map[string]string, versionMoot bool) string {
	list, ok := strings.CutPrefix(line, "!llvm.module.flags = !{")
	list, ok2 := strings.CutSuffix(list, "}")
	if !ok || !ok2 {
		return line
	}
	var keep []string
	for _, ref := range strings.Split(list, ", ") {
		def := nodes[ref]
		unread := versionMoot && strings.Contains(def, `!"Debug Info Version",`)
		for _, f := range unreadFlags {
			unread = unread || strings.Contains(def, f)
		}
		if !unread {
			keep = append(keep, ref)
		}
	}
	return "!llvm.module.flags = !{" + strings.Join(keep, ", ") + "}"
}

// replaceNodeRefs is l with each reference to a numbered node (!12) outside
// quoted strings replaced by f of it. LLVM's text writes a quote inside a
// string as \22, so every '"' opens or closes one.
func replaceNodeRefs(l string, f func(string) string) string {
	if !strings.Contains(l, "!") {
		return l
	}
	var b strings.Builder
	quoted := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '"' {
			quoted = !quoted
		}
		if quoted || c != '!' || i+1 == len(l) || l[i+1] < '0' || l[i+1] > '9' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(l) && l[j] >= '0' && l[j] <= '9' {
			j++
		}
		b.WriteString(f(l[i:j]))
		i = j - 1
	}
	return b.String()
}

// byteCache keeps byte strings by key (built objects, run results), up to
// max bytes, the oldest dropped first.
type byteCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[string][]byte
	order []string
}

// get is the kept bytes of key.
func (c *byteCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

// put keeps b as key's bytes (one larger than the whole budget is not kept).
func (c *byteCache) put(key string, b []byte) {
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
