#!/usr/bin/env bash
# Builds the release `sanehosts` (.build/release/sanehosts), first installing the three Debian packages
# the build needs when they are missing: SQLite's headers (the store), zlib's (gzip'd query logs) and
# the static C++ library (linked into the release binary). The one build step of scripts/run.sh,
# scripts/install.sh and scripts/package-deb.sh. Messages go to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6.1+ toolchain from swift.org first (or pass --binary PATH where the script takes one)." >&2
  exit 1
fi
./scripts/apt-install.sh "SQLite's and zlib's headers (needed to build the store and to read gzip'd query logs) and the static C++ library (linked into the release binary)" libsqlite3-dev zlib1g-dev libstdc++-12-dev
swift build -c release --product sanehosts >&2
