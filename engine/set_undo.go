package engine

// engineUndo captures what SET name changes of gpusql's own variables and
// returns how to put it back. Their setters check as they apply, so a SET
// whose later setter fails undoes the earlier ones: the statement is all
// or nothing, as MySQL's SET is (SET join_algorithm = 'hash', memory_limit
// = 'bogus' leaves join_algorithm as it was).
func (db *DB) engineUndo(name string) func() {
	shown, had := db.session.Variable(name)
	var restore func()
	switch name {
	case "memory_limit":
		limit := db.mem.Limit()
		restore = func() { db.mem.SetLimit(limit) }
	case "gpu_memory":
		n := db.gpuMem.n.Load()
		restore = func() { db.gpuMem.n.Store(n) }
	case "gpus":
		ids := db.gpus.ids.Load()
		restore = func() { db.gpus.ids.Store(ids) }
	}
	return func() {
		if restore != nil {
			restore()
		}
		if had {
			db.session.SetEngineVariable(name, shown)
		}
	}
}

// applyAll runs the engine's setters, then the checked assignments; when
// a setter fails, the setters that ran are undone.
func (db *DB) applyAll(engine []engineApply, checked []func() error) error {
	for i, e := range engine {
		if err := e.apply(); err != nil {
			for j := i - 1; j >= 0; j-- {
				engine[j].undo()
			}
			return err
		}
	}
	for _, apply := range checked {
		if err := apply(); err != nil {
			return err
		}
	}
	return nil
}

// engineApply is one of gpusql's own variables' setters of a SET and the
// undo of what it changes.
type engineApply struct {
	apply func() error
	undo  func()
}
