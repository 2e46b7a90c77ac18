package sql

import (
	"testing"

	"gpusql/catalog"
	"gpusql/storage/columnar"
	"gpusql/storage/ssbgen"
)

// execDDL runs the CREATE/DROP statements of a script against cat the way
// the engine does (the binder does not change the catalog itself).
func execDDL(t testing.TB, cat *catalog.Catalog, script string) {
	t.Helper()
	ps, err := Parse(script)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	for _, p := range ps {
		st, err := Bind(cat, p)
		if err != nil {
			t.Fatalf("bind %q: %v", p.Text, err)
		}
		switch st := st.(type) {
		case *CreateTable:
			if err := cat.Create(st.Name, st.Fields, st.IfNotExists); err != nil {
				t.Fatal(err)
			}
		case *DropTable:
			for _, n := range st.Names {
				if err := cat.Drop(n, st.IfExists); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// withDict gives a string column of a catalog table a dictionary, as if
// rows holding these strings had been loaded.
func withDict(t testing.TB, cat *catalog.Catalog, table, column string, values ...string) {
	t.Helper()
	tb, ok := cat.Table(table)
	if !ok {
		t.Fatalf("no table %s", table)
	}
	i := tb.ColumnIndex(column)
	if i < 0 {
		t.Fatalf("no column %s.%s", table, column)
	}
	nt := *tb
	nt.Columns = append([]*columnar.Column(nil), tb.Columns...)
	c := *nt.Columns[i]
	c.Dict = columnar.BuildDictionary(values)
	nt.Columns[i] = &c
	cat.Put(&nt)
}

func ssbCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	cat := catalog.New()
	execDDL(t, cat, ssbgen.SchemaSQL(ssbgen.FormatTbl))
	withDict(t, cat, "part", "p_category", "MFGR#11", "MFGR#12", "MFGR#13", "MFGR#14")
	withDict(t, cat, "part", "p_mfgr", "MFGR#1", "MFGR#2", "MFGR#3", "MFGR#4", "MFGR#5")
	withDict(t, cat, "part", "p_brand1", "MFGR#2221", "MFGR#2225", "MFGR#2228", "MFGR#2229", "MFGR#2239")
	withDict(t, cat, "supplier", "s_region", "AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST")
	withDict(t, cat, "customer", "c_region", "AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST")
	withDict(t, cat, "supplier", "s_city", "UNITED KI1", "UNITED KI3", "UNITED KI5", "CHINA    1")
	withDict(t, cat, "customer", "c_city", "UNITED KI1", "UNITED KI5", "CHINA    1")
	withDict(t, cat, "date", "d_yearmonth", "Dec1997", "Jan1992")
	return cat
}
