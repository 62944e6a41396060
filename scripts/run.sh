#!/usr/bin/env bash
# Builds (release) and runs `sanehosts` with the given arguments, e.g. `./scripts/run.sh status`.
# On a fresh Debian 12 machine it first installs SQLite's headers (libsqlite3-dev), which the
# embedded database (GRDB) needs to build; nothing else beyond the Swift toolchain is required.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6.1+ toolchain from swift.org first." >&2
  exit 1
fi
./scripts/apt-install.sh "SQLite's headers (needed to build the store) and the static C++ library (linked into the release binary)" libsqlite3-dev libstdc++-12-dev

swift build -c release --product sanehosts >&2
exec .build/release/sanehosts "$@"
