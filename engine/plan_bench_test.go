package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gpusql/internal/ssbtest"
	"gpusql/planner"
	"gpusql/sql"
	"gpusql/storage/ssbgen"
)

// planBenchDB is the SSB database BenchmarkSSBPlanning loaded, kept across
// -count runs (loading SF 1 takes longer than the benchmark).
var planBenchDB struct {
	sf float64
	db *DB
}

// BenchmarkSSBPlanning splits the host time of each SSB query before any
// executor runs: parsing, binding, planning for the CPU, planning with the
// GPU's part for the h100 profile (planner.Plan calls PlanGPU; no GPU is
// needed), all three together as Prepare does them, and getting the same
// plan from the plan cache instead; then a whole statement through Exec
// on the CPU executor with the plan cache off and on. The database plans
// for the h100 profile (as one on a GPU does), so Exec's planning
// includes the GPU's part. Scale factor GPUSQL_BENCH_SF (default 1):
//
//	go test -run - -bench SSBPlanning ./engine
func BenchmarkSSBPlanning(b *testing.B) {
	sf := 1.0
	if env := os.Getenv("GPUSQL_BENCH_SF"); env != "" {
		v, err := strconv.ParseFloat(env, 64)
		if err != nil || !(v > 0) {
			b.Fatalf("GPUSQL_BENCH_SF=%q is not a positive scale factor", env)
		}
		sf = v
	}
	db := loadPlanBench(b, sf)
	h100, err := planner.LookupGPUProfile("h100")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range ssbgen.Queries() {
		ps, err := sql.Parse(q.SQL)
		if err != nil {
			b.Fatal(err)
		}
		bind := func() *sql.Query {
			st, err := sql.BindSession(db.cat, db.session, ps[0])
			if err != nil {
				b.Fatal(err)
			}
			return st.(*sql.Query)
		}
		bound := bind()
		plan := func(gpu *planner.GPUProfile) {
			if _, err := planner.Plan(bound, planner.Options{GPU: gpu, Remaps: db.cat.Remap}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(q.Name+"/parse", func(b *testing.B) {
			for b.Loop() {
				if _, err := sql.Parse(q.SQL); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(q.Name+"/bind", func(b *testing.B) {
			for b.Loop() {
				bind()
			}
		})
		b.Run(q.Name+"/plan-cpu", func(b *testing.B) {
			for b.Loop() {
				plan(nil)
			}
		})
		b.Run(q.Name+"/plan-h100", func(b *testing.B) {
			for b.Loop() {
				plan(h100)
			}
		})
		b.Run(q.Name+"/prepare", func(b *testing.B) {
			for b.Loop() {
				if _, err := db.Prepare(q.SQL); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(q.Name+"/cached", func(b *testing.B) {
			if err := setPlanCache(ctx, db, "on"); err != nil {
				b.Fatal(err)
			}
			if _, _, err := db.PrepareCached(q.SQL); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, hit, err := db.PrepareCached(q.SQL); err != nil || !hit {
					b.Fatalf("PrepareCached: hit %v, %v", hit, err)
				}
			}
		})
		for _, cache := range []string{"off", "on"} {
			b.Run(q.Name+"/exec-cpu-cache-"+cache, func(b *testing.B) {
				if err := setPlanCache(ctx, db, cache); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := db.Exec(ctx, q.SQL, ""); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// setPlanCache is SET plan_cache = mode on the database's connection.
func setPlanCache(ctx context.Context, db *DB, mode string) error {
	_, err := db.Exec(ctx, "SET plan_cache = '"+mode+"'", "")
	return err
}

// loadPlanBench loads the SSB tables at sf into a CPU database.
func loadPlanBench(b *testing.B, sf float64) *DB {
	if planBenchDB.db != nil && planBenchDB.sf == sf {
		return planBenchDB.db
	}
	dir := ssbtest.Dir(b, sf)
	db, err := Open(Options{Executor: "cpu", GPUProfile: "h100"})
	if err != nil {
		b.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join(dir, "schema.sql"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), string(schema), dir); err != nil {
		b.Fatal(err)
	}
	planBenchDB.sf, planBenchDB.db = sf, db
	return db
}

// BenchmarkStatementOverhead is the host time of a whole statement whose
// run is trivial (a filtered count over SSB's 2,556-row date table), so
// that parsing, binding and planning are most of it: through Exec with the
// plan cache off and on, on a database that plans for the h100 profile.
func BenchmarkStatementOverhead(b *testing.B) {
	db := loadPlanBench(b, 0.01)
	ctx := context.Background()
	const q = "select d_year, count(*) from date where d_yearmonthnum between 199401 and 199403 group by d_year"
	for _, cache := range []string{"off", "on"} {
		b.Run("cache-"+cache, func(b *testing.B) {
			if err := setPlanCache(ctx, db, cache); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := db.Exec(ctx, q, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
