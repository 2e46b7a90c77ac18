package cpu

// Expression evaluators have no error result (they run in tight loops);
// the rare error found while evaluating — a nested subquery that returns
// several rows, or fails — is raised as a panic carrying it, which the
// executor's recover turns back into the query's error.

type raised struct{ err error }

func raise(err error) { panic(raised{err}) }

// recovered converts a recovered panic value into the query's error.
func recovered(r any) (error, bool) {
	if e, ok := r.(raised); ok {
		return e.err, true
	}
	return nil, false
}
