package proc

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestServe: each request line gets one reply line, ReplyPrefix + JSON, in
// order; a request that does not decode ends the loop with an error.
func TestServe(t *testing.T) {
	type req struct{ N int }
	type rep struct{ Double int }
	double := func(q req) rep { return rep{2 * q.N} }
	var out bytes.Buffer
	if err := Serve(strings.NewReader("{\"N\":1}\n{\"N\":21}\n"), &out, double); err != nil {
		t.Fatal(err)
	}
	if want := ReplyPrefix + "{\"Double\":2}\n" + ReplyPrefix + "{\"Double\":42}\n"; out.String() != want {
		t.Errorf("replies %q, want %q", out.String(), want)
	}
	out.Reset()
	err := Serve(strings.NewReader("{\"N\":1}\nnot json\n"), &out, double)
	if err == nil || !strings.Contains(err.Error(), "reading a request") {
		t.Errorf("a bad request: %v", err)
	}
	if want := ReplyPrefix + "{\"Double\":2}\n"; out.String() != want {
		t.Errorf("replies before the bad request %q, want %q", out.String(), want)
	}
}

// TestPool: a pool hands its idle child to the next call, and a call made
// while the other is in flight gets a child of its own.
func TestPool(t *testing.T) {
	p := NewPool(Spec{Path: "/bin/sh", Args: []string{"-c", serverScript}}, 1)
	ctx := context.Background()
	pid := func(s *Server) string {
		t.Helper()
		r, ok, out, err := s.Call(ctx, []byte("pid"), 0)
		if err != nil || !ok {
			t.Fatalf("pid: %v %v %s", ok, err, out.Describe())
		}
		return string(r)
	}
	first, ok, _, err := p.Call(ctx, []byte("pid"), 0)
	if err != nil || !ok {
		t.Fatalf("pid: %v %v", ok, err)
	}
	again, ok, _, err := p.Call(ctx, []byte("pid"), 0)
	if err != nil || !ok || string(again) != string(first) {
		t.Fatalf("the idle child was not reused: %s then %s (%v %v)", first, again, ok, err)
	}
	// Holding the pool's one idle child, a call starts another.
	held := <-p.idle
	defer held.Close()
	other, ok, _, err := p.Call(ctx, []byte("pid"), 0)
	if err != nil || !ok || string(other) == pid(held) {
		t.Fatalf("a second caller shared the busy child: %s (%v %v)", other, ok, err)
	}
	(<-p.idle).Close()
}
