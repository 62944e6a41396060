#!/usr/bin/env bash
# Runs the whole SaneHosts test suite on a Debian 12 machine with the Swift toolchain.
# First installs what the build and tests need from Debian (SQLite's headers for GRDB, the real DNS
# servers the interop tests start: dnsmasq, unbound, BIND, PowerDNS Recursor, Knot Resolver, none of them
# started as a service), iproute2 (`ip netns`: the fleet's tests give each server a network namespace of its
# own, which needs root), systemd-analyze (systemd: the schedule's calendar check and the package's units),
# the Debian package test's tools (debootstrap, lintian, dpkg-dev, binutils, systemd-container: it installs
# the package into a clean Debian 12 root, cached in /var/cache/sanehosts-tests), Prometheus (scrapes
# /metrics in a test), systemd-journal-remote (writes a real journal file for `hits --log KIND:journal`),
# node for the dashboard script's syntax check and, for the dashboard's browser test, Chromium,
# chromedriver and Selenium (scripts/install-browser-deps.sh). Then builds the release `sanehosts` (the binary users run: every
# command-line test runs it, through SANEHOSTS_TEST_EXECUTABLE, so a fault of the optimized build fails
# the tests) and every test target, runs the tests, and finally fuzzes each libFuzzer target for 15 s
# (scripts/fuzz.sh).
# Tests start their own servers on
# 127.0.0.1 and never touch the internet or this machine's /etc/hosts.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6.1+ toolchain from swift.org first." >&2
  exit 1
fi

./scripts/apt-install.sh "test dependencies" \
  libsqlite3-dev zlib1g-dev unbound dnsmasq-base bind9 bind9-utils bind9-dnsutils pdns-recursor knot-resolver lua-cqueues openssl \
  util-linux groff-base nodejs libstdc++-12-dev systemd iproute2 debootstrap lintian dpkg-dev binutils systemd-container \
  prometheus systemd-journal-remote

# The dashboard's real-browser test: Chromium and chromedriver from Debian, Selenium from PyPI.
./scripts/install-browser-deps.sh

swift build -c release --product sanehosts
swift build --build-tests
export SANEHOSTS_TEST_EXECUTABLE="$PWD/.build/release/sanehosts"
if [ $# -gt 0 ]; then
  swift test --skip-build "$@"
else
  # The suites that start many real servers and command-line runs (the DNS interop matrix, the Pi-hole
  # FTL behaviours) run on their own after the rest: on 2 cores their processes would starve the
  # timing-sensitive tests running beside them (download retries, time limits). So does the relay's
  # deadlock test, the other way round: beside the rest, its rounds on the shared task pool starve; and
  # the kill -9 rounds of apply (four minutes of two busy cores: the Loading suites waited 82 s beside them).
  heavy="InteropMatrixTests|SemanticsMatrixTests|VerifyChangedTests|VerifyRemovedTests|LeakVerdictTests|PiholeFTLBehaviourTests|StateRelayDeadlockTests|FleetSyncTests|RefusedSecondaryTests|SecondaryConfigurationTests|SignedTransferTests|PackageInstallTests|FleetPiholeTests|ApplyCrashTests"
  swift test --skip-build --skip "$heavy"
  swift test --skip-build --filter "$heavy"
fi

# A short libFuzzer run of each fuzz target (the full runs are in docs/hardening.md). Skipped when arguments
# select tests, and with SANEHOSTS_FUZZ_SECONDS=0.
fuzz_seconds=${SANEHOSTS_FUZZ_SECONDS:-15}
if [ $# -eq 0 ] && [ "$fuzz_seconds" -gt 0 ]; then
  for target in parser hosts-editor dns-decoder pihole-json; do
    ./scripts/fuzz.sh "$target" "$fuzz_seconds"
  done
fi
