package analytics

// Outcome statuses a module can end with, besides the stage statuses.
const (
	// EndedPassed means the module passed every stage of its run.
	EndedPassed = "passed"
)

// Outcome returns where and how a module's run ended: the first stage (in
// StageNames order, skipping stages absent from the run) whose status is
// neither "passed" nor "skipped", and that status. A stage the user
// excluded (--skip-stages) does not end the run — the stages after it ran
// (a device stage with the emulator skipped) — so a later stage's failure
// or set-aside is where the module ended. A module whose every other stage
// passed ends with the first skipped stage and "skipped", and one that
// passed every stage of the run with ("", "passed").
func (r *Row) Outcome() (stage, status string) {
	skipped := ""
	for _, s := range StageNames {
		switch st := r.Status(s); st {
		case "", "passed":
			continue
		case "skipped":
			if skipped == "" {
				skipped = s
			}
		default:
			return s, st
		}
	}
	if skipped != "" {
		return skipped, "skipped"
	}
	return "", EndedPassed
}

// isSetAside reports whether a status puts a module aside rather than
// failing it: the stage could not judge it, its tool was absent, or the
// user excluded the stage.
func isSetAside(status string) bool {
	return status == "unjudged" || status == "unavailable" || status == "skipped"
}

// runStages returns the stages a run's rows carry: the run's own list when
// run.json has one, StageNames otherwise.
func runStages(meta RunMeta) []string {
	if len(meta.Stages) == 0 {
		return StageNames
	}
	var out []string
	for _, s := range StageNames {
		for _, m := range meta.Stages {
			if m == s {
				out = append(out, s)
			}
		}
	}
	return out
}

// reachedByStatus returns the index in StageNames of the last stage of the
// unbroken run of passes from the start, read from the status columns
// (stages absent from the run are stepped over); -1 when none passed. It
// agrees with stage_reached in a consistent row.
func (r *Row) reachedByStatus() int {
	last := -1
	for i, s := range StageNames {
		switch r.Status(s) {
		case "":
			continue
		case "passed":
			last = i
		default:
			return last
		}
	}
	return last
}
