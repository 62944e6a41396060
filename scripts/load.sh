#!/usr/bin/env bash
# Load and soak test of the dashboard on loopback:
#   ./scripts/load.sh [--seconds 30] [--connections 32] [--soak-minutes 10]
#
# Builds the release `sanehosts`, makes a profile of six real lists from ../shared/data/blocklists in a
# temporary data directory, and starts `sanehosts serve` on a free port. Then `wrk` (installed from
# Debian if missing) loads each read endpoint for --seconds with --connections connections and prints
# requests per second and the 50th/99th percentile latency: the JSON API, two pages, the list
# subscription in full, and the same list with If-None-Match (a 304 each time).
# With --soak-minutes, Server-Sent Event clients then connect and leave for that long (16 on the update
# stream, 4 on the test stream, each staying 1-5 s) while pages are read, and the server's resident
# memory and open descriptors are sampled every 30 s; the run fails if memory grows by more than 10%
# (and 16 MiB) after the first minute or descriptors are left open. Finally SIGTERM must stop the
# server with status 0. Nothing outside the temporary directory is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
connections=32
soak=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --soak-minutes) soak=$2; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--connections N] [--soak-minutes N]" >&2; exit 2 ;;
  esac
done
shared=${SANEHOSTS_SHARED:-../shared}
[ -d "$shared/data/blocklists" ] || { echo "no lists in $shared/data/blocklists; set SANEHOSTS_SHARED" >&2; exit 2; }
shared=$(cd "$shared" && pwd)

./scripts/apt-install.sh "load test tools" wrk curl

swift build -c release --product sanehosts >&2
bin=$(swift build -c release --show-bin-path)/sanehosts

work=$(mktemp -d /tmp/sanehosts-load.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export SANEHOSTS_HOME=$work/data TERM=dumb
for list in stevenblack.domains.txt adguarddns.hosts.txt easylist.hosts.txt someonewhocares.hosts.txt \
  anudeep-adservers.hosts.txt hagezi-personal.hosts.txt; do
  "$bin" sources add "$shared/data/blocklists/$list" --name "${list%%.*}" >/dev/null
done
"$bin" update --quiet
printf '127.0.0.1 localhost\n' >"$work/hosts"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --port "$port" --hosts-file "$work/hosts" >"$work/serve.log" 2>&1 &
pid=$!
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -sf "$base/api/status" >/dev/null && break; sleep 0.1; done
curl -sf "$base/api/status" >/dev/null || { cat "$work/serve.log" >&2; exit 1; }

rss() { awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$pid/status"; }
hwm() { awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$pid/status"; }
fds() { ls "/proc/$pid/fd" | wc -l; }

etag=$(curl -sI "$base/lists/default.hosts" | awk -F': ' 'tolower($1) == "etag" { print $2 }' | tr -d '\r')
size=$(curl -s "$base/lists/default.hosts" | wc -c)
names=$(curl -s "$base/api/status" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("names", "?"))' 2>/dev/null || echo "?")
echo "sanehosts serve on $base: profile of 6 real lists, $names names, list $((size / 1024)) KiB, ETag $etag"
echo "wrk: $seconds s each, $connections connections, 2 threads; server at start: $(rss) MiB resident"
echo
printf '%-40s %12s %10s %10s %10s\n' "endpoint" "requests/s" "p50" "p99" "errors"
load() {
  local label=$1 path=$2
  shift 2
  local out
  out=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@" "$base$path")
  local rps p50 p99 errors
  rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$out")
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
  errors=$(awk '/Non-2xx or 3xx responses:/ { n += $NF } /Socket errors:/ { for (i = 4; i <= NF; i += 2) n += $i } END { print n + 0 }' <<<"$out")
  printf '%-40s %12s %10s %10s %10s\n' "$label" "$rps" "$p50" "$p99" "$errors"
}
load "GET /api/status" /api/status
load "GET /api/sources" /api/sources
load "GET / (overview page)" /
load "GET /sources (page)" /sources
load "GET /lists/default.hosts (full list)" /lists/default.hosts
load "GET /lists/default.hosts, If-None-Match" /lists/default.hosts -H "If-None-Match: $etag"
echo
echo "server after load: $(rss) MiB resident, peak $(hwm) MiB, $(fds) open descriptors"

status=0
if [ "$soak" -gt 0 ]; then
  echo
  echo "soak: $soak minutes of SSE clients connecting and leaving (16 update streams, 4 test streams, 1-5 s each)"
  start_fds=$(fds)
  end=$(($(date +%s) + soak * 60))
  clients=()
  for i in $(seq 1 20); do
    stream=/api/update/events
    [ "$i" -gt 16 ] && stream=/api/test/events
    (
      while [ "$(date +%s)" -lt "$end" ]; do
        curl -s -N --max-time $((1 + RANDOM % 5)) "$base$stream" >/dev/null || true
      done
    ) &
    clients+=($!)
  done
  (
    while [ "$(date +%s)" -lt "$end" ]; do
      curl -s "$base/" "$base/sources" "$base/api/status" >/dev/null || true
      sleep 0.2
    done
  ) &
  clients+=($!)
  printf '%8s %12s %12s %8s\n' "minute" "resident MiB" "peak MiB" "fds"
  samples=()
  start=$(date +%s)
  while [ "$(date +%s)" -lt "$end" ]; do
    sleep 30
    minute=$(awk -v s=$(($(date +%s) - start)) 'BEGIN { printf "%.1f", s / 60 }')
    printf '%8s %12s %12s %8s\n' "$minute" "$(rss)" "$(hwm)" "$(fds)"
    samples+=("$(rss)")
  done
  wait "${clients[@]}" 2>/dev/null || true
  # A stream notices a client that left when it next writes: at the latest with the 15 s heartbeat.
  waited=0
  while [ "$(fds)" -gt $((start_fds + 8)) ] && [ "$waited" -lt 40 ]; do
    sleep 1
    waited=$((waited + 1))
  done
  idle_fds=$(fds)
  first=${samples[1]:-${samples[0]}}
  last=$(rss)
  growth=$((last - first))
  echo "resident memory after the first minute ${first} MiB, at the end ${last} MiB (${growth} MiB);" \
    "open descriptors: $start_fds before, $idle_fds ${waited} s after the last client left"
  if [ "$growth" -gt 16 ] && [ $((growth * 10)) -gt "$first" ]; then
    echo "FAIL: memory grew by more than 10% and 16 MiB" >&2
    status=1
  fi
  if [ "$idle_fds" -gt $((start_fds + 8)) ]; then
    echo "FAIL: $idle_fds descriptors still open with no client connected" >&2
    status=1
  fi
fi

kill -TERM "$pid"
wait "$pid" && exit_status=0 || exit_status=$?
pid=""
echo "SIGTERM: server exited with status $exit_status"
[ "$exit_status" -eq 0 ] || status=1
exit $status
