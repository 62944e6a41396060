#!/usr/bin/env bash
# Builds (release) and runs `sanehosts` with the given arguments, e.g. `./scripts/run.sh status`.
# On a fresh Debian 12 machine it first installs the headers of SQLite (libsqlite3-dev: the embedded
# database, GRDB) and zlib (zlib1g-dev: gzip'd query logs); nothing else beyond the Swift toolchain is required.

set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/build-release.sh
exec .build/release/sanehosts "$@"
