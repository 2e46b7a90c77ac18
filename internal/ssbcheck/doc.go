// Package ssbcheck checks gpusql's answers to the 13 Star Schema Benchmark
// queries against SQLite (modernc.org/sqlite), an engine that shares no code
// with gpusql, and benchmarks the CPU executor on them. It has no API: its
// tests are the whole package.
//
// TestSSBGenerated loads ssbgen data at SF 0.01 into both engines (gpusql
// through the real LOAD DATA path of engine.DB.Exec, SQLite by plain
// INSERTs) and runs every query under each join and group-by strategy the
// planner can be forced into, so a bug that only one algorithm has shows up
// as a disagreement with the oracle, not with itself. testdata/variants.sql
// adds widened Q3.3 and Q3.4, which are empty at SF 0.01, and
// GPUSQL_SSBCHECK_SF runs the check at a larger scale. TestSSBSample does
// the same on the first rows of the reference dbgen's SF1 output.
//
// Rows are compared as multisets, and gpusql's order is checked against the
// query's ORDER BY keys separately: rows that tie on every sort key (two
// Q3.x groups with the same revenue) may come in either order in both
// engines, so a position-by-position comparison would report false
// differences.
//
// BenchmarkSSBCPU runs the queries at GPUSQL_BENCH_SF (skipped when unset,
// so that go test ./... stays fast).
package ssbcheck
