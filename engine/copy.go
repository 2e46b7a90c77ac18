package engine

import (
	"context"
	"path/filepath"

	"gpusql/sql"
	"gpusql/storage/export"
)

// copyTo runs COPY ... TO / SELECT ... INTO OUTFILE: the query runs as any
// other (on the GPU where it would), then export.WriteFile writes its rows
// atomically. A relative path is relative to the script's folder, as LOAD
// DATA's is.
func (db *DB) copyTo(ctx context.Context, s *sql.Copy, baseDir string) (*StatementResult, error) {
	res, executor, err := db.query(ctx, s.Query)
	if err != nil {
		return nil, err
	}
	path := s.Path
	if !filepath.IsAbs(path) && baseDir != "" {
		path = filepath.Join(baseDir, path)
	}
	opts := export.Options{
		Format: s.Format,
		CSV: export.CSVOptions{
			Header: s.Header, Delimiter: s.Delimiter, Quote: s.Quote,
			QuoteAll: s.QuoteAll, Null: s.Null,
		},
		NoOverwrite: s.Outfile,
	}
	if err := export.WriteFile(path, res, opts); err != nil {
		return nil, err
	}
	r := message("wrote %d %s to %s", res.Rows, plural(res.Rows, "row"), s.Path)
	r.RowsAffected = int64(res.Rows)
	r.Executor = executor
	return r, nil
}
