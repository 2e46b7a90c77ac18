#!/usr/bin/env bash
# End-to-end test of `gpusql serve` with the MariaDB command-line client
# (Debian's mariadb-client): connect, load SSB through the server, query,
# wrong password refused, a file outside --file-root refused, a client
# killed mid-query leaves the server serving. Loopback only; every step is
# bounded in time. Usage: scripts/e2e-mysql-client.sh [path/to/gpusql]
set -euo pipefail
cd "$(dirname "$0")/.."
GPUSQL=${1:-bin/gpusql}
command -v mariadb >/dev/null || { echo "e2e: the mariadb client is not installed (apt-get install mariadb-client)"; exit 2; }
[ -x "$GPUSQL" ] || go build -o "$GPUSQL" ./cmd/gpusql

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$GPUSQL" gen ssb --sf 0.01 --out "$work/data" >/dev/null
cat > "$work/init.sql" <<SQL
create user 'admin' identified by 'adminpw';
grant all on *.* to 'admin';
create user 'analyst' identified by 'readpw';
grant select on *.* to 'analyst';
SQL
# The data is loaded by a client, through the server, from under the file root.
"$GPUSQL" serve -f "$work/init.sql" --mysql 127.0.0.1:0 --file-root "$work/data" \
  --executor cpu >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/.*serving the MySQL protocol on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/server.out")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "e2e: server did not start"; cat "$work/server.err"; exit 1; }

client() { timeout 60 mariadb -h 127.0.0.1 -P "$port" --protocol=tcp --skip-ssl -N -B "$@"; }
fail() { echo "e2e: FAIL: $*"; exit 1; }
pass=0
ok() { echo "e2e: ok: $*"; pass=$((pass + 1)); }

# 1. Connect and load SSB through the server (LOAD DATA under --file-root).
client -u admin -padminpw gpusql <"$work/data/schema.sql" || fail "loading SSB"
[ "$(client -u admin -padminpw -e 'select count(*) from lineorder')" -gt 0 ] || fail "lineorder is empty"
ok "connected and loaded SSB through the server"

# 2. Query SSB Q1.1 as the read-only user; compare with the embedded engine.
q11="select sum(lo_extendedprice*lo_discount) as revenue from lineorder, date where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25"
got=$(client -u analyst -preadpw -e "$q11")
want=$("$GPUSQL" --executor cpu --format csv -f "$work/data/schema.sql" -c "$q11" 2>/dev/null | tail -n 1)
[ "$got" = "$want" ] || fail "Q1.1 over the server: $got, embedded: $want"
ok "SSB Q1.1 = $got, as the embedded engine"

# 3. The read-only user cannot write; a wrong password is refused.
out=$(client -u analyst -preadpw -e "insert into date select * from date limit 1" 2>&1) && fail "read-only insert succeeded"
grep -q "ERROR 1142" <<<"$out" || fail "read-only insert: $out"
out=$(client -u admin -pwrong -e "select 1" 2>&1) && fail "wrong password accepted"
grep -q "ERROR 1045" <<<"$out" || fail "wrong password: $out"
ok "read-only user refused a write (1142), wrong password refused (1045)"

# 4. Files outside --file-root are refused, '..' included.
out=$(client -u admin -padminpw -e "load data infile '/etc/passwd' into table date" 2>&1) && fail "read /etc/passwd"
grep -q "ERROR 1290" <<<"$out" || fail "outside the file root: $out"
out=$(client -u admin -padminpw -e "load data infile '../init.sql' into table date" 2>&1) && fail "read ../init.sql"
grep -q "ERROR 1290" <<<"$out" || fail "'..' out of the file root: $out"
ok "paths outside the file root refused (1290)"

# 5. A client killed mid-query: the server cancels its query and goes on.
slow="select sum(a.lo_quantity) from lineorder a join lineorder b on a.lo_quantity + b.lo_quantity < a.lo_discount"
client -u admin -padminpw -e "$slow" >/dev/null 2>&1 &
victim=$!
sleep 1
kill -9 "$victim" 2>/dev/null || fail "the slow query ended before it was killed"
wait "$victim" 2>/dev/null || true
[ "$(client -u analyst -preadpw -e 'select count(*) from date')" -gt 0 ] || fail "server after a killed client"
ok "server serves after a client was killed mid-query"

# 6. KILL QUERY from another session stops a running query.
client -n -u admin -padminpw -e "select connection_id(); $slow" >"$work/killed.out" 2>&1 &
victim=$!
id=""
for _ in $(seq 100); do
  id=$(head -n 1 "$work/killed.out")
  [ -n "$id" ] && break
  sleep 0.1
done
[ -n "$id" ] || fail "no connection id from the victim"
sleep 0.5
client -u admin -padminpw -e "kill query $id" || fail "KILL QUERY $id"
wait "$victim" 2>/dev/null || true
grep -q "ERROR 1317" "$work/killed.out" || fail "KILL QUERY: $(cat "$work/killed.out")"
ok "KILL QUERY $id interrupted a running query (1317)"

kill -0 "$server_pid" || fail "the server died"
echo "e2e: $pass passed, 0 failed"
