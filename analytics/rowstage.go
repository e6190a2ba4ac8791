package analytics

import "fmt"

// Status returns the row's <stage>_status column for stage s ("" for a
// stage that was not in the run, or an unknown stage name).
func (r *Row) Status(s string) string {
	switch s {
	case "container":
		return r.ContainerStatus
	case "reader":
		return r.ReaderStatus
	case "translate":
		return r.TranslateStatus
	case "compile":
		return r.CompileStatus
	case "emulator":
		return r.EmulatorStatus
	case "device":
		return r.DeviceStatus
	}
	return ""
}

// setStatus sets the status and duration columns of stage s; it panics on
// a stage name outside StageNames, which is a programming error.
func (r *Row) setStatus(s, status string, ms int64) {
	switch s {
	case "container":
		r.ContainerStatus, r.ContainerMS = status, ms
	case "reader":
		r.ReaderStatus, r.ReaderMS = status, ms
	case "translate":
		r.TranslateStatus, r.TranslateMS = status, ms
	case "compile":
		r.CompileStatus, r.CompileMS = status, ms
	case "emulator":
		r.EmulatorStatus, r.EmulatorMS = status, ms
	case "device":
		r.DeviceStatus, r.DeviceMS = status, ms
	default:
		panic(fmt.Sprintf("analytics: unknown stage %q", s))
	}
}

// stageIndex returns the position of s in StageNames, or -1 for "" and
// unknown names. A row that reached no stage has index -1.
func stageIndex(s string) int {
	for i, n := range StageNames {
		if n == s {
			return i
		}
	}
	return -1
}

// ModuleKey identifies a module across runs: the bitcode it carries, the
// library it came from and the function name.
type ModuleKey struct {
	BitcodeSHA256 string `json:"bitcode_sha256"`
	Source        string `json:"source"`
	Function      string `json:"function"`
}

// Key returns the row's module key.
func (r *Row) Key() ModuleKey {
	return ModuleKey{BitcodeSHA256: r.BitcodeSHA256, Source: r.Source, Function: r.Function}
}

// String renders the key as source!function (sha prefix).
func (k ModuleKey) String() string {
	sha := k.BitcodeSHA256
	if len(sha) > 12 {
		sha = sha[:12]
	}
	return fmt.Sprintf("%s!%s (%s)", k.Source, k.Function, sha)
}
