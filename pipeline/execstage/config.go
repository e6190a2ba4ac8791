package execstage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config is a stage configuration file (docs/stages.md): the exec
// stages to run and where each goes in the stage list.
type Config struct {
	// WorkDir is the base of the modules' work directories; "" means
	// os.TempDir()/airpipe-work. Relative paths are relative to the file.
	WorkDir string `json:"workdir,omitempty"`
	// Stages are the exec stages, placed in file order.
	Stages []StageConfig `json:"stages"`

	// path and dir are where the file was read from ("" for in-memory).
	path, dir string
}

// StageConfig is one exec stage: a tool run once per distinct module.
type StageConfig struct {
	// Name labels the tool; it is the stage's name unless Replace is set,
	// in which case the stage keeps the replaced stage's name.
	Name string `json:"name"`
	// Replace names a built-in stage this one stands in for.
	Replace string `json:"replace,omitempty"`
	// After names a stage this one is inserted after.
	After string `json:"after,omitempty"`
	// Command is the argv template; Command[0] is a literal program.
	Command []string `json:"command"`
	// Version is an argv whose output fingerprints the tool (no
	// placeholders). Without it the program file's SHA-256 is used.
	Version []string `json:"version,omitempty"`
	// Env adds variables to the tool's environment; values are templates.
	Env map[string]string `json:"env,omitempty"`
	// Timeout is a Go duration ("30s"); default 60s.
	Timeout string `json:"timeout,omitempty"`
	// MemoryLimit caps the tool's address space ("2GiB"); "" means none.
	MemoryLimit string `json:"memory_limit,omitempty"`
	// MaxOutput caps captured stdout and stderr each ("4MiB" default).
	MaxOutput string `json:"max_output,omitempty"`
	// Workers bounds the stage's pool; 0 means the run's --jobs.
	Workers int `json:"workers,omitempty"`
	// Protocol is "exit" (default: exit status and rules) or "json" (the
	// tool prints one JSON object that is the outcome).
	Protocol string `json:"protocol,omitempty"`
	// Artifacts maps artifact names to the paths the tool writes, under
	// {workdir}; later stages reach them as {name}.
	Artifacts map[string]string `json:"artifacts,omitempty"`
	// StdoutArtifact, when set, names an artifact holding the tool's
	// stdout (for tools that print their product), written to
	// {workdir}/<name>.out after a pass. Protocol "exit" only.
	StdoutArtifact string `json:"stdout_artifact,omitempty"`
	// Rules classify the tool's output (protocol "exit" only).
	Rules []Rule `json:"rules,omitempty"`
	// DefaultCode is the code of an unmatched failure; default
	// "<stage>/tool-failed".
	DefaultCode string `json:"default_code,omitempty"`
	// TailLines is how many last lines of output an unmatched failure
	// carries as its message; default 10.
	TailLines int `json:"tail_lines,omitempty"`
}

// Rule is one classification rule over a tool's output.
type Rule struct {
	// Kind is "outcome" (default: first matching rule decides), "missing"
	// (an outcome rule whose every match is also a missing feature) or
	// "feature" (every match is a feature; never decides the outcome).
	Kind string `json:"kind,omitempty"`
	// Pattern is a Go regular expression (RE2 syntax).
	Pattern string `json:"pattern"`
	// Stream is "stderr", "stdout" or "both" (default; stderr then stdout).
	Stream string `json:"stream,omitempty"`
	// On is "failure" (only when the exit status is not 0; the default for
	// outcome and missing rules) or "any" (the default for feature rules).
	On string `json:"on,omitempty"`
	// Status is what a match makes the stage: "failed" (default),
	// "unjudged", "unavailable" or "passed".
	Status string `json:"status,omitempty"`
	// Code is the failure code (required for failed and missing rules).
	Code string `json:"code,omitempty"`
	// Detail is a regexp.Expand template ("$1", "${name}"); default "$1"
	// when the pattern has a group, else the whole match ("$0").
	Detail string `json:"detail,omitempty"`
}

// Defaults and limits of exec stages.
const (
	DefaultTimeout       = 60 * time.Second
	defaultTailLines     = 10
	maxTailLines         = 200
	maxExecConfigSize    = 1 << 20
	versionTimeout       = 30 * time.Second
	execTimeoutGrace     = 10 * time.Second
	execImplementation   = "exec1"
	protocolExit         = "exit"
	protocolJSON         = "json"
	ruleOutcome          = "outcome"
	ruleMissing          = "missing"
	ruleFeature          = "feature"
	onFailure            = "failure"
	onAny                = "any"
	streamBoth           = "both"
	streamStdout         = "stdout"
	streamStderr         = "stderr"
	PlaceholderWorkdir   = "workdir"
	PlaceholderBitcode   = "bitcode"
	PlaceholderMetallib  = "metallib"
	PlaceholderFunction  = "function"
	reservedArtifactText = "bitcode, metallib, function and workdir are reserved"
)

var (
	namePattern   = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	codePattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9._-]+)*$`)
	envKeyPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Load reads and checks a stage configuration file. Errors name
// the file, the stage, the field and the byte offset.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxExecConfigSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxExecConfigSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxExecConfigSize)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(data, filepath.Dir(abs))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cfg.path = path
	return cfg, nil
}

// Parse decodes and checks a stage configuration. Unknown keys
// are refused by name. dir resolves relative program and work-directory
// paths.
func Parse(data []byte, dir string) (*Config, error) {
	cfg := &Config{dir: dir}
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("byte %d: %s", max(se.Offset-1, 0), se.Error())
		}
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := expectDelim(dec, '{', "the configuration"); err != nil {
		return nil, err
	}
	var raws []json.RawMessage
	var offsets []int64
	seen := map[string]bool{}
	for dec.More() {
		at := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonErr(err, at)
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("byte %d: key %q given twice", at, key)
		}
		seen[key] = true
		switch key {
		case "workdir":
			if err := dec.Decode(&cfg.WorkDir); err != nil {
				return nil, fmt.Errorf("field \"workdir\": %w", jsonErr(err, dec.InputOffset()))
			}
		case "stages":
			if err := expectDelim(dec, '[', `field "stages"`); err != nil {
				return nil, err
			}
			for dec.More() {
				start := valueStart(data, dec.InputOffset())
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return nil, fmt.Errorf("stages[%d]: %w", len(raws), jsonErr(err, start))
				}
				raws = append(raws, raw)
				offsets = append(offsets, start)
			}
			if err := expectDelim(dec, ']', `field "stages"`); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("byte %d: unknown key %q (keys: workdir, stages)", valueStart(data, at), key)
		}
	}
	if err := expectDelim(dec, '}', "the configuration"); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("byte %d: data after the configuration object", dec.InputOffset())
	}
	if !seen["stages"] {
		return nil, errors.New(`no "stages" key`)
	}
	names := map[string]bool{}
	for i, raw := range raws {
		sc, err := decodeStage(raw)
		where := fmt.Sprintf("stages[%d]", i)
		if sc.Name != "" {
			where += fmt.Sprintf(" (%q)", sc.Name)
		}
		where += fmt.Sprintf(" at byte %d", offsets[i])
		if err == nil {
			err = sc.check(cfg.dir)
		}
		if err == nil && names[sc.Name] {
			err = fmt.Errorf(`field "name": %q names two stages`, sc.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		names[sc.Name] = true
		cfg.Stages = append(cfg.Stages, sc)
	}
	if cfg.WorkDir != "" && !filepath.IsAbs(cfg.WorkDir) {
		cfg.WorkDir = filepath.Join(dir, cfg.WorkDir)
	}
	return cfg, nil
}

// stageWire decodes a stage with its rules kept raw, so that an error in a
// rule can name the rule.
type stageWire struct {
	StageConfig
	Rules []json.RawMessage `json:"rules,omitempty"`
}

func decodeStage(raw json.RawMessage) (StageConfig, error) {
	var loose struct{ Name string }
	_ = json.Unmarshal(raw, &loose)
	var w stageWire
	if err := strictDecode(raw, &w); err != nil {
		return StageConfig{Name: loose.Name}, err
	}
	sc := w.StageConfig
	for i, r := range w.Rules {
		var rule Rule
		if err := strictDecode(r, &rule); err != nil {
			return sc, fmt.Errorf("rules[%d]: %w", i, err)
		}
		sc.Rules = append(sc.Rules, rule)
	}
	return sc, nil
}

// strictDecode decodes one JSON value, refusing unknown keys by name.
func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %q: %s is not a %s", strings.TrimPrefix(te.Field, "StageConfig."), te.Value, te.Type)
		}
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// check validates one stage and resolves its relative program paths.
func (sc *StageConfig) check(dir string) error {
	if !namePattern.MatchString(sc.Name) {
		return fmt.Errorf(`field "name": %q is not a name (lower-case letters, digits, - and _, starting with a letter)`, sc.Name)
	}
	switch {
	case sc.Replace == "" && sc.After == "":
		return errors.New(`no position: give "replace" or "after"`)
	case sc.Replace != "" && sc.After != "":
		return errors.New(`fields "replace" and "after" both given: choose one`)
	}
	if len(sc.Command) == 0 || sc.Command[0] == "" {
		return errors.New(`field "command": empty (an argv array, program first)`)
	}
	for i, a := range sc.Command {
		if _, err := parseTemplate(a); err != nil {
			return fmt.Errorf("field \"command\"[%d]: %w", i, err)
		}
	}
	if strings.ContainsAny(sc.Command[0], "{}") {
		return fmt.Errorf(`field "command"[0]: the program %q must be literal, not a template`, sc.Command[0])
	}
	sc.Command[0] = resolveProgram(sc.Command[0], dir)
	if sc.Version != nil {
		if len(sc.Version) == 0 || sc.Version[0] == "" {
			return errors.New(`field "version": empty (an argv array, program first)`)
		}
		for i, a := range sc.Version {
			if strings.ContainsAny(a, "{}") {
				return fmt.Errorf("field \"version\"[%d]: %q: the version command takes no placeholders", i, a)
			}
		}
		sc.Version[0] = resolveProgram(sc.Version[0], dir)
	}
	for k, v := range sc.Env {
		if !envKeyPattern.MatchString(k) {
			return fmt.Errorf(`field "env": %q is not a variable name`, k)
		}
		if _, err := parseTemplate(v); err != nil {
			return fmt.Errorf("field \"env\"[%q]: %w", k, err)
		}
	}
	if sc.Timeout != "" {
		d, err := time.ParseDuration(sc.Timeout)
		if err != nil || d <= 0 {
			return fmt.Errorf(`field "timeout": %q is not a positive duration like "30s"`, sc.Timeout)
		}
	}
	if _, err := parseSize(sc.MemoryLimit); err != nil {
		return fmt.Errorf(`field "memory_limit": %w`, err)
	}
	if _, err := parseSize(sc.MaxOutput); err != nil {
		return fmt.Errorf(`field "max_output": %w`, err)
	}
	if sc.Workers < 0 {
		return fmt.Errorf(`field "workers": %d is negative`, sc.Workers)
	}
	switch sc.Protocol {
	case "", protocolExit, protocolJSON:
	default:
		return fmt.Errorf(`field "protocol": %q is not "exit" or "json"`, sc.Protocol)
	}
	for name, p := range sc.Artifacts {
		if err := checkArtifact(name, p); err != nil {
			return fmt.Errorf("field \"artifacts\"[%q]: %w", name, err)
		}
	}
	if sc.StdoutArtifact != "" {
		if err := checkArtifact(sc.StdoutArtifact, "{workdir}/"+sc.StdoutArtifact+".out"); err != nil {
			return fmt.Errorf(`field "stdout_artifact": %w`, err)
		}
		if _, dup := sc.Artifacts[sc.StdoutArtifact]; dup {
			return fmt.Errorf(`field "stdout_artifact": %q is also in "artifacts"`, sc.StdoutArtifact)
		}
		if sc.Protocol == protocolJSON {
			return errors.New(`field "stdout_artifact": not used with protocol "json" (stdout is the JSON)`)
		}
	}
	if sc.Protocol == protocolJSON && len(sc.Rules) > 0 {
		return errors.New(`field "rules": not used with protocol "json" (the tool's JSON is the outcome)`)
	}
	for i := range sc.Rules {
		if err := sc.Rules[i].check(); err != nil {
			return fmt.Errorf("rules[%d]: %w", i, err)
		}
	}
	if sc.DefaultCode != "" && !codePattern.MatchString(sc.DefaultCode) {
		return fmt.Errorf(`field "default_code": %q is not a code like "stage/what"`, sc.DefaultCode)
	}
	if sc.TailLines < 0 || sc.TailLines > maxTailLines {
		return fmt.Errorf(`field "tail_lines": %d is not in 0..%d`, sc.TailLines, maxTailLines)
	}
	return nil
}

// resolveProgram makes a relative program path with a slash relative to
// the configuration's directory; bare names are looked up in PATH.
func resolveProgram(p, dir string) string {
	if dir == "" || filepath.IsAbs(p) || !strings.Contains(p, "/") {
		return p
	}
	return filepath.Join(dir, p)
}

func checkArtifact(name, path string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%q is not a name", name)
	}
	switch name {
	case PlaceholderBitcode, PlaceholderMetallib, PlaceholderFunction, PlaceholderWorkdir:
		return fmt.Errorf("%q is not an artifact name: %s", name, reservedArtifactText)
	}
	if _, err := parseTemplate(path); err != nil {
		return err
	}
	rest, ok := strings.CutPrefix(path, "{"+PlaceholderWorkdir+"}/")
	if !ok {
		return fmt.Errorf("%q must start with {workdir}/", path)
	}
	if strings.ContainsAny(rest, "{}") {
		return fmt.Errorf("%q: only {workdir} may appear in an artifact path (the work directory is the module's own)", path)
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return fmt.Errorf("%q: segment %q (a plain relative path under {workdir} is needed)", path, seg)
		}
	}
	return nil
}

func (r *Rule) check() error {
	if r.Kind == "" {
		r.Kind = ruleOutcome
	}
	switch r.Kind {
	case ruleOutcome, ruleMissing, ruleFeature:
	default:
		return fmt.Errorf(`field "kind": %q is not "outcome", "missing" or "feature"`, r.Kind)
	}
	re, err := regexp.Compile(r.Pattern)
	if err != nil {
		return fmt.Errorf(`field "pattern": %w`, err)
	}
	if r.Pattern == "" {
		return errors.New(`field "pattern": empty`)
	}
	if r.Stream == "" {
		r.Stream = streamBoth
	}
	switch r.Stream {
	case streamBoth, streamStdout, streamStderr:
	default:
		return fmt.Errorf(`field "stream": %q is not "stdout", "stderr" or "both"`, r.Stream)
	}
	if r.On == "" {
		r.On = onFailure
		if r.Kind == ruleFeature {
			r.On = onAny
		}
	}
	if r.On != onFailure && r.On != onAny {
		return fmt.Errorf(`field "on": %q is not "failure" or "any"`, r.On)
	}
	if r.Detail == "" {
		r.Detail = "$0"
		if re.NumSubexp() > 0 {
			r.Detail = "$1"
		}
	}
	if r.Kind == ruleFeature {
		if r.Status != "" || r.Code != "" {
			return errors.New(`fields "status" and "code" are not used by feature rules`)
		}
		return nil
	}
	if r.Status == "" {
		r.Status = "failed"
	}
	switch r.Status {
	case "failed", "unjudged", "unavailable", "passed":
	default:
		return fmt.Errorf(`field "status": %q is not "failed", "unjudged", "unavailable" or "passed"`, r.Status)
	}
	if r.Kind == ruleMissing && r.Status != "failed" {
		return fmt.Errorf(`field "status": a missing rule fails the stage; %q is not allowed`, r.Status)
	}
	if r.Status != "failed" && r.Code != "" {
		return fmt.Errorf(`field "code": only a failed rule has a code (status is %q)`, r.Status)
	}
	if r.Status == "failed" && !codePattern.MatchString(r.Code) {
		return fmt.Errorf(`field "code": %q is not a code like "stage/what" (required for failed rules)`, r.Code)
	}
	return nil
}

// parseSize reads "", a byte count, or a count with K/M/G (KiB/MiB/GiB,
// powers of 1024) after it.
func parseSize(s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	num := strings.TrimRight(s, "KMGiB")
	unit := s[len(num):]
	mult := map[string]uint64{"": 1, "B": 1, "K": 1 << 10, "KiB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20, "G": 1 << 30, "GiB": 1 << 30}[unit]
	n, err := strconv.ParseUint(strings.TrimSpace(num), 10, 64)
	if err != nil || mult == 0 || n == 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size like \"512MiB\" or \"2GiB\"", s)
	}
	return n * mult, nil
}

func expectDelim(dec *json.Decoder, want json.Delim, what string) error {
	at := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %w", what, jsonErr(err, at))
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("byte %d: %s: expected %q, found %v", at, what, string(want), tok)
	}
	return nil
}

// jsonErr adds the byte offset to a decoding error.
func jsonErr(err error, at int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("byte %d: %s", se.Offset, se.Error())
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("byte %d: unexpected end of file", at)
	}
	return fmt.Errorf("byte %d: %s", at, strings.TrimPrefix(err.Error(), "json: "))
}

// valueStart skips the separators before the next JSON value.
func valueStart(data []byte, at int64) int64 {
	for at < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[at]) >= 0 {
		at++
	}
	return at
}
