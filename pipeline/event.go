package pipeline

// EventKind says what an Event reports.
type EventKind int

// The kinds of progress events, delivered to Engine.Progress from one
// goroutine.
const (
	// SourceDone: one source was expanded into Items items.
	SourceDone EventKind = iota
	// StageDone: one item finished one stage with Status.
	StageDone
	// ItemDone: one item reached the sink.
	ItemDone
)

// Event is one progress report. Progress state is kept by its consumer, not
// by the workers.
type Event struct {
	Kind   EventKind
	Stage  string
	Status Status
	Items  int
	// Verdict is the expansion's verdict on a source (SourceDone only).
	Verdict string
}
