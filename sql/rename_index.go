package sql

// RenameIndex is ALTER TABLE t RENAME {INDEX | KEY} from TO to.
type RenameIndex struct {
	Table, From, To string
}

func (*RenameIndex) statement() {}
