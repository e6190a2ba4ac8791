package device

import (
	"strings"
	"testing"
)

// TestCompilerPoolRemembersOpenFailure: a target whose child cannot start
// fails every Get with the first error, without starting another child;
// a pool with no program says so.
func TestCompilerPoolRemembersOpenFailure(t *testing.T) {
	p := NewCompilerPool("lavapipe", []string{"/bin/false"}, 0)
	_, err1 := p.Get()
	if err1 == nil {
		t.Fatal("a child that exits at once opened")
	}
	if _, err2 := p.Get(); err2 != err1 {
		t.Errorf("second Get: %v, want the remembered %v", err2, err1)
	}
	if p.Target() != "lavapipe" {
		t.Errorf("Target() = %q", p.Target())
	}
	if _, err := NewCompilerPool("lavapipe", nil, 0).Get(); err == nil || !strings.Contains(err.Error(), "no compile child program") {
		t.Errorf("pool without a program: %v", err)
	}
}

func TestCompileEntryRefusesUnknownStage(t *testing.T) {
	if _, err := CompileEntry(nil, "mesh", nil, "main", [3]uint32{}); err == nil || !strings.Contains(err.Error(), `"mesh"`) {
		t.Errorf("CompileEntry(mesh): %v", err)
	}
}
