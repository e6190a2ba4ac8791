package analytics

// SetStage sets the <stage>_status and <stage>_ms columns of stage s, one of
// StageNames. It panics on any other name (a programming error).
func (r *Row) SetStage(s, status string, ms int64) { r.setStatus(s, status, ms) }
