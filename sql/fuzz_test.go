package sql

import (
	"gpusql/storage/ssbgen"
	"testing"
)

// FuzzBind feeds arbitrary text to Parse and Bind: they must return errors,
// never panic. It calls the unexported parse/bind, which do not recover, so
// a panic fails the fuzzer. Seeds: the golden records and the SSB queries.
//
//	go test ./sql -run '^$' -fuzz FuzzBind -fuzztime 60s
func FuzzBind(f *testing.F) {
	recs := readRecords(f, "testdata/bind.test")
	for _, r := range recs {
		f.Add(r.sql)
	}
	for _, q := range ssbgen.Queries() {
		f.Add(q.SQL)
	}
	// The pre-parse recognizers: COPY and files in FROM.
	f.Add("copy (select a from t where b = 'x') to 'o.csv' with (format csv, header false, delimiter '|', null 'NA');\nselect 1;")
	f.Add("copy t to 'o.parquet'; select * from read_csv('missing.csv', header=true, columns={'a': 'INT'}) x join 'y.parquet' on 1")
	f.Add("select * from t into outfile 'o.tsv' fields terminated by ',' optionally enclosed by '\"'")
	// TIME, YEAR and SQL prepared statements.
	f.Add("create table z (t time(3), y year); select time '10:20:30.5', cast('1 10:00' as time), cast('69' as year), maketime(1, 2, 3.5), time_format('100:00:00', '%H %p')")
	f.Add("prepare s from 'select ? + 1, \"?\"'; execute s using @a; deallocate prepare s; drop prepare s")
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := parse(text)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("parse error of type %T: %v", err, err)
			}
		}
		for _, p := range ps {
			st, err := bind(cat, NewSession(), nil, p)
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("bind error of type %T: %v", err, err)
				}
				continue
			}
			if q, ok := st.(*Query); ok {
				if planHasOuterRef(q.Plan) {
					t.Fatalf("outer reference left in the plan of %q", text)
				}
				if len(q.Names) != len(q.Plan.Schema()) {
					t.Fatalf("%d names for %d columns: %q", len(q.Names), len(q.Plan.Schema()), text)
				}
				_ = FormatPlan(q.Plan)
			}
		}
	})
}
