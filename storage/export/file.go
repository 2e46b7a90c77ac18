// Package export writes query results to files: CSV (csv.go) and Parquet
// (parquet.go), for COPY ... TO and SELECT ... INTO OUTFILE. Files appear
// atomically (WriteFile): a failed export leaves nothing under the target
// name.
package export

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"gpusql/exec"
)

// Options say how to write a result.
type Options struct {
	// Format is "csv" or "parquet".
	Format string
	CSV    CSVOptions
	// NoOverwrite refuses to replace an existing file (MySQL's INTO
	// OUTFILE); otherwise the file is replaced, as DuckDB's COPY does.
	NoOverwrite bool
}

// WriteFile writes r to path. The rows go to a temporary file in path's
// folder that is renamed over path only when every row was written and the
// file synced, so readers see the old file or the whole new one, and an
// error (a value CSV cannot hold, a full disk) leaves no file behind.
func WriteFile(path string, r *exec.Result, opts Options) error {
	fail := func(err error) error { return fmt.Errorf("write %s: %w", path, err) }
	if opts.NoOverwrite {
		if _, err := os.Lstat(path); err == nil {
			return fail(errors.New("file already exists (INTO OUTFILE does not overwrite; remove it or use COPY ... TO)"))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fail(err)
		}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fail(errors.New("is a directory"))
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fail(unwrapPath(err))
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	switch opts.Format {
	case "csv", "":
		bw := bufio.NewWriterSize(tmp, 1<<20)
		if err = WriteCSV(bw, r, opts.CSV); err == nil {
			err = bw.Flush()
		}
	case "parquet":
		err = WriteParquet(tmp, r)
	default:
		err = fmt.Errorf("unknown format %q (want csv or parquet)", opts.Format)
	}
	if err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	// CreateTemp makes the file 0600; an export is an ordinary file.
	_ = os.Chmod(tmp.Name(), 0o644)
	if opts.NoOverwrite {
		// Link fails when path appeared meanwhile, where Rename would
		// silently replace it.
		if err := os.Link(tmp.Name(), path); err != nil {
			return fail(unwrapPath(err))
		}
		os.Remove(tmp.Name())
	} else if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(unwrapPath(err))
	}
	ok = true
	return nil
}

// unwrapPath drops the *PathError's repetition of the (temporary) path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
