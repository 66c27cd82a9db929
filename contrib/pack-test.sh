#!/usr/bin/env bash
# Installs scanarr as a user would without cloning it: `npm pack` of this checkout (the
# tarball's prepack builds dist/), then `npm install -g --prefix <tmp>` of that tarball, then
# the installed `scanarr`: --version, serve --help, and a first `serve` in an empty folder
# (it writes its default config, answers /health, and stops cleanly on SIGTERM).
# Usage: bash contrib/pack-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
step() { printf '== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }
fail() { printf 'pack-test: %s\n' "$1" >&2; exit 1; }

work=$(mktemp -d /tmp/scanarr-pack-test.XXXXXX)
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

step "npm pack"
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
tarball="$work/$tarball"
[ -f "$tarball" ] || fail "npm pack wrote no tarball"
listing=$(tar -tzf "$tarball")
grep -qx 'package/dist/cli/main.js' <<<"$listing" || fail "the tarball has no dist/cli/main.js"
grep -qx 'package/dist/cli/probe-child.js' <<<"$listing" || fail "the tarball has no dist/cli/probe-child.js"
if grep -E '\.map$|^package/docs/images/|^package/(src|test|bench)/' <<<"$listing"; then
  fail "the tarball carries files a user does not need (above)"
fi
printf '%s files, %s bytes\n' "$(wc -l <<<"$listing")" "$(stat -c %s "$tarball")"

step "npm install -g --prefix $work/prefix"
npm install -g --prefix "$work/prefix" --no-audit --no-fund --loglevel=error "$tarball" >/dev/null
bin="$work/prefix/bin/scanarr"
[ -x "$bin" ] || fail "no scanarr on the prefix's PATH"

step "scanarr --version"
want=$(node -p 'require("./package.json").version')
got=$("$bin" --version)
[ "$got" = "$want" ] || fail "scanarr --version printed '$got', package.json says '$want'"

step "scanarr serve --help"
help=$("$bin" serve --help)
grep -q '^Usage: scanarr serve' <<<"$help" || fail "serve --help printed no usage: $help"

step "a first serve in an empty folder"
home="$work/home"
mkdir -p "$home"
# The default config's port: a first run takes no settings.
port=3468
if curl -s -o /dev/null "http://127.0.0.1:$port/"; then fail "port $port is taken by another program; stop it and run again"; fi
(cd "$home" && exec "$bin" serve --log-format json) >"$work/serve.log" 2>&1 &
serve_pid=$!
# /health answers 200, or 503 while the default config's Plex (localhost:32400) is not there: both are an answer.
health() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health" 2>/dev/null || true; }
for _ in $(seq 1 150); do
  case "$(health)" in 200 | 503) break ;; esac
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.log"; fail "serve exited before answering /health"; }
  sleep 0.2
done
case "$(health)" in 200 | 503) ;; *) cat "$work/serve.log"; fail "no /health answer in 30 s" ;; esac
[ -f "$home/config/config.json" ] || fail "the first serve wrote no config/config.json"
kill -TERM "$serve_pid"
wait "$serve_pid" && code=0 || code=$?
serve_pid=""
[ "$code" -eq 0 ] || { cat "$work/serve.log"; fail "serve exited $code on SIGTERM"; }

step "passed"
