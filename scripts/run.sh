#!/usr/bin/env bash
# Builds (release) and runs `sanehosts` with the given arguments, e.g. `./scripts/run.sh status`.
# On a fresh Debian 12 machine it first installs the headers of SQLite (libsqlite3-dev: the embedded
# database, GRDB) and zlib (zlib1g-dev: gzip'd query logs); nothing else beyond the Swift toolchain is required.

set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6.1+ toolchain from swift.org first." >&2
  exit 1
fi
./scripts/apt-install.sh "SQLite's and zlib's headers (needed to build the store and to read gzip'd query logs) and the static C++ library (linked into the release binary)" libsqlite3-dev zlib1g-dev libstdc++-12-dev

swift build -c release --product sanehosts >&2
exec .build/release/sanehosts "$@"
