package ipsw

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// maxStderr caps the 7-Zip error output kept for a message.
const maxStderr = 32 << 10

// sevenZip runs the 7z program.
type sevenZip struct {
	path    string
	timeout time.Duration
}

// find7z resolves the 7z program, or fails naming the package to install.
func find7z(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", errorf(CodeMissing7z, err, "reading .ipsw disk images needs 7-Zip (%s); install the Debian package p7zip-full", name)
	}
	return p, nil
}

// cappedBuffer keeps the first max bytes written and counts the rest.
type cappedBuffer struct {
	buf     []byte
	max     int
	dropped int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	room := c.max - len(c.buf)
	if room > len(p) {
		room = len(p)
	}
	c.buf = append(c.buf, p[:room]...)
	c.dropped += len(p) - room
	return len(p), nil
}

func (c *cappedBuffer) String() string {
	s := strings.TrimSpace(string(c.buf))
	if c.dropped > 0 {
		s += fmt.Sprintf(" [%d more bytes]", c.dropped)
	}
	return s
}

// run runs 7z with args in its own process group, killing the group when
// ctx ends or the timeout passes. stdout, when not nil, consumes standard
// output as it comes; the rest of it is drained. A 7-Zip warning (exit 1)
// is not an error.
func (z *sevenZip) run(ctx context.Context, args []string, stdout func(io.Reader) error) error {
	return z.runLimited(ctx, args, stdout, 0)
}

// runLimited is run with the size of every file 7-Zip writes capped at
// fsize bytes (RLIMIT_FSIZE, set on the child as soon as it starts; 0: no
// cap). A write past the cap kills 7-Zip with SIGXFSZ, reported as
// errFileSizeLimit.
func (z *sevenZip) runLimited(ctx context.Context, args []string, stdout func(io.Reader) error, fsize int64) error {
	ctx, cancel := context.WithTimeout(ctx, z.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, z.path, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	var stderr cappedBuffer
	stderr.max = maxStderr
	cmd.Stderr = &stderr
	var out io.ReadCloser
	if stdout != nil {
		var err error
		if out, err = cmd.StdoutPipe(); err != nil {
			return err
		}
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("7z: %w", err)
	}
	if fsize > 0 {
		if err := limitFileSize(cmd.Process.Pid, uint64(fsize)); err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
			return fmt.Errorf("7z: capping its file size: %w", err)
		}
	}
	var consumeErr error
	if out != nil {
		consumeErr = stdout(out)
		if consumeErr != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		_, _ = io.Copy(io.Discard, out)
	}
	waitErr := cmd.Wait()
	// Nothing of the group may outlive the run.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("7z %s: timed out after %s; process group killed", args[0], z.timeout)
	case ctx.Err() != nil:
		return ctx.Err()
	case consumeErr != nil:
		return consumeErr
	}
	var exit *exec.ExitError
	if errors.As(waitErr, &exit) && exit.ExitCode() == 1 {
		return nil
	}
	if ws, ok := exitStatus(waitErr); ok && ws.Signaled() && ws.Signal() == syscall.SIGXFSZ {
		return errFileSizeLimit
	}
	if waitErr != nil {
		return fmt.Errorf("7z %s: %w: %s", args[0], waitErr, stderr.String())
	}
	return nil
}

// entry is one item of a 7-Zip technical listing.
type entry struct {
	Path   string
	Size   int64
	Folder bool
	// Mode is the Unix mode string ("-rwxr-xr-x"), "" when unknown.
	Mode string
	Link string
	// Characteristics is 7-Zip's flag list for the entry (APFS:
	// "IS_SPARSE NO_RSRC_FORK"), "" when not given.
	Characteristics string
	// src, when not "", is the image path whose data the entry has (an
	// HFS+ hard link's private-data inode file); Path stays its name.
	src string
}

// source is the image path holding the entry's data.
func (e *entry) source() string {
	if e.src != "" {
		return e.src
	}
	return e.Path
}

// sparse reports whether 7-Zip lists the entry as an APFS sparse file.
func (e *entry) sparse() bool {
	return strings.Contains(" "+e.Characteristics+" ", " IS_SPARSE ")
}

// symlink reports whether the entry is a symbolic link.
func (e *entry) symlink() bool { return e.Link != "" || strings.HasPrefix(e.Mode, "l") }

// listing is what list returns.
type listing struct {
	// Types is the chain of formats 7-Zip opened, outermost first
	// ("MBR", "Iso").
	Types []string
	// Archives are the paths 7-Zip names each of those formats by: the
	// image itself, then the partition it opened inside ("4.hfs").
	Archives []string
	Entries  int
	// Parsed is true when the whole listing was read, even if 7-Zip then
	// exited with an error (a damaged or truncated image).
	Parsed bool
}

// list runs "7z l -slt" on image and calls fn for every entry.
func (z *sevenZip) list(ctx context.Context, image string, maxEntries int, fn func(entry) error) (listing, error) {
	var l listing
	err := z.run(ctx, []string{"l", "-slt", "-sccUTF-8", "-pairpipe-no-password", image}, func(r io.Reader) error {
		return parseListing(r, maxEntries, &l, fn)
	})
	return l, err
}

// parseListing reads a 7-Zip technical listing: archive blocks ("Type = "
// lines) until the "----------" line, then one block of "Key = value"
// lines per entry.
func parseListing(r io.Reader, maxEntries int, l *listing, fn func(entry) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	inEntries := false
	var cur *entry
	lastPath := ""
	flush := func() error {
		if cur == nil {
			return nil
		}
		e := *cur
		cur = nil
		if strings.HasPrefix(e.Mode, "d") {
			e.Folder = true
		}
		l.Entries++
		if l.Entries > maxEntries {
			return fmt.Errorf("7z listing: more than %d entries", maxEntries)
		}
		return fn(e)
	}
	for sc.Scan() {
		line := sc.Text()
		if !inEntries {
			if line == "----------" {
				inEntries = true
			} else if t, ok := strings.CutPrefix(line, "Type = "); ok {
				l.Types = append(l.Types, t)
				l.Archives = append(l.Archives, lastPath)
			} else if p, ok := strings.CutPrefix(line, "Path = "); ok {
				lastPath = p
			}
			continue
		}
		key, val, ok := strings.Cut(line, " = ")
		if !ok {
			key, val = strings.TrimSuffix(line, " ="), ""
		}
		switch key {
		case "Path":
			if err := flush(); err != nil {
				return err
			}
			cur = &entry{Path: val}
		case "Folder":
			if cur != nil {
				cur.Folder = val == "+"
			}
		case "Size":
			if cur != nil && val != "" {
				n, err := strconv.ParseInt(val, 10, 64)
				if err != nil || n < 0 {
					return fmt.Errorf("7z listing: %q: bad size %q", cur.Path, val)
				}
				cur.Size = n
			}
		case "Mode":
			if cur != nil {
				cur.Mode = val
			}
		case "Attributes":
			if cur != nil && cur.Mode == "" {
				cur.Mode = modeFromAttributes(val)
				if strings.HasPrefix(val, "D") {
					cur.Folder = true
				}
			}
		case "Symbolic Link":
			if cur != nil {
				cur.Link = val
			}
		case "Characteristics":
			if cur != nil {
				cur.Characteristics = val
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("7z listing: %w", err)
	}
	if err := flush(); err != nil {
		return err
	}
	if !inEntries {
		return errors.New("7z listing: no entry list")
	}
	l.Parsed = true
	return nil
}

// modeFromAttributes picks the Unix mode string out of a 7-Zip
// "Attributes" value such as "A_ -rwxr-xr-x".
func modeFromAttributes(a string) string {
	for _, f := range strings.Fields(a) {
		if len(f) == 10 && strings.ContainsRune("-dlcbps", rune(f[0])) {
			return f
		}
	}
	return ""
}

// errFileSizeLimit: 7-Zip was killed writing a file past its size cap.
var errFileSizeLimit = errors.New("7z killed by SIGXFSZ writing a file past the size cap")

// overBudget is an extraction stopped because the bytes 7-Zip wrote
// passed the budget.
type overBudget struct {
	// Written is the bytes found written when it was stopped (at least).
	Written, Budget int64
}

func (e *overBudget) Error() string {
	return fmt.Sprintf("7-Zip wrote at least %d bytes, over the %d-byte extraction budget (the sizes the image lists are not trusted); 7-Zip was killed", e.Written, e.Budget)
}

// exitStatus returns the wait status of a finished command's error.
func exitStatus(err error) (syscall.WaitStatus, bool) {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return 0, false
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ws, ok
}

// budgetPoll is how often the output folder is measured during an
// extraction.
const budgetPoll = 5 * time.Millisecond

// dirBytes sums the sizes of the regular files under dir (a file's
// allocated size when larger than its length).
func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if st, err := d.Info(); err == nil {
			size := st.Size()
			if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Blocks*512 > size {
				size = sys.Blocks * 512
			}
			n += size
		}
		return nil
	})
	return n
}

// extract runs "7z x" on image for the paths listed (literally, no
// wildcards) into dir, which must be empty. The budget is enforced on
// bytes actually written, never on sizes the image lists: no file 7-Zip
// writes may pass it (RLIMIT_FSIZE), and the folder is measured while
// 7-Zip runs, which is killed once the folder holds more (a *overBudget
// error). budget <= 0: no budget.
func (z *sevenZip) extract(ctx context.Context, image, dir string, paths []string, budget int64) error {
	list, err := os.CreateTemp(filepath.Dir(dir), "7z-list-*")
	if err != nil {
		return err
	}
	defer os.Remove(list.Name())
	w := bufio.NewWriter(list)
	for _, p := range paths {
		w.WriteString(p)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		list.Close()
		return err
	}
	if err := list.Close(); err != nil {
		return err
	}
	args := []string{"x", "-y", "-bd", "-bso0", "-bsp0", "-spd", "-sccUTF-8", "-scsUTF-8", "-pairpipe-no-password", "-o" + dir, image, "@" + list.Name()}
	if budget <= 0 {
		return z.run(ctx, args, nil)
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var over int64
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		t := time.NewTicker(budgetPoll)
		defer t.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-t.C:
				if n := dirBytes(dir); n > budget {
					over = n
					stop()
					return
				}
			}
		}
	}()
	err = z.runLimited(wctx, args, nil, budget+1)
	stop()
	<-watched
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if n := dirBytes(dir); over > 0 || errors.Is(err, errFileSizeLimit) || n > budget {
		return &overBudget{Written: max(over, n), Budget: budget}
	}
	return err
}

// stream writes the item at path of image, opened as format typ (a
// 7-Zip -t name such as "Dmg"), to dst, refusing more than max bytes.
func (z *sevenZip) stream(ctx context.Context, image, typ, path, dst string, max int64) error {
	w, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer w.Close()
	err = z.run(ctx, []string{"x", "-so", "-bd", "-t" + typ, "-sccUTF-8", "-pairpipe-no-password", image, path}, func(r io.Reader) error {
		n, err := io.Copy(w, io.LimitReader(r, max+1))
		if err == nil && n > max {
			err = fmt.Errorf("7z x -so %s: more than %d bytes", path, max)
		}
		return err
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}
