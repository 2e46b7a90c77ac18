package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"gpusql/sql"
	"gpusql/storage/columnar"
)

// load runs LOAD DATA INFILE / IMPORT INTO: the loader builds a new snapshot
// (old rows + the file's) inside catalog.Update, so a file that fails to
// parse leaves the table unchanged. A relative path is relative to the
// script's folder (baseDir), as in schema.sql files that sit next to their
// data.
func (db *DB) load(ctx context.Context, s *sql.Load, baseDir string) (*StatementResult, error) {
	path, err := db.filePath(s.Path, baseDir)
	if err != nil {
		return nil, err
	}
	added := 0
	prog := progressOf(ctx)
	task := "load " + filepath.Base(path)
	err = db.cat.Update(s.Table, func(old *columnar.Table) (*columnar.Table, error) {
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
	if db.opts.Remap == "load" {
		db.buildRemaps(s.Table)
	}
	return r, nil
}

// filePath resolves a path a statement names. Under a file root (a server
// session's --file-root) a relative path is relative to the root, and the
// file, with every symbolic link on the way resolved, must lie inside it:
// "../x" and a link pointing out are refused before anything is opened.
func (db *DB) filePath(path, baseDir string) (string, error) {
	if db.noFiles {
		return "", &FileRootError{Path: path, NoRoot: true}
	}
	if db.fileRoot == "" {
		if !filepath.IsAbs(path) && baseDir != "" {
			path = filepath.Join(baseDir, path)
		}
		return path, nil
	}
	root, err := filepath.EvalSymlinks(db.fileRoot)
	if err != nil {
		return "", fmt.Errorf("file root %s: %w", db.fileRoot, err)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("file '%s': %w", path, errors.Unwrap(err))
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", &FileRootError{Path: path}
	}
	return real, nil
}

// FileRootError is a file outside the server's file root (MySQL's error
// 1290 under secure_file_priv).
type FileRootError struct {
	Path   string
	NoRoot bool // the session reads no files at all
}

func (e *FileRootError) Error() string {
	if e.NoRoot {
		return fmt.Sprintf("file '%s': the server reads no files (start it with --file-root DIR to allow reading under DIR)", e.Path)
	}
	return fmt.Sprintf("file '%s' is outside the server's file root (--file-root): the server reads files only under it", e.Path)
}
