#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer: `./scripts/sanitize.sh address|thread [swift test args]`.
#
# Builds every target (and the sanehosts binary the CLI and browser tests start) with
# `-sanitize=address` or `-sanitize=thread` in its own scratch folder (.build/sanitize-KIND, so the
# normal build is untouched), then runs the tests. A report from the sanitizer fails the run: ASan
# aborts on the first error; TSan reports every race and exits non-zero at the end. Leaks that belong to
# the XCTest runner itself (objects it keeps until exit) are suppressed by scripts/lsan.supp; any other
# leak fails the run. Expect the build to take 15-20 minutes on 2 cores and the tests 2-10 times longer
# than usual: on a small machine pass --no-parallel, so that tests with a time limit are not starved.
# The code locks with `Locking.Locked` (a pthread mutex) rather than `Synchronization.Mutex`, whose futex
# calls ThreadSanitizer cannot see on Linux: with Mutex every guarded access is reported as a race.
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
case "$kind" in
  address | thread) shift ;;
  *) echo "usage: $0 address|thread [swift test arguments]" >&2; exit 2 ;;
esac
scratch=${SANITIZE_SCRATCH:-.build/sanitize-$kind}

swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
export SWIFT_BACKTRACE=enable=no
# Tests that measure memory skip the bound: a sanitizer's shadow memory and quarantine are not ours.
export SANEHOSTS_SANITIZER=$kind
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
export TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1:history_size=4
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" "$@"
