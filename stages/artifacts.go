package stages

// artifacts are what the stages after the container hand to each other.
type artifacts struct{}
