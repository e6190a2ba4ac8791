// Package execstage is the exec-stage language (docs/stages.md): external
// tools configured by a stage configuration file, run once per distinct
// item as pipeline stages in place of a built-in stage or after one, their
// outcomes judged by exit status and rules or by a JSON reply. It knows
// the items only through Item.
package execstage

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/filehash"
	"github.com/airpipe/airpipe/internal/proc"
	"github.com/airpipe/airpipe/pipeline"
)

// Codes of exec stages. The tool-failed, bad-protocol and missing-artifact
// codes (codes.Suffix) are prefixed with the stage's name
// ("translate/tool-failed"); the engine's timeout, crash and cancelled
// codes are shared with built-in stages.
const (
	// CodeOutOfMemory: the tool ran out of memory (its memory limit).
	CodeOutOfMemory = codes.OOM
)

// DefaultWorkBase is the base of the items' work directories when the
// configuration names none: os.TempDir()/airpipe-work.
func DefaultWorkBase() string { return filepath.Join(os.TempDir(), "airpipe-work") }

// Item is what an exec stage reads from and leaves on the item it runs for
// (a stage's module).
type Item interface {
	// WorkDir returns the item's scratch directory under base, making it
	// on first use; it is {workdir}.
	WorkDir(base string) (string, error)
	// Placeholder fills {bitcode}, {metallib}, {function} or an earlier
	// stage's artifact, writing a file under base when the artifact is
	// held in memory; the error says why the item cannot.
	Placeholder(base, name string) (string, error)
	// SetFile records an artifact file a passing tool left.
	SetFile(name, path string)
}

// ApplyFile reads a stage configuration file and returns the stage list
// with exec stages replacing built-in ones or inserted after one, as the
// file says (Place). Errors name the file, the stage and the field.
func ApplyFile[T Item](list []pipeline.Stage[T], path string, byFunction func(T) string) ([]pipeline.Stage[T], error) {
	cfg, err := Load(path)
	if err != nil {
		return nil, err
	}
	out, err := Place(cfg, list, byFunction)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Place puts the configuration's exec stages in a copy of list. Each
// tool's fingerprint is taken here (its version command runs once); a tool
// that is absent or whose version command fails yields a stage that is
// unavailable for every item, with the reason. byFunction is the Refine of
// an exec stage whose tool is told {function}: it and later stages are
// keyed by function.
func Place[T Item](c *Config, list []pipeline.Stage[T], byFunction func(T) string) ([]pipeline.Stage[T], error) {
	out := slices.Clone(list)
	base := c.WorkDir
	if base == "" {
		base = DefaultWorkBase()
	}
	replacedBy := map[string]string{}
	anchorOf := map[string]string{}
	for i, sc := range c.Stages {
		where := fmt.Sprintf("stages[%d] (%q)", i, sc.Name)
		if sc.Replace != "" {
			idx := stageIndex(out, sc.Replace)
			switch {
			case idx < 0:
				return nil, fmt.Errorf("%s: field \"replace\": no stage %q (stages: %s)", where, sc.Replace, strings.Join(pipeline.Names(out), ", "))
			case replacedBy[sc.Replace] != "":
				return nil, fmt.Errorf("%s: field \"replace\": stage %q is already replaced by %q", where, sc.Replace, replacedBy[sc.Replace])
			case out[idx].PerOccurrence:
				return nil, fmt.Errorf("%s: field \"replace\": %q runs for every occurrence and fills the module; an exec stage cannot stand in for it", where, sc.Replace)
			}
			replacedBy[sc.Replace] = sc.Name
			st := newExecStage(sc, sc.Replace, base, byFunction)
			if st.Refine == nil {
				// Standing in for a stage keyed by function keeps that key.
				st.Refine = out[idx].Refine
			}
			out[idx] = st
			continue
		}
		if stageIndex(out, sc.Name) >= 0 {
			return nil, fmt.Errorf("%s: field \"name\": %q is already a stage (use \"replace\" to stand in for it)", where, sc.Name)
		}
		idx := stageIndex(out, sc.After)
		if idx < 0 {
			return nil, fmt.Errorf("%s: field \"after\": no stage %q (stages: %s)", where, sc.After, strings.Join(pipeline.Names(out), ", "))
		}
		j := idx + 1
		for j < len(out) && anchorOf[out[j].Name] == sc.After {
			j++
		}
		if j < len(out) && out[j].PerOccurrence {
			return nil, fmt.Errorf("%s: field \"after\": %q is followed by %q, which runs for every occurrence; exec stages run once per distinct module and go after those", where, sc.After, out[j].Name)
		}
		out = slices.Insert(out, j, newExecStage(sc, sc.Name, base, byFunction))
		anchorOf[sc.Name] = sc.After
	}
	if err := checkExecNeeds(c, out); err != nil {
		return nil, err
	}
	return out, nil
}

func stageIndex[T any](list []pipeline.Stage[T], name string) int {
	return slices.IndexFunc(list, func(s pipeline.Stage[T]) bool { return s.Name == name })
}

// execStage is one configured tool, ready to run.
type execStage struct {
	cfg   StageConfig
	stage string // the pipeline stage's name
	base  string // base of the work directories
	// unavailable is set when the tool cannot run here at all.
	unavailable string
	program     string
	toolVersion string
	args        []template
	env         []envEntry
	artifacts   []artifactEntry
	rules       []rule
	timeout     time.Duration
	memory      uint64
	maxOutput   uint64
	tail        int
	defaultCode codes.Code
}

type envEntry struct {
	key string
	val template
}

type artifactEntry struct {
	name string
	rel  string // path under the work directory
}

type rule struct {
	Rule
	re *regexp.Regexp
}

// newExecStage builds the pipeline stage for one configured tool.
func newExecStage[T Item](sc StageConfig, stage, base string, byFunction func(T) string) pipeline.Stage[T] {
	e := &execStage{cfg: sc, stage: stage, base: base, tail: sc.TailLines, timeout: DefaultTimeout}
	if e.tail == 0 {
		e.tail = defaultTailLines
	}
	if sc.Timeout != "" {
		e.timeout, _ = time.ParseDuration(sc.Timeout) // checked at parse time
	}
	e.memory, _ = parseSize(sc.MemoryLimit)
	e.maxOutput, _ = parseSize(sc.MaxOutput)
	e.defaultCode = codes.Code(sc.DefaultCode)
	if e.defaultCode == "" {
		e.defaultCode = codes.ToolFailed.For(stage)
	}
	for _, a := range sc.Command[1:] {
		t, _ := parseTemplate(a)
		e.args = append(e.args, t)
	}
	for _, k := range sortedKeys(sc.Env) {
		t, _ := parseTemplate(sc.Env[k])
		e.env = append(e.env, envEntry{k, t})
	}
	for _, k := range sortedKeys(sc.Artifacts) {
		e.artifacts = append(e.artifacts, artifactEntry{k, strings.TrimPrefix(sc.Artifacts[k], "{"+PlaceholderWorkdir+"}/")})
	}
	for _, r := range sc.Rules {
		e.rules = append(e.rules, rule{r, regexp.MustCompile(r.Pattern)})
	}
	fingerprint := e.fingerprint()
	canon, _ := json.Marshal(sc)
	sum := sha256.Sum256(append(append(canon, 0), fingerprint...))
	st := pipeline.Stage[T]{
		Name:    stage,
		Version: execImplementation + "-" + hex.EncodeToString(sum[:8]),
		Workers: sc.Workers,
		// The tool's own timeout fires first; the engine's is a backstop.
		Timeout: e.timeout + execTimeoutGrace,
		Run:     func(ctx context.Context, it T) pipeline.Result { return e.run(ctx, it) },
	}
	if e.usesFunction() {
		// A tool told the function's name judges that function: it and
		// every later stage are keyed by (bitcode, function).
		st.Refine = byFunction
	}
	st.Needs, st.Provides = e.needs(), e.provides()
	return st
}

// needs lists the artifacts the tool's placeholders read from earlier
// stages ({bitcode}, {spirv}, an exec stage's artifact); {workdir},
// {metallib} and {function} come with every module.
func (e *execStage) needs() []string {
	var out []string
	add := func(t template) {
		for _, n := range t.names() {
			switch n {
			case PlaceholderWorkdir, PlaceholderMetallib, PlaceholderFunction:
			default:
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	for _, t := range e.args {
		add(t)
	}
	for _, v := range e.env {
		add(v.val)
	}
	return out
}

// provides lists the artifacts a pass of the tool leaves for later stages.
func (e *execStage) provides() []string {
	var out []string
	for _, a := range e.artifacts {
		out = append(out, a.name)
	}
	if e.cfg.StdoutArtifact != "" {
		out = append(out, e.cfg.StdoutArtifact)
	}
	return out
}

// checkExecNeeds refuses a placed configuration in which an exec stage's
// placeholder names an artifact no stage before it provides: the tool could
// never run, so the configuration is wrong, not the module. The built-in
// stages' needs are checked when the run starts (pipeline's checkStages),
// after --stages has chosen the stages that run.
func checkExecNeeds[T any](c *Config, list []pipeline.Stage[T]) error {
	provided := map[string]bool{}
	for _, s := range list {
		for i, sc := range c.Stages {
			if s.Name != sc.Name && s.Name != sc.Replace {
				continue
			}
			for _, n := range s.Needs {
				if !provided[n] {
					return fmt.Errorf("stages[%d] (%q): placeholder {%s}: no stage before %q provides it", i, sc.Name, n, s.Name)
				}
			}
		}
		for _, p := range s.Provides {
			provided[p] = true
		}
	}
	return nil
}

// usesFunction reports whether the tool's arguments or environment name the
// module's function.
func (e *execStage) usesFunction() bool {
	uses := func(t template) bool {
		return slices.ContainsFunc(t, func(s segment) bool { return s.name == PlaceholderFunction })
	}
	if slices.ContainsFunc(e.args, uses) {
		return true
	}
	return slices.ContainsFunc(e.env, func(v envEntry) bool { return uses(v.val) })
}

// fingerprint finds the tool and identifies it: the version command's
// output, or the program file's SHA-256. It sets e.unavailable when the
// tool cannot run here.
func (e *execStage) fingerprint() string {
	path, err := exec.LookPath(e.cfg.Command[0])
	if err != nil {
		e.unavailable = fmt.Sprintf("%s: not installed here (%v)", e.cfg.Command[0], unwrapExecErr(err))
		return "unavailable\x00" + e.unavailable
	}
	e.program = path
	if e.cfg.Version == nil {
		sum, err := filehash.SHA256(path)
		if err != nil {
			e.unavailable = fmt.Sprintf("%s: %v", path, err)
			return "unavailable\x00" + e.unavailable
		}
		return "sha256\x00" + sum
	}
	var env []string
	for _, en := range e.env {
		if len(en.val.names()) == 0 {
			v, _ := en.val.expand(nil)
			env = append(env, en.key+"="+v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	v := e.cfg.Version
	o, err := proc.Run(ctx, proc.Spec{Path: v[0], Args: v[1:], Env: env, Timeout: versionTimeout, MaxOutput: 1 << 20})
	cmdline := strings.Join(v, " ")
	switch {
	case err != nil:
		e.unavailable = fmt.Sprintf("version command %q: %v", cmdline, err)
	case o.ExitCode != 0 || o.Signal != "" || o.TimedOut:
		e.unavailable = fmt.Sprintf("version command %q: %s: %s", cmdline, o.Describe(), o.Tail(3))
	}
	if e.unavailable != "" {
		return "unavailable\x00" + e.unavailable
	}
	e.toolVersion = firstLine(o.Stdout)
	if e.toolVersion == "" {
		e.toolVersion = firstLine(o.Stderr)
	}
	return "version\x00" + string(o.Stdout) + "\x00" + string(o.Stderr)
}

func unwrapExecErr(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// tool is the program's base name, for details and messages.
func (e *execStage) tool() string { return filepath.Base(e.cfg.Command[0]) }

// run is the stage's Run.
func (e *execStage) run(ctx context.Context, m Item) pipeline.Result {
	res, files := e.runTool(ctx, m)
	if res.Status == pipeline.Passed {
		for name, p := range files {
			m.SetFile(name, p)
		}
	}
	if res.Data == nil {
		res.Data = map[string]string{}
	}
	res.Data["tool"] = e.cfg.Name
	if e.toolVersion != "" {
		res.Data["tool_version"] = e.toolVersion
	}
	return res
}

// missingPlaceholder is a placeholder this module cannot fill.
type missingPlaceholder struct{ name, why string }

func (p *missingPlaceholder) Error() string { return "{" + p.name + "}: " + p.why }

func (e *execStage) runTool(ctx context.Context, m Item) (pipeline.Result, map[string]string) {
	if e.unavailable != "" {
		return pipeline.Unavailablef("%s", e.unavailable), nil
	}
	if err := os.MkdirAll(e.base, 0o755); err != nil {
		return pipeline.Unavailablef("work directory base: %v", err), nil
	}
	dir, err := m.WorkDir(e.base)
	if err != nil {
		return pipeline.Unavailablef("work directory: %v", err), nil
	}
	lookup := func(name string) (string, error) { return e.placeholder(m, dir, name) }
	args := make([]string, len(e.args))
	for i, t := range e.args {
		if args[i], err = t.expand(lookup); err != nil {
			return pipeline.Unavailablef("%v", err), nil
		}
	}
	var env []string
	for _, en := range e.env {
		v, err := en.val.expand(lookup)
		if err != nil {
			return pipeline.Unavailablef("%v", err), nil
		}
		env = append(env, en.key+"="+v)
	}
	for _, a := range e.artifacts {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, a.rel)), 0o755); err != nil {
			return pipeline.Unavailablef("artifact %s: %v", a.name, err), nil
		}
	}
	o, err := proc.Run(ctx, proc.Spec{
		Path: e.program, Args: args, Dir: dir, Env: env,
		Timeout: e.timeout, MaxOutput: int(e.maxOutput), MemoryLimit: e.memory,
	})
	if err != nil {
		return pipeline.Unavailablef("%v", err), nil
	}
	res, files := e.judge(o, dir)
	if res.Status != pipeline.Passed {
		return res, nil
	}
	if files == nil {
		files = map[string]string{}
	}
	for _, a := range e.artifacts {
		p := filepath.Join(dir, a.rel)
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			why := "not a regular file"
			if err != nil {
				why = err.Error()
			}
			f := pipeline.Fail(codes.MissingArtifact.For(e.stage), a.name,
				fmt.Sprintf("%s passed but did not write its artifact %q (%s)", e.tool(), a.name, why))
			f.Features, f.Data = res.Features, res.Data
			return f, nil
		}
		files[a.name] = p
	}
	if name := e.cfg.StdoutArtifact; name != "" {
		p := filepath.Join(dir, name+".out")
		if o.Truncated {
			f := pipeline.Fail(codes.MissingArtifact.For(e.stage), name,
				fmt.Sprintf("%s printed more than the output cap (max_output); artifact %q would be incomplete", e.tool(), name))
			f.Features, f.Data = res.Features, res.Data
			return f, nil
		}
		if err := os.WriteFile(p, o.Stdout, 0o644); err != nil {
			return pipeline.Unavailablef("artifact %s: %v", name, err), nil
		}
		files[name] = p
	}
	return res, files
}

// placeholder fills one placeholder for item m.
func (e *execStage) placeholder(m Item, dir, name string) (string, error) {
	if name == PlaceholderWorkdir {
		return dir, nil
	}
	p, err := m.Placeholder(e.base, name)
	if err != nil {
		return "", &missingPlaceholder{name, err.Error()}
	}
	return p, nil
}

// judge turns the tool's run into the stage's result and the artifacts it
// reports (JSON protocol); declared artifacts are checked by the caller.
func (e *execStage) judge(o proc.Outcome, dir string) (pipeline.Result, map[string]string) {
	if o.Cancelled {
		return pipeline.Result{Status: pipeline.NotRun, Code: pipeline.CodeCancelled, Detail: e.stage,
			Message: "run interrupted while " + e.tool() + " ran"}, nil
	}
	var res pipeline.Result
	var files map[string]string
	switch o.Code() {
	case proc.CodeTimeout:
		res = pipeline.Fail(pipeline.CodeTimeout, e.stage, fmt.Sprintf("%s %s", e.tool(), o.Describe()))
	case proc.CodeOOM:
		res = pipeline.Fail(CodeOutOfMemory, e.tool(), fmt.Sprintf("%s ran out of memory (%s):\n%s", e.tool(), o.Describe(), o.Tail(e.tail)))
	case proc.CodeCrash:
		// A rule that explains the crash (an assertion's words) decides;
		// otherwise it is a crash, named by the tool and the signal.
		var decided bool
		if e.cfg.Protocol != protocolJSON {
			res, decided = e.judgeExit(o)
		}
		if !decided {
			res = pipeline.Fail(pipeline.CodeCrash, e.tool()+": "+o.Signal, fmt.Sprintf("%s %s:\n%s", e.tool(), o.Describe(), o.Tail(e.tail)))
		}
		if res.Data == nil {
			res.Data = map[string]string{}
		}
		res.Data["signal"] = o.Signal
	default:
		if e.cfg.Protocol == protocolJSON {
			res, files = e.judgeJSON(o, dir)
		} else {
			res, _ = e.judgeExit(o)
		}
	}
	if res.Data == nil {
		res.Data = map[string]string{}
	}
	if o.ExitCode != 0 {
		res.Data["exit"] = strconv.Itoa(o.ExitCode)
	}
	if o.Truncated {
		res.Data["output_truncated"] = "true"
	}
	return res, files
}

// judgeExit applies the exit status and the rules; decided reports that
// an outcome or missing rule matched.
func (e *execStage) judgeExit(o proc.Outcome) (res pipeline.Result, decided bool) {
	failed := o.ExitCode != 0 || o.Signal != ""
	var rulesResult *pipeline.Result
	var missing []pipeline.Finding
	var features []string
	seenMissing := map[pipeline.Finding]bool{}
	seenFeature := map[string]bool{}
	for _, r := range e.rules {
		if r.On == onFailure && !failed {
			continue
		}
		for _, text := range r.texts(o) {
			switch r.Kind {
			case ruleFeature:
				for _, sm := range r.re.FindAllSubmatchIndex(text, -1) {
					f := r.detail(text, sm)
					if f != "" && !seenFeature[f] {
						seenFeature[f] = true
						features = append(features, f)
					}
				}
			case ruleMissing:
				for _, sm := range r.re.FindAllSubmatchIndex(text, -1) {
					fd := pipeline.Finding{Code: codes.Code(r.Code), Detail: r.detail(text, sm)}
					if !seenMissing[fd] {
						seenMissing[fd] = true
						missing = append(missing, fd)
					}
					if rulesResult == nil {
						res := r.result(text, sm)
						rulesResult = &res
					}
				}
			default:
				if rulesResult == nil {
					if sm := r.re.FindSubmatchIndex(text); sm != nil {
						res := r.result(text, sm)
						rulesResult = &res
					}
				}
			}
		}
	}
	switch {
	case rulesResult != nil:
		res = *rulesResult
	case !failed:
		res = pipeline.Pass()
	default:
		res = pipeline.Fail(e.defaultCode, "exit "+strconv.Itoa(o.ExitCode),
			fmt.Sprintf("%s %s:\n%s", e.tool(), o.Describe(), o.Tail(e.tail)))
	}
	res.Missing, res.Features = missing, features
	return res, rulesResult != nil
}

// texts are the outputs a rule reads, in order.
func (r *rule) texts(o proc.Outcome) [][]byte {
	switch r.Stream {
	case streamStdout:
		return [][]byte{o.Stdout}
	case streamStderr:
		return [][]byte{o.Stderr}
	}
	return [][]byte{o.Stderr, o.Stdout}
}

func (r *rule) detail(text []byte, sm []int) string {
	return strings.TrimSpace(string(r.re.Expand(nil, []byte(r.Detail), text, sm)))
}

// result is what a match of an outcome or missing rule makes the stage.
func (r *rule) result(text []byte, sm []int) pipeline.Result {
	line := lineAround(text, sm[0], sm[1])
	switch r.Status {
	case "passed":
		res := pipeline.Pass()
		res.Message = line
		return res
	case "unjudged":
		return pipeline.UnjudgedBecause(line)
	case "unavailable":
		return pipeline.Unavailablef("%s", line)
	}
	return pipeline.Fail(codes.Code(r.Code), r.detail(text, sm), line)
}

// lineAround returns the whole line(s) holding text[start:end], capped.
func lineAround(text []byte, start, end int) string {
	s := bytes.LastIndexByte(text[:start], '\n') + 1
	if i := bytes.IndexByte(text[end:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(text)
	}
	line := strings.TrimSpace(string(text[s:end]))
	if len(line) > 500 {
		line = line[:500] + "…"
	}
	return line
}

// protocolReply is the one JSON object a tool under the JSON protocol
// prints on stdout.
type protocolReply struct {
	Status    string             `json:"status"`
	Code      string             `json:"code,omitempty"`
	Detail    string             `json:"detail,omitempty"`
	Message   string             `json:"message,omitempty"`
	Missing   []pipeline.Finding `json:"missing,omitempty"`
	Features  []string           `json:"features,omitempty"`
	Artifacts map[string]string  `json:"artifacts,omitempty"`
	Data      map[string]string  `json:"data,omitempty"`
}

// protocolError is a broken promise of the JSON protocol: detail names the
// problem for grouping, message explains it.
type protocolError struct{ detail, message string }

func (p *protocolError) Error() string { return p.message }

func badProtocol(detail, format string, args ...any) *protocolError {
	return &protocolError{detail, fmt.Sprintf(format, args...)}
}

// judgeJSON takes the tool's JSON object as the outcome.
func (e *execStage) judgeJSON(o proc.Outcome, dir string) (pipeline.Result, map[string]string) {
	res, files, perr := parseReply(o, dir)
	if perr != nil {
		msg := e.tool() + " broke the JSON protocol: " + perr.message
		if head := firstLine(o.Stdout); head != "" {
			msg += "\nstdout begins: " + head
		}
		return pipeline.Fail(codes.BadProtocol.For(e.stage), perr.detail, msg), nil
	}
	if res.Status != pipeline.Passed && res.Message == "" && len(bytes.TrimSpace(o.Stderr)) > 0 {
		res.Message = o.Tail(e.tail)
	}
	return res, files
}

// parseReply checks and decodes a JSON-protocol reply. Artifact paths
// are relative to dir or absolute, and must lie in dir and exist.
func parseReply(o proc.Outcome, dir string) (pipeline.Result, map[string]string, *protocolError) {
	if o.Truncated && len(o.Stdout) > 0 {
		return pipeline.Result{}, nil, badProtocol("truncated", "stdout passed the output cap after %d bytes", len(o.Stdout))
	}
	body := bytes.TrimSpace(o.Stdout)
	if len(body) == 0 {
		return pipeline.Result{}, nil, badProtocol("no-json", "no JSON object on stdout (%s)", o.Describe())
	}
	if body[0] != '{' {
		return pipeline.Result{}, nil, badProtocol("not-an-object", "stdout does not start with a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var r protocolReply
	if err := dec.Decode(&r); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return pipeline.Result{}, nil, badProtocol("syntax", "byte %d: %v", se.Offset, se)
		case errors.As(err, &te):
			return pipeline.Result{}, nil, badProtocol("type:"+te.Field, "field %q: %s is not a %s", te.Field, te.Value, te.Type)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			return pipeline.Result{}, nil, badProtocol("unknown-field:"+name, "unknown field %q (fields: status, code, detail, message, missing, features, artifacts, data)", name)
		}
		return pipeline.Result{}, nil, badProtocol("syntax", "%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return pipeline.Result{}, nil, badProtocol("trailing-data", "byte %d: more after the JSON object", dec.InputOffset())
	}
	res := pipeline.Result{Status: pipeline.Status(r.Status), Code: codes.Code(r.Code), Detail: r.Detail, Message: r.Message,
		Missing: r.Missing, Features: r.Features, Data: r.Data}
	switch res.Status {
	case pipeline.Passed, pipeline.Unjudged, pipeline.Unavailable:
		if r.Code != "" {
			return pipeline.Result{}, nil, badProtocol("code-without-failure", "status %q with code %q: only a failure has a code", r.Status, r.Code)
		}
	case pipeline.Failed:
		if !codePattern.MatchString(r.Code) {
			return pipeline.Result{}, nil, badProtocol("bad-code", "status failed needs a code like \"stage/what\", got %q", r.Code)
		}
	default:
		return pipeline.Result{}, nil, badProtocol("status:"+r.Status, "status %q is not passed, failed, unjudged or unavailable", r.Status)
	}
	if res.Status == pipeline.Passed && o.ExitCode != 0 {
		return pipeline.Result{}, nil, badProtocol("passed-with-exit-"+strconv.Itoa(o.ExitCode), "status passed but %s", o.Describe())
	}
	for i, f := range r.Missing {
		if !codePattern.MatchString(string(f.Code)) {
			return pipeline.Result{}, nil, badProtocol("bad-code", "missing[%d]: %q is not a code", i, f.Code)
		}
	}
	for i, f := range r.Features {
		if f == "" {
			return pipeline.Result{}, nil, badProtocol("empty-feature", "features[%d] is empty", i)
		}
	}
	var files map[string]string
	for _, name := range sortedKeys(r.Artifacts) {
		p := r.Artifacts[name]
		if err := checkReplyArtifact(name, p, dir); err != "" {
			return pipeline.Result{}, nil, badProtocol("artifact:"+name, "artifacts[%q] = %q: %s", name, p, err)
		}
		if files == nil {
			files = map[string]string{}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		files[name] = filepath.Clean(p)
	}
	return res, files, nil
}

func checkReplyArtifact(name, p, dir string) string {
	if !namePattern.MatchString(name) {
		return "not an artifact name"
	}
	switch name {
	case PlaceholderBitcode, PlaceholderMetallib, PlaceholderFunction, PlaceholderWorkdir:
		return reservedArtifactText
	}
	if p == "" {
		return "empty path"
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	rel, err := filepath.Rel(dir, filepath.Clean(p))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "not inside the module's work directory " + dir
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return "no such file"
	}
	return ""
}

// firstLine returns the first non-empty line of b, trimmed and capped.
func firstLine(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			return l
		}
	}
	return ""
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// template is a parsed argument, environment value or path with
// placeholders: {name} is replaced, {{ and }} are literal braces.
type template []segment

type segment struct {
	lit  string
	name string // a placeholder when non-empty
}

// parseTemplate parses s; errors name the byte offset.
func parseTemplate(s string) (template, error) {
	var t template
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t = append(t, segment{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			if i+1 < len(s) && s[i+1] == '{' {
				lit.WriteByte('{')
				i++
				continue
			}
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 {
				return nil, fmt.Errorf("%q byte %d: { without } (write {{ for a literal {)", s, i)
			}
			name := s[i+1 : i+1+end]
			if !namePattern.MatchString(name) {
				return nil, fmt.Errorf("%q byte %d: {%s} is not a placeholder (write {{ for a literal {)", s, i, name)
			}
			flush()
			t = append(t, segment{name: name})
			i += end + 1
		case '}':
			if i+1 < len(s) && s[i+1] == '}' {
				lit.WriteByte('}')
				i++
				continue
			}
			return nil, fmt.Errorf("%q byte %d: lone } (write }} for a literal })", s, i)
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return t, nil
}

// names lists the template's placeholders.
func (t template) names() []string {
	var out []string
	for _, s := range t {
		if s.name != "" {
			out = append(out, s.name)
		}
	}
	return out
}

// expand fills the placeholders through lookup.
func (t template) expand(lookup func(string) (string, error)) (string, error) {
	var b strings.Builder
	for _, s := range t {
		if s.name == "" {
			b.WriteString(s.lit)
			continue
		}
		v, err := lookup(s.name)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
	}
	return b.String(), nil
}
