package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// deployEnv is what the recipes' variables stand for in the test: the
// variables a scheduler sets (and the recipes' own), nothing else.
var deployEnv = map[string]string{
	"JOB_COMPLETION_INDEX": "3", "RUN_ID": "airpipe-nightly-29012345", "dir": "/results/airpipe-nightly-29012345",
	"SLURM_ARRAY_JOB_ID": "4711", "SLURM_ARRAY_TASK_ID": "3", "SLURM_CPUS_PER_TASK": "8",
}

// shellWords splits a shell command line into words, expanding $VAR and
// ${VAR} from env inside double quotes and bare words (single quotes
// literal). A variable env lacks, or shell syntax beyond that, fails.
func shellWords(line string, env map[string]string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, byte(0)
	varRe := regexp.MustCompile(`^\$(\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))`)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'' && c != '\'':
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			if quote == c {
				quote = 0
			} else if quote == 0 {
				quote, inWord = c, true
			} else {
				cur.WriteByte(c)
			}
		case c == '$':
			m := varRe.FindStringSubmatch(line[i:])
			if m == nil {
				return nil, errorString("unsupported $ at " + line[i:])
			}
			name := m[2] + m[3]
			v, ok := env[name]
			if !ok {
				return nil, errorString("variable " + name + " is not one a scheduler sets here")
			}
			cur.WriteString(v)
			inWord = true
			i += len(m[0]) - 1
		case quote == 0 && (c == ' ' || c == '\t'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case quote == 0 && strings.IndexByte("|&;<>()`*?", c) >= 0:
			return nil, errorString("unsupported shell syntax " + string(c))
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errorString("unterminated quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// recipeCommands returns every airpipe command line of a recipe file,
// with backslash continuations joined, as words after "airpipe".
func recipeCommands(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	var cmds [][]string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, p := range []string{"exec ", "RUN "} {
			line = strings.TrimPrefix(line, p)
		}
		rest, ok := strings.CutPrefix(line, "airpipe ")
		if !ok {
			continue
		}
		words, err := shellWords(rest, deployEnv)
		if err != nil {
			t.Errorf("%s: %q: %v", path, line, err)
			continue
		}
		cmds = append(cmds, words)
	}
	return cmds
}

// TestDeployRecipesParse checks every airpipe command of deploy/ against
// the real command line: the subcommand exists and takes every flag and
// value given (the command with --help appended exits 0), and for run the
// arguments name paths or a run to resume, and a valid --shard.
func TestDeployRecipesParse(t *testing.T) {
	files := []string{"Dockerfile", "kubernetes/nightly.yaml", "slurm/airpipe-array.sh"}
	total := 0
	for _, f := range files {
		path := filepath.Join("..", "..", "deploy", filepath.FromSlash(f))
		cmds := recipeCommands(t, path)
		if len(cmds) == 0 {
			t.Errorf("%s: no airpipe command found", f)
		}
		for _, args := range cmds {
			total++
			var stderr strings.Builder
			if code := run(append(append([]string(nil), args...), "--help"), io.Discard, &stderr); code != 0 {
				t.Errorf("%s: airpipe %s: exit %d: %s", f, strings.Join(args, " "), code, stderr.String())
				continue
			}
			if args[0] != "run" {
				continue
			}
			var o runOptions
			fs := newFlags("run", "run", "", io.Discard)
			bindRunFlags(fs, &o)
			if err := fs.Parse(args[1:]); err != nil {
				t.Errorf("%s: airpipe %s: %v", f, strings.Join(args, " "), err)
				continue
			}
			if sh, err := parseShard(o.shard); err != nil || (o.shard != "" && sh.n < 2) {
				t.Errorf("%s: airpipe %s: --shard %q: %v", f, strings.Join(args, " "), o.shard, err)
			}
			if (o.resume == "") == (fs.NArg() == 0) {
				t.Errorf("%s: airpipe %s: wants PATHs or --resume, not both or neither", f, strings.Join(args, " "))
			}
		}
	}
	if total < 5 {
		t.Errorf("%d airpipe commands in the recipes, want at least 5", total)
	}
	// The image holds the Debian package of every tool a stage calls.
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"llvm-19", "gcc", "libc6-dev", "spirv-tools", "mesa-vulkan-drivers", "libvulkan1", "p7zip-full"} {
		if !regexp.MustCompile(`(?m)^\s+.*\b` + regexp.QuoteMeta(pkg) + `\b`).Match(b) {
			t.Errorf("Dockerfile installs no %s", pkg)
		}
	}
}

// TestShellWords shows the recipe parser able to fail: bad flags and
// unknown variables are caught, not skipped.
func TestShellWords(t *testing.T) {
	w, err := shellWords(`run --shard "$SLURM_ARRAY_TASK_ID/8" --out '/a b' x`, deployEnv)
	if err != nil || strings.Join(w, "|") != "run|--shard|3/8|--out|/a b|x" {
		t.Errorf("%q %v", w, err)
	}
	if _, err := shellWords(`run --out "$HOME" x`, deployEnv); err == nil {
		t.Error("an unknown variable passed")
	}
	if code := run([]string{"run", "--shardd", "3/8", "x", "--help"}, io.Discard, io.Discard); code == 0 {
		t.Error("a misspelt flag passed the --help check")
	}
}
