#!/usr/bin/env bash
# Fuzzes one parser with libFuzzer: `./scripts/fuzz.sh TARGET SECONDS`.
#
# Targets: parser (list parser and compiler), hosts-editor (the hosts file's managed section),
# dns-decoder (DNS message decoding and re-encoding), pihole-json (the lenient Pi-hole reply reader).
# Builds the Fuzz/ package in release with libFuzzer and AddressSanitizer, copies the committed seed
# corpus (Fuzz/Corpus/TARGET) to a scratch corpus in .build/fuzz/corpus/TARGET, runs for SECONDS, and
# prints executions, executions per second and crashes. A crash leaves its input in .build/fuzz/crashes/
# and makes the script exit non-zero; reproduce it with `Fuzz/.build/release/<binary> <crash file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: $0 TARGET SECONDS" >&2
  echo "  TARGET: parser | hosts-editor | dns-decoder | pihole-json" >&2
  echo "  SECONDS: how long to fuzz (a positive whole number)" >&2
  exit 2
}

[ $# -eq 2 ] || usage
target=$1
seconds=$2
case "$target" in
  parser) binary=FuzzParser ;;
  hosts-editor) binary=FuzzHostsEditor ;;
  dns-decoder) binary=FuzzDNSDecoder ;;
  pihole-json) binary=FuzzPiholeJSON ;;
  *) echo "unknown target: $target" >&2; usage ;;
esac
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "not a number of seconds: $seconds" >&2; usage; }

# Sanitizers: libFuzzer's coverage plus AddressSanitizer, on every Swift module of the fuzz build.
# Built twice if the first fails: after a file is added to one of the main package's modules, SwiftPM's
# first build of this package reuses its old plan of that module, which lacks the file (seen on 27 Nov:
# "CompiledList has no member Layout"), and plans again only for the next build. A real error fails both.
build() { swift build -c release --package-path Fuzz --product "$binary" -Xswiftc -sanitize=fuzzer,address; }
# SwiftPM keeps the build plan of Fuzz/ while only the main package's files change: a file added there is
# then missing from it. On a failed build the plan is removed (the compiled objects stay) and it builds again.
build || {
  echo "fuzz.sh: building again with a fresh plan" >&2
  rm -f Fuzz/.build/release.yaml Fuzz/.build/build.db
  build
}
bin_path=$(swift build -c release --package-path Fuzz --show-bin-path)

work=.build/fuzz
corpus=$work/corpus/$target
crashes=$work/crashes
mkdir -p "$corpus" "$crashes"
cp -n Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null || true
log=$work/$target.log

# Swift's own backtracer would run inside the sanitized process on a trap (slow, and ASan objects to
# its reads): let libFuzzer and ASan report instead.
status=0
SWIFT_BACKTRACE=enable=no "$bin_path/$binary" \
  -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 \
  -artifact_prefix="$crashes/$target-" "$corpus" >"$log" 2>&1 || status=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
found=$(grep -c -E '^(==[0-9]+== ERROR|SUMMARY: libFuzzer|.*Test unit written to)' "$log" || true)
echo "$target: ${runs:-?} executions in $seconds s (${speed:-?}/s), corpus $(ls "$corpus" | wc -l) inputs, log $log"
if [ "$status" -ne 0 ]; then
  grep -E 'Fatal error|ERROR|SUMMARY|Test unit written to' "$log" | head -20 >&2
  echo "$target: crashed (exit $status); input in $crashes" >&2
  exit 1
fi
echo "$target: no crashes"
