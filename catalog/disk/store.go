package disk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gpusql/catalog"
	"gpusql/storage/columnar"
)

// Store is an open database directory. It holds the directory's lock
// until Close, so one process at a time changes it.
type Store struct {
	dir  string
	lock *os.File
	mu   sync.Mutex
	// current is the manifest on disk; tables the snapshots it describes
	// (by key), and files each written column's metadata: a statement that
	// leaves a snapshot or a column unchanged reuses its files.
	current manifest
	tables  map[string]*columnar.Table
	files   map[*columnar.Column]columnMeta
	// remapFiles is the file of each remap written or mapped.
	remapFiles map[*columnar.ColumnRemap]remapMeta
	// noSync skips fsync: a commit then survives the process being killed
	// (the page cache holds it) but not a power loss. For tests.
	noSync bool
}

// Open opens the database directory at dir, creating it when absent, and
// returns the catalog state it holds. noSync skips every fsync (tests: safe
// against a killed process, not against a power loss).
func Open(dir string, noSync bool) (*Store, catalog.State, error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, catalog.State{}, fmt.Errorf("database %s is a file, not a database directory (to run a script: gpusql -f %s)", dir, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, catalog.State{}, fmt.Errorf("database %s: %w", dir, err)
	}
	lk, err := lock(dir)
	if err != nil {
		return nil, catalog.State{}, err
	}
	s := &Store{dir: dir, lock: lk, tables: map[string]*columnar.Table{}, files: map[*columnar.Column]columnMeta{},
		remapFiles: map[*columnar.ColumnRemap]remapMeta{}, noSync: noSync}
	state, err := s.load()
	if err != nil {
		lk.Close()
		return nil, catalog.State{}, err
	}
	s.removeUnreferenced()
	return s, state, nil
}

// Dir is the database directory.
func (s *Store) Dir() string { return s.dir }

// Close releases the lock. The maps stay valid (they are never unmapped).
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return nil
	}
	err := s.lock.Close()
	s.lock = nil
	return err
}

// load reads the manifest (a missing one is a new, empty database) and
// maps every column.
func (s *Store) load() (catalog.State, error) {
	state := catalog.State{Tables: map[string]*columnar.Table{}, Indexes: map[string][]catalog.Index{}, Views: map[string]catalog.View{},
		Checks: map[string][]catalog.Check{}, ForeignKeys: map[string][]catalog.ForeignKey{}, AutoIncrement: map[string]uint64{}, Remaps: map[string][]*columnar.ColumnRemap{},
		Options: map[string]catalog.TableOptions{}}
	m, err := readManifest(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		s.current = manifest{Format: FormatVersion}
		return state, nil
	}
	if err != nil {
		return state, err
	}
	for _, tm := range m.Tables {
		t, err := s.mapTable(tm)
		if err != nil {
			return state, err
		}
		k := strings.ToLower(tm.Name)
		state.Tables[k] = t
		if len(tm.Indexes) > 0 {
			state.Indexes[k] = tm.Indexes
		}
		if len(tm.Checks) > 0 {
			state.Checks[k] = tm.Checks
		}
		if len(tm.ForeignKeys) > 0 {
			state.ForeignKeys[k] = tm.ForeignKeys
		}
		if tm.AutoIncrement > 1 {
			state.AutoIncrement[k] = tm.AutoIncrement
		}
		if tm.Options != nil {
			state.Options[k] = *tm.Options
		}
		if rs := s.loadRemaps(tm, t); len(rs) > 0 {
			state.Remaps[k] = rs
		}
		s.tables[k] = t
	}
	for _, v := range m.Views {
		state.Views[strings.ToLower(v.Name)] = v
	}
	s.current = m
	return state, nil
}

func (s *Store) mapTable(tm tableMeta) (*columnar.Table, error) {
	if len(tm.Columns) != len(tm.Fields) {
		return nil, fmt.Errorf("database %s: manifest lists %d files for the %d columns of table %s", s.dir, len(tm.Columns), len(tm.Fields), tm.Name)
	}
	t := &columnar.Table{Name: tm.Name, Fields: tm.Fields, Rows: tm.Rows,
		Columns: make([]*columnar.Column, len(tm.Fields)), Stats: make([][]columnar.ChunkStats, len(tm.Fields))}
	for j, f := range tm.Fields {
		what := fmt.Sprintf("table %s column %s", tm.Name, f.Name)
		c, stats, err := mapColumn(s.dir, tm.Columns[j], f, tm.Rows, what)
		if err != nil {
			return nil, err
		}
		t.Columns[j], t.Stats[j] = c, stats
		s.files[c] = tm.Columns[j]
	}
	t.RememberSummaries()
	return t, nil
}

// readManifest reads and checks MANIFEST: a first line
// "gpusql-database <format> <crc32c of the rest>", then the JSON.
func readManifest(dir string) (manifest, error) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m, err
	}
	head, body, ok := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(head))
	if !ok || len(f) != 3 || f[0] != "gpusql-database" {
		return m, fmt.Errorf("database %s: %s is not a gpusql manifest", dir, manifestName)
	}
	version, err := strconv.Atoi(f[1])
	if err != nil {
		return m, fmt.Errorf("database %s: bad format version %q", dir, f[1])
	}
	if version > FormatVersion {
		return m, fmt.Errorf("database %s has format version %d, newer than this gpusql reads (%d): open it with a newer gpusql, or EXPORT DATABASE there and IMPORT DATABASE here", dir, version, FormatVersion)
	}
	crc, err := strconv.ParseUint(f[2], 16, 32)
	if err != nil || crc32.Checksum(body, castagnoli) != uint32(crc) {
		return m, fmt.Errorf("database %s: %s is damaged (checksum mismatch)", dir, manifestName)
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return m, fmt.Errorf("database %s: %s: %w", dir, manifestName, err)
	}
	return m, nil
}

// Commit makes state the database's content: the files of every new
// column are written and fsynced, then a new manifest is written to a
// temporary file, fsynced and renamed over MANIFEST, and the directory
// fsynced. The rename is the commit point: a crash before it leaves the
// old manifest (and some unreferenced files, removed at the next open); a
// crash after it, the new one. When Commit fails the old state stays on
// disk and the caller must put it back in memory.
func (s *Store) Commit(state catalog.State) error { return s.commit(state, false) }

// Checkpoint rewrites every column that has appended runs as one file
// (then mapped whole at the next open), under a new manifest.
func (s *Store) Checkpoint(state catalog.State) error { return s.commit(state, true) }

func (s *Store) commit(state catalog.State, fold bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return fmt.Errorf("database %s is closed", s.dir)
	}
	next := manifest{Format: FormatVersion, Generation: s.current.Generation + 1}
	files := map[*columnar.Column]columnMeta{}
	remapFiles := map[*columnar.ColumnRemap]remapMeta{}
	keys := make([]string, 0, len(state.Tables))
	for k := range state.Tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for ti, k := range keys {
		t := state.Tables[k]
		tm := tableMeta{Name: t.Name, Rows: t.Rows, Fields: t.Fields, Indexes: state.Indexes[k], Checks: state.Checks[k], ForeignKeys: state.ForeignKeys[k], AutoIncrement: state.AutoIncrement[k]}
		if o, ok := state.Options[k]; ok {
			tm.Options = &o
		}
		for j, c := range t.Columns {
			cm, ok := s.files[c]
			if !ok || cm.valueBytes() != int64(valueBytes(c)) || (fold && len(cm.Tail) > 0) {
				name := fmt.Sprintf("g%08d-t%04d-c%04d.col", next.Generation, ti, j)
				var err error
				if cm, err = s.writeColumn(name, k, j, c, t, fold); err != nil {
					return fmt.Errorf("database %s: writing table %s column %s: %w", s.dir, t.Name, t.Fields[j].Name, err)
				}
			}
			files[c] = cm
			tm.Columns = append(tm.Columns, cm)
		}
		var err error
		if tm.Remaps, err = s.remapsOf(state.Remaps[k], next.Generation, ti, t, remapFiles); err != nil {
			return fmt.Errorf("database %s: %w", s.dir, err)
		}
		next.Tables = append(next.Tables, tm)
	}
	vkeys := make([]string, 0, len(state.Views))
	for k := range state.Views {
		vkeys = append(vkeys, k)
	}
	sort.Strings(vkeys)
	for _, k := range vkeys {
		next.Views = append(next.Views, state.Views[k])
	}
	if err := writeManifest(s.dir, next, !s.noSync); err != nil {
		return fmt.Errorf("database %s: %w", s.dir, err)
	}
	s.current, s.files, s.tables, s.remapFiles = next, files, state.Tables, remapFiles
	s.removeUnreferenced()
	return nil
}

// writeColumn writes column j of table t (key k) to the file name. When
// the column holds the previous snapshot's column followed by new rows (an
// INSERT or LOAD appended them; the bytes say so, whatever the statement),
// only the new rows are written and the column keeps the earlier files'
// values: a small INSERT into a big table writes a small file.
func (s *Store) writeColumn(name, k string, j int, c *columnar.Column, t *columnar.Table, fold bool) (columnMeta, error) {
	var stats []columnar.ChunkStats
	if j < len(t.Stats) {
		stats = t.Stats[j]
	}
	if prev, pm, ok := s.appendBase(k, j, c); ok && !fold {
		m, err := writeColumn(s.dir, name, c, stats, prev.Len, !s.noSync)
		if err != nil {
			return m, err
		}
		tail := append([]section(nil), pm.Tail...)
		m.Tail = append(tail, m.Values.in(name))
		m.Values = pm.Values.in(pm.File)
		return m, nil
	}
	return writeColumn(s.dir, name, c, stats, 0, !s.noSync)
}

// appendBase returns the previous snapshot's column j of table k and its
// files when c begins with exactly its values and may take one more run.
func (s *Store) appendBase(k string, j int, c *columnar.Column) (*columnar.Column, columnMeta, bool) {
	prevT := s.tables[k]
	if prevT == nil || j >= len(prevT.Columns) {
		return nil, columnMeta{}, false
	}
	prev := prevT.Columns[j]
	pm, ok := s.files[prev]
	if !ok || prev.Type != c.Type || prev.Len == 0 || c.Len <= prev.Len || len(pm.Tail) >= maxTail || isVarVector(c.Type) {
		return nil, columnMeta{}, false
	}
	n := prev.Len * width(c.Type)
	if !bytes.Equal(c.Data()[:n], prev.Data()[:n]) {
		return nil, columnMeta{}, false
	}
	return prev, pm, true
}

func writeManifest(dir string, m manifest, sync bool) error {
	body, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	head := fmt.Sprintf("gpusql-database %d %08x\n", m.Format, crc32.Checksum(body, castagnoli))
	tmp := filepath.Join(dir, manifestName+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append([]byte(head), body...))
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, manifestName)); err != nil || !sync {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// removeUnreferenced deletes column files the manifest does not name:
// those of replaced snapshots, and those a crash left before its commit
// point. Failing to remove one only wastes space.
func (s *Store) removeUnreferenced() {
	keep := map[string]bool{}
	for _, t := range s.current.Tables {
		for _, c := range t.Columns {
			_, secs := c.sections()
			for _, sec := range secs {
				keep[c.fileOf(sec)] = true
			}
		}
		for _, r := range t.Remaps {
			keep[r.File] = true
		}
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		ours := strings.HasSuffix(n, ".col") || strings.HasSuffix(n, ".remap")
		if (ours && !keep[n]) || n == manifestName+".tmp" {
			os.Remove(filepath.Join(s.dir, n))
		}
	}
}

// Size is the bytes on disk of the named table's column files (0 for a
// table not yet written).
func (s *Store) Size(table string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for _, t := range s.current.Tables {
		if strings.EqualFold(t.Name, table) {
			for _, c := range t.Columns {
				n += c.bytes() + headerSize
			}
			for _, r := range t.Remaps {
				n += r.Size
			}
		}
	}
	return n
}
