#!/usr/bin/env bash
# Runs the whole SaneHosts test suite on a Debian 12 machine with the Swift toolchain.
# First installs what the build and tests need from Debian (SQLite's headers for GRDB, the real DNS
# servers whose configuration checkers validate our outputs) and, for the dashboard's browser test,
# Chromium, chromedriver and Selenium (scripts/install-browser-deps.sh), then builds and runs every test
# target, and finally fuzzes each libFuzzer target for 15 s (scripts/fuzz.sh).
# Tests start their own servers on
# 127.0.0.1 and never touch the internet or this machine's /etc/hosts.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6.1+ toolchain from swift.org first." >&2
  exit 1
fi

./scripts/apt-install.sh "test dependencies" \
  libsqlite3-dev unbound dnsmasq-base bind9-utils bind9-dnsutils openssl util-linux

# The dashboard's real-browser test: Chromium and chromedriver from Debian, Selenium from PyPI.
./scripts/install-browser-deps.sh

swift build --build-tests
swift test --skip-build "$@"

# A short libFuzzer run of each fuzz target (the full runs are in the README). Skipped when arguments
# select tests, and with SANEHOSTS_FUZZ_SECONDS=0.
fuzz_seconds=${SANEHOSTS_FUZZ_SECONDS:-15}
if [ $# -eq 0 ] && [ "$fuzz_seconds" -gt 0 ]; then
  for target in parser hosts-editor dns-decoder pihole-json; do
    ./scripts/fuzz.sh "$target" "$fuzz_seconds"
  done
fi
