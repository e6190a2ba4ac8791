package device

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// CompilerPool keeps compile children (ChildCompiler) for one target: each
// compiles one module at a time, so workers take one, use it and give it
// back. The first open failure (the target absent here) is remembered and
// returned to every later Get.
type CompilerPool struct {
	target  string
	argv    []string
	timeout time.Duration

	mu      sync.Mutex
	free    []*ChildCompiler
	openErr error
}

// NewCompilerPool is a pool of children for target, each started as argv
// (a program serving ServeCompileChild) with the given compile timeout.
func NewCompilerPool(target string, argv []string, timeout time.Duration) *CompilerPool {
	return &CompilerPool{target: target, argv: argv, timeout: timeout}
}

// Target is the target the pool was made for, as it was asked for.
func (p *CompilerPool) Target() string { return p.target }

// Get takes an idle child, or opens one when none is idle.
func (p *CompilerPool) Get() (*ChildCompiler, error) {
	p.mu.Lock()
	if p.openErr != nil {
		err := p.openErr
		p.mu.Unlock()
		return nil, err
	}
	if n := len(p.free); n > 0 {
		c := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	if len(p.argv) == 0 {
		return nil, errors.New("no compile child program configured")
	}
	c, err := OpenChildCompiler(p.target, p.argv, nil)
	if err != nil {
		p.mu.Lock()
		p.openErr = err
		p.mu.Unlock()
		return nil, err
	}
	c.Timeout = p.timeout
	return c, nil
}

// Put gives a child back.
func (p *CompilerPool) Put(c *ChildCompiler) {
	p.mu.Lock()
	p.free = append(p.free, c)
	p.mu.Unlock()
}

// CompileEntry compiles entry of a SPIR-V module of one shader stage
// ("kernel", "vertex" or "fragment") on c: a compute pipeline with local
// size local, or a graphics pipeline with the shader in its place.
func CompileEntry(c *ChildCompiler, stage string, spirv []byte, entry string, local [3]uint32) (Stats, error) {
	switch stage {
	case "kernel":
		return c.CompileCompute(spirv, entry, local)
	case "vertex":
		return c.CompileGraphics(spirv, nil, entry, "", nil)
	case "fragment":
		return c.CompileGraphics(nil, spirv, "", entry, nil)
	}
	return nil, fmt.Errorf("no pipeline for stage %q", stage)
}
