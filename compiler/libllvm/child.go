package libllvm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/airpipe/airpipe/internal/proc"
)

// request is one line a child reads: Op "dis" disassembles Bitcode, Op
// "llc" compiles the text file In into the object file Out, Op "opt"
// writes the text file In, stripped of debug info (Strip) and through
// Passes, as text to Out, and Op "build" does what "opt" does, renames the
// functions Renames names and compiles the module into the object file Out.
type request struct {
	Op      string      `json:"op"`
	Bitcode []byte      `json:"bitcode,omitempty"`
	In      string      `json:"in,omitempty"`
	Out     string      `json:"out,omitempty"`
	Strip   bool        `json:"strip,omitempty"`
	Passes  string      `json:"passes,omitempty"`
	Renames [][2]string `json:"renames,omitempty"`
}

// reply is a child's answer: Text for "dis", nothing for "llc", or why it
// declined.
type reply struct {
	Text     []byte `json:"text,omitempty"` // bytes, not a JSON string: exactly as printed
	Declined string `json:"declined,omitempty"`
}

// Serve is a child's loop (proc.Serve): one request per line of r, one
// reply line (proc.ReplyPrefix, JSON) each on w, until r ends.
func Serve(r io.Reader, w io.Writer) error {
	return proc.Serve(r, w, func(q request) reply {
		var rep reply
		if err := answer(q, &rep); err != nil {
			rep.Declined = strings.TrimPrefix(err.Error(), ErrDeclined.Error()+": ")
		}
		return rep
	})
}

// answer does request q in this process.
func answer(q request, rep *reply) error {
	m, err := load()
	if err != nil {
		return err
	}
	switch q.Op {
	case "dis":
		text, err := m.disassemble(q.Bitcode)
		rep.Text = []byte(text)
		return err
	case "llc":
		ir, err := os.ReadFile(q.In)
		if err != nil {
			return err
		}
		obj, err := m.compile(ir, q.In)
		if err != nil {
			return err
		}
		return os.WriteFile(q.Out, obj, 0o644)
	case "build":
		ir, err := os.ReadFile(q.In)
		if err != nil {
			return err
		}
		obj, err := m.build(ir, q.In, q.Strip, q.Passes, q.Renames)
		if err != nil {
			return err
		}
		return os.WriteFile(q.Out, obj, 0o644)
	case "opt":
		ir, err := os.ReadFile(q.In)
		if err != nil {
			return err
		}
		text, err := m.optimize(ir, q.In, q.Strip, q.Passes)
		if err != nil {
			return err
		}
		return os.WriteFile(q.Out, []byte(text), 0o644)
	}
	return fmt.Errorf("unknown request %q", q.Op)
}

// maxIdle bounds the children kept for the next call.
const maxIdle = 4

// Children are library children, started as argv (a program that runs
// Serve), shared by concurrent callers: each call takes an idle child or
// starts one. A child lives on between calls; one that crashes, passes its
// timeout or passes proc.DefaultMaxRSS resident is replaced at the next call.
type Children struct {
	pool *proc.Pool
}

// NewChildren returns children started as argv.
func NewChildren(argv []string) *Children {
	// The memory limit is llc-19's; the replies carry a module's text.
	spec := proc.Spec{Path: argv[0], Args: argv[1:], MaxOutput: 256 << 20, MemoryLimit: 4 << 30, MaxRSS: proc.DefaultMaxRSS}
	return &Children{pool: proc.NewPool(spec, maxIdle)}
}

// call sends q to a child and decodes its reply; any failure is ErrDeclined.
func (c *Children) call(ctx context.Context, q request, timeout time.Duration) (reply, error) {
	in, err := json.Marshal(q)
	if err != nil {
		return reply{}, fmt.Errorf("%w: %v", ErrDeclined, err)
	}
	line, answered, out, err := c.pool.Call(ctx, in, timeout)
	if err != nil {
		return reply{}, fmt.Errorf("%w: %v", ErrDeclined, err)
	}
	if !answered {
		return reply{}, fmt.Errorf("%w: the child %s: %s", ErrDeclined, out.Describe(), out.Tail(3))
	}
	var rep reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return reply{}, fmt.Errorf("%w: reply: %v", ErrDeclined, err)
	}
	if rep.Declined != "" {
		return reply{}, fmt.Errorf("%w: %s", ErrDeclined, rep.Declined)
	}
	return rep, nil
}

// Disassemble is llvm-dis-19's text of bitcode, or ErrDeclined.
func (c *Children) Disassemble(ctx context.Context, bitcode []byte, timeout time.Duration) (string, error) {
	rep, err := c.call(ctx, request{Op: "dis", Bitcode: bitcode}, timeout)
	return string(rep.Text), err
}

// Compile writes the object llc-19 -O0 -mcpu=x86-64 -relocation-model=pic
// -fast-isel=false -filetype=obj builds of the text file in to out, or is
// ErrDeclined.
func (c *Children) Compile(ctx context.Context, in, out string, timeout time.Duration) error {
	_, err := c.call(ctx, request{Op: "llc", In: in, Out: out}, timeout)
	return err
}

// Build writes the object that Optimize's text of the file in, with each
// function renames[i][0] renamed renames[i][1] (all its uses with it),
// compiles to under Compile — opt-19 -S, the rename in the printed text and
// llc-19 — to out, reading the module once; or is ErrDeclined, also when a
// function to rename to exists already.
func (c *Children) Build(ctx context.Context, in, out string, strip bool, passes string, renames [][2]string, timeout time.Duration) error {
	_, err := c.call(ctx, request{Op: "build", In: in, Out: out, Strip: strip, Passes: passes, Renames: renames}, timeout)
	return err
}

// Optimize writes what opt-19 -S [--strip-debug] [-passes=PASSES] makes of
// the text file in (strip: --strip-debug; passes "": none) to out, or is
// ErrDeclined.
func (c *Children) Optimize(ctx context.Context, in, out string, strip bool, passes string, timeout time.Duration) error {
	_, err := c.call(ctx, request{Op: "opt", In: in, Out: out, Strip: strip, Passes: passes}, timeout)
	return err
}
