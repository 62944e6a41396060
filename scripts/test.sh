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

packages=(libsqlite3-dev unbound dnsmasq-base bind9-utils bind9-dnsutils openssl util-linux)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing test dependencies: ${missing[*]}"
  # Install the servers without starting them as system services: the tests run their own copies.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
    $sudo chmod +x /usr/sbin/policy-rc.d
    trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

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
