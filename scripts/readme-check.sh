#!/usr/bin/env bash
# Runs the README's shell blocks after the set-up block, as a new user would
# type them, in a scratch folder next to bin/gpusql (which must be built).
# Two lines cannot run as written in a script: the REPL (`-i`) gets an empty
# stdin, and `serve` runs in the background until the block's client lines
# are done. Any failing line fails the check, naming it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
ln -s "$repo/bin" "$work/bin"
awk '/^```sh/{n++; if (n > 1) f=1; next} /^```/{f=0} f' "$repo/README.md" |
  sed -E 's/^(bin\/gpusql .* -i)( |$)(.*)$/\1 <\/dev\/null\2\3/' |
  sed -E 's/^(bin\/gpusql serve .*)$/\1 \& serve_pid=$!; wait_for_port 3306/' >"$work/readme.sh"
cat >"$work/prelude.sh" <<'SH'
set -euo pipefail
trap 'echo "README line failed: $BASH_COMMAND" >&2' ERR
# The README starts a server in the background; it must not outlive the check
# (it would hold the caller's output open).
trap 'if [ -n "${serve_pid:-}" ]; then kill "$serve_pid" 2>/dev/null || true; fi' EXIT
wait_for_port() {
  for _ in $(seq 1 200); do
    (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2; return 1
}
SH
if ! command -v mariadb >/dev/null 2>&1; then
  echo "readme-check: mariadb client not installed; its line is skipped" >&2
  sed -i 's/^mariadb /: mariadb /' "$work/readme.sh"
fi
cd "$work"
cat prelude.sh readme.sh >run.sh
bash run.sh
echo "readme-check: every README command ran"
