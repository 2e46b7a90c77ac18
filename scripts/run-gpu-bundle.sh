#!/usr/bin/env bash
# Runs the gpu-bundle on a GPU machine that has no Go: every cuda test binary
# from its package's folder (so relative testdata paths resolve), then the
# SSB benchmark. Logs go to $OUT (or ./out) when set.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
cd "$here"
for f in bin/*.xz; do [ -e "$f" ] && xz -d -f "$f"; done
chmod +x bin/*
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
status=0
for t in bin/*.test; do
  name=$(basename "$t" .test)
  pkg=$(echo "$name" | tr '_' '/')
  dir="tree/$pkg"; mkdir -p "$dir"
  echo "== $name"
  (cd "$dir" && "$here/$t" -test.v ${TEST_ARGS:-}) >"$out/$name.log" 2>&1
  rc=$?
  grep -E '^(--- FAIL|--- SKIP|ok|PASS|FAIL)' "$out/$name.log" | tail -n 40
  [ $rc = 0 ] || status=1
done
if [ -n "${BENCH_SF:-}" ]; then
  bin/gpusql bench ssb --sf "$BENCH_SF" --executor gpu,cpu --runs "${BENCH_RUNS:-5}" --json "$out/bench.json" 2>&1 | tee "$out/bench.txt"
fi
exit $status
