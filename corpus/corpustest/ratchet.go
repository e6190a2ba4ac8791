package corpustest

// Reporter is the part of testing.T that Ratchet uses.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// Ratchet compares counts measured on the corpus with a table of the known
// ones (refusals, invalid modules, by name): a key not in the table, or more
// of one than it lists, is a regression; fewer is an error too, so that the
// table is lowered — and the floor it stands for raised — as features land.
func Ratchet(t Reporter, what string, got, known map[string]int) {
	t.Helper()
	for k, n := range got {
		switch want, ok := known[k]; {
		case !ok:
			t.Errorf("%s ×%d, not known: %s", what, n, k)
		case n > want:
			t.Errorf("%s ×%d (%d measured): %s", what, n, want, k)
		default:
			t.Logf("%s ×%d (known): %s", what, n, k)
		}
	}
	for k, want := range known {
		if got[k] < want {
			t.Errorf("%s ×%d, the table says %d: lower it, the floor has risen: %s", what, got[k], want, k)
		}
	}
}
