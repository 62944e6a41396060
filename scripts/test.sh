#!/usr/bin/env bash
# Runs the whole SaneHosts test suite on a Debian 12 machine with the Swift toolchain.
# Installs what the tests need first (nothing beyond Swift yet: every test starts its own servers
# on 127.0.0.1), then builds and runs every test target.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install the Swift 6.1+ toolchain from swift.org first." >&2
  exit 1
fi

swift build --build-tests
swift test --skip-build "$@"
