package ssbgen_test

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gpusql/catalog"
	"gpusql/sql"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// loadText generates the SSB files for opts and loads them as a user
// would: schema.sql's statements bound by sql.Bind, the files read by
// the delimited loader.
func loadText(t *testing.T, opts ssbgen.Options) *catalog.Catalog {
	t.Helper()
	opts.Out = t.TempDir()
	if _, err := ssbgen.Generate(opts); err != nil {
		t.Fatal(err)
	}
	ps, err := sql.Parse(ssbgen.SchemaSQL(ssbgen.FormatTbl))
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.New()
	for _, p := range ps {
		st, err := sql.Bind(cat, p)
		if err != nil {
			t.Fatal(err)
		}
		switch st := st.(type) {
		case *sql.CreateTable:
			err = cat.Create(st.Name, st.Fields, false)
		case *sql.Load:
			err = cat.Update(st.Table, func(old *columnar.Table) (*columnar.Table, error) {
				return columnar.LoadDelimited(old, filepath.Join(opts.Out, st.Path),
					columnar.DelimitedOptions{Delimiter: st.Delimiter, Enclosure: st.Enclosure})
			})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return cat
}

// The tables generated in memory are the tables loaded from the text
// generator's files for the same scale factor, seed and skew: the same
// types, rows, dictionaries (compared as strings), values and chunk
// statistics. SF 1e-6 makes one order, so most of lineorder's string
// vocabularies are absent and their dictionaries must shrink as the
// loader's do; SF 0.05 spans several lineorder blocks and statistics
// chunks; the skewed case draws Zipf keys.
func TestTablesEqualLoadedText(t *testing.T) {
	for _, c := range []struct {
		sf, skew float64
		seed     uint64
		workers  int
	}{
		{sf: 1e-6, workers: 2},
		{sf: 0.01, workers: 1},
		{sf: 0.05, seed: 11, workers: 3},
		{sf: 0.02, seed: 5, skew: 0.9, workers: 4},
		{sf: 0.05, seed: 2, workers: 32}, // more workers than blocks of some tables
	} {
		t.Run(fmt.Sprintf("sf%g_seed%d_skew%g", c.sf, c.seed, c.skew), func(t *testing.T) {
			cat := loadText(t, ssbgen.Options{SF: c.sf, Seed: c.seed, Skew: c.skew})
			got, err := ssbgen.GenerateTables(ssbgen.TableOptions{SF: c.sf, Seed: c.seed, Skew: c.skew, Workers: c.workers})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 5 {
				t.Fatalf("%d tables, want 5", len(got))
			}
			for _, g := range got {
				want, ok := cat.Table(g.Name)
				if !ok {
					t.Fatalf("generated a table %s that schema.sql does not create", g.Name)
				}
				compareTables(t, g, want)
			}
			if lo := got[0]; int64(lo.Rows) != ssbgen.RowCounts(c.sf)["lineorder"] {
				t.Errorf("lineorder has %d rows, RowCounts says %d", lo.Rows, ssbgen.RowCounts(c.sf)["lineorder"])
			}
		})
	}
}

func compareTables(t *testing.T, got, want *columnar.Table) {
	t.Helper()
	if !reflect.DeepEqual(got.Fields, want.Fields) {
		t.Fatalf("%s: fields\n%+v\nwant\n%+v", got.Name, got.Fields, want.Fields)
	}
	if got.Rows != want.Rows {
		t.Fatalf("%s: %d rows, want %d", got.Name, got.Rows, want.Rows)
	}
	for c, f := range got.Fields {
		g, w := got.Columns[c], want.Columns[c]
		where := got.Name + "." + f.Name
		if g.Len != w.Len || g.Type != w.Type || (g.Valid == nil) != (w.Valid == nil) ||
			(g.I32 == nil) != (w.I32 == nil) || (g.I64 == nil) != (w.I64 == nil) {
			t.Fatalf("%s: column shape %d rows %v, want %d rows %v", where, g.Len, g.Type, w.Len, w.Type)
		}
		if f.Type.ID == columnar.String && !slices.Equal(g.Dict.Values, w.Dict.Values) {
			t.Fatalf("%s: dictionary %q, want %q", where, head(g.Dict.Values), head(w.Dict.Values))
		}
		for r := range got.Rows {
			if f.Type.ID == columnar.String {
				if gs, ws := g.StringAt(r), w.StringAt(r); gs != ws {
					t.Fatalf("%s row %d: %q, want %q", where, r+1, gs, ws)
				}
			} else if gv, wv := g.Int64At(r), w.Int64At(r); gv != wv {
				t.Fatalf("%s row %d: %d, want %d", where, r+1, gv, wv)
			}
		}
		if !reflect.DeepEqual(got.Stats[c], want.Stats[c]) {
			t.Fatalf("%s: chunk statistics %+v, want %+v", where, got.Stats[c], want.Stats[c])
		}
	}
}

func head(s []string) []string { return s[:min(len(s), 10)] }

func TestGenerateTablesRejectsBadOptions(t *testing.T) {
	for _, o := range []ssbgen.TableOptions{{SF: 0}, {SF: -1}, {SF: math.NaN()}, {SF: math.Inf(1)}, {SF: 1, Skew: -1}} {
		if _, err := ssbgen.GenerateTables(o); err == nil {
			t.Errorf("GenerateTables(%+v) succeeded", o)
		}
	}
}

// ColumnBytes, which estimates lineorder's rows, is within 0.5 % of the
// bytes GenerateTables allocates.
func TestColumnBytes(t *testing.T) {
	for _, sf := range []float64{0.01, 0.05} {
		tables, err := ssbgen.GenerateTables(ssbgen.TableOptions{SF: sf})
		if err != nil {
			t.Fatal(err)
		}
		var got int64
		for _, tb := range tables {
			for _, c := range tb.Columns {
				got += c.Bytes()
			}
		}
		if est := ssbgen.ColumnBytes(sf); math.Abs(float64(est-got)) > 0.005*float64(got) {
			t.Errorf("SF %g: ColumnBytes %d, the tables hold %d", sf, est, got)
		}
	}
}
