package engine

import (
	"context"
	"fmt"
	"path/filepath"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// load runs LOAD DATA INFILE / IMPORT INTO: the loader builds a new snapshot
// (old rows + the file's) inside catalog.Update, so a file that fails to
// parse leaves the table unchanged. A relative path is relative to the
// script's folder (baseDir), as in schema.sql files that sit next to their
// data.
func (db *DB) load(ctx context.Context, s *sql.Load, baseDir string) (*StatementResult, error) {
	path := s.Path
	if !filepath.IsAbs(path) && baseDir != "" {
		path = filepath.Join(baseDir, path)
	}
	added := 0
	prog := progressOf(ctx)
	task := "load " + filepath.Base(path)
	err := db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
		var t *columnar.Table
		var err error
		switch s.Format {
		case "parquet":
			t, err = columnar.LoadParquet(old, path, columnar.ParquetOptions{Progress: prog.stepper(task, "rows")})
		case "csv", "":
			t, err = columnar.LoadDelimited(old, path, columnar.DelimitedOptions{
				Delimiter:   s.Delimiter,
				Enclosure:   s.Enclosure,
				IgnoreLines: s.IgnoreLines,
				Progress:    prog.stepper(task, "bytes"),
			})
		default:
			return nil, fmt.Errorf("unknown file format %q (want csv or parquet)", s.Format)
		}
		if err != nil {
			return nil, err
		}
		added = t.Rows - old.Rows
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	r := message("loaded %d %s into %s", added, plural(added, "row"), s.Table)
	r.RowsAffected = int64(added)
	return r, nil
}
